// A mock OpenAI Responses API for the real Codex CLI: 127.0.0.1 only, an ephemeral port, a per-run
// bearer token, replies streamed as server-sent events and scripted per scenario (./scenarios.ts).
// Every request is recorded, so a test can assert what the model was told (e.g. after a rejection).
import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { z } from 'zod';
import { closeServer, listenLoopback, readBody, safeJson, sleep } from './http.js';
import {
  DEFAULT_SCENARIOS,
  pickReply,
  scenarioMarker,
  type MockReply,
  type Scenario,
} from './scenarios.js';
import {
  formatSse,
  functionCallDone,
  messageAdded,
  messageDone,
  newId,
  responseCompleted,
  responseCreated,
  textDelta,
  type SseEvent,
} from './sse.js';

/** What Codex asks for a thread title; answered with plain text, never with a tool call. */
const TITLE_REQUEST_PREFIX = 'Generate a concise, single-line task title';
const TITLE_TEXT = 'Mock task';

const InputItem = z
  .object({
    type: z.string().optional(),
    role: z.string().optional(),
    content: z.unknown().optional(),
    call_id: z.string().optional(),
    name: z.string().optional(),
    arguments: z.string().optional(),
    output: z.unknown().optional(),
  })
  .loose();
type InputItem = z.infer<typeof InputItem>;

const ResponsesRequest = z
  .object({
    model: z.string().optional(),
    input: z.array(InputItem).default([]),
    tools: z.array(z.unknown()).optional(),
    stream: z.boolean().optional(),
  })
  .loose();

export interface IssuedCall {
  readonly callId: string;
  readonly name: string;
  readonly namespace?: string;
  readonly arguments: string;
  readonly scenario: string;
}

export interface RecordedRequest {
  readonly ts: string;
  readonly method: string;
  readonly path: string;
  /** `turn`: a model turn with tools; `title`: thread-title generation; `other`: anything else. */
  readonly kind: 'turn' | 'title' | 'other';
  readonly scenario?: string;
  readonly step?: number;
  /** The user's latest own message in this request. */
  readonly userText?: string;
  /** The input items from the user's latest own message on: what the model is told about this turn. */
  readonly inputFromUser: readonly InputItem[];
  readonly body: unknown;
}

export interface ResponsesServerOptions {
  /** Scenarios by name; merged over (and overriding) the default ones. */
  readonly scenarios?: Readonly<Record<string, Scenario>>;
  /** The scenario for a message without a `SCN=` marker. */
  readonly defaultScenario?: string;
  /** Append each recorded request as one JSON line (instructions and tool specs left out). */
  readonly logFile?: string;
}

export interface ResponsesServer {
  /** `http://127.0.0.1:<port>/v1`, for `model_providers.<id>.base_url`. */
  readonly baseUrl: string;
  readonly port: number;
  /** The bearer token Codex must send (set it in the env var named by `env_key`). */
  readonly token: string;
  readonly requests: readonly RecordedRequest[];
  /** Every function call the mock asked for, in order. */
  readonly calls: readonly IssuedCall[];
  /** Resolves with the first recorded request (past or future) that satisfies `predicate`. */
  waitForRequest(predicate: (r: RecordedRequest) => boolean, timeoutMs: number): Promise<RecordedRequest>;
  close(): Promise<void>;
}

export async function startResponsesServer(opts: ResponsesServerOptions = {}): Promise<ResponsesServer> {
  const scenarios = { ...DEFAULT_SCENARIOS, ...opts.scenarios };
  const defaultScenario = opts.defaultScenario ?? 'say';
  const token = randomBytes(16).toString('hex');
  const requests: RecordedRequest[] = [];
  const calls: IssuedCall[] = [];
  const listeners = new Set<() => void>();

  const record = (r: RecordedRequest): void => {
    requests.push(r);
    if (opts.logFile) appendFileSync(opts.logFile, `${JSON.stringify(toLogLine(r))}\n`);
    for (const l of [...listeners]) l();
  };

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      // A bug in the mock must show in the test output, and Codex must get an answer, not a hang.
      console.error('[responsesServer]', err);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = req.url ?? '';
    if (req.headers.authorization !== `Bearer ${token}`) {
      record({ ts: new Date().toISOString(), method: req.method ?? '', path, kind: 'other', inputFromUser: [], body: raw });
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'bad token', type: 'invalid_request_error' } }));
      return;
    }
    if (req.method !== 'POST' || !path.replace(/\?.*$/, '').endsWith('/responses')) {
      record({ ts: new Date().toISOString(), method: req.method ?? '', path, kind: 'other', inputFromUser: [], body: raw });
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `mock has no ${req.method} ${path}` } }));
      return;
    }
    const parsed = ResponsesRequest.safeParse(safeJson(raw));
    if (!parsed.success) {
      record({ ts: new Date().toISOString(), method: 'POST', path, kind: 'other', inputFromUser: [], body: raw });
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: z.prettifyError(parsed.error) } }));
      return;
    }
    const body = parsed.data;
    const { userText, fromUser } = lastUserMessage(body.input);
    const isTitle = userText.startsWith(TITLE_REQUEST_PREFIX) || !body.tools || body.tools.length === 0;
    if (isTitle) {
      record({ ts: new Date().toISOString(), method: 'POST', path, kind: 'title', userText, inputFromUser: fromUser, body });
      await streamReply(res, { type: 'text', text: TITLE_TEXT }, 'title', calls);
      return;
    }
    const scenario = scenarioMarker(userText) ?? defaultScenario;
    const step = countCallBatches(fromUser);
    record({ ts: new Date().toISOString(), method: 'POST', path, kind: 'turn', scenario, step, userText, inputFromUser: fromUser, body });
    const script = scenarios[scenario];
    const reply: MockReply = script
      ? pickReply(script, { userText, step })
      : { type: 'text', text: `mock: unknown scenario ${scenario}` };
    await streamReply(res, reply, scenario, calls);
  }

  const port = await listenLoopback(server);

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    token,
    requests,
    calls,
    waitForRequest: (predicate, timeoutMs) => waitForRequest(requests, listeners, predicate, timeoutMs),
    close: () => closeServer(server),
  };
}

/** Streams one reply as Responses SSE events; the calls it asks for are appended to `calls`. */
async function streamReply(res: ServerResponse, reply: MockReply, scenario: string, calls: IssuedCall[]): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  const send = (e: SseEvent): void => {
    if (!closed) res.write(formatSse(e));
  };
  const responseId = newId('resp');
  send(responseCreated(responseId));
  let index = 0;
  const text = reply.text;
  if (text !== undefined) {
    const itemId = newId('msg');
    send(messageAdded(itemId, index));
    const chunk = reply.type === 'text' ? (reply.chunkChars ?? text.length) : text.length;
    const delay = reply.type === 'text' ? (reply.delayMs ?? 0) : 0;
    for (let at = 0; at < text.length && !closed; at += chunk) {
      send(textDelta(itemId, index, text.slice(at, at + chunk)));
      if (delay > 0) await sleep(delay);
    }
    send(messageDone(itemId, index, text));
    index += 1;
  }
  if (reply.type === 'calls') {
    for (const call of reply.calls) {
      const issued: IssuedCall = {
        callId: newId('call'),
        name: call.name ?? 'exec_command',
        ...(call.namespace ? { namespace: call.namespace } : {}),
        arguments: JSON.stringify(call.args),
        scenario,
      };
      calls.push(issued);
      send(functionCallDone(index, issued));
      index += 1;
    }
  }
  send(responseCompleted(responseId));
  res.end();
}

/** Resolves with the first recorded request (past or future) that satisfies `predicate`. */
function waitForRequest(
  requests: readonly RecordedRequest[],
  listeners: Set<() => void>,
  predicate: (r: RecordedRequest) => boolean,
  timeoutMs: number,
): Promise<RecordedRequest> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const hit = requests.find(predicate);
      if (!hit) return false;
      listeners.delete(listener);
      clearTimeout(timer);
      resolve(hit);
      return true;
    };
    const listener = (): void => void check();
    const timer = setTimeout(() => {
      listeners.delete(listener);
      reject(new Error(`no matching request within ${timeoutMs} ms; got ${requests.length}: ${requests.map((r) => `${r.kind}:${r.scenario ?? ''}#${r.step ?? ''}`).join(', ')}`));
    }, timeoutMs);
    listeners.add(listener);
    check();
  });
}

function itemText(item: InputItem): string {
  if (typeof item.content === 'string') return item.content;
  if (!Array.isArray(item.content)) return '';
  return item.content
    .map((c: unknown) => (typeof c === 'object' && c !== null && 'text' in c && typeof c.text === 'string' ? c.text : ''))
    .join('');
}

/** The user's own latest message; Codex's harness messages (`<environment_context>`, `<turn_aborted>`) start with `<`. */
function lastUserMessage(input: readonly InputItem[]): { userText: string; fromUser: InputItem[] } {
  for (let i = input.length - 1; i >= 0; i -= 1) {
    const item = input[i]!;
    if (item.role !== 'user') continue;
    const text = itemText(item);
    if (text.trimStart().startsWith('<')) continue;
    return { userText: text, fromUser: input.slice(i) };
  }
  return { userText: '', fromUser: [...input] };
}

/** How many responses with function calls the model already gave in this turn (runs of `function_call` items). */
function countCallBatches(items: readonly InputItem[]): number {
  let batches = 0;
  let inBatch = false;
  for (const item of items) {
    if (item.type === 'function_call') {
      if (!inBatch) batches += 1;
      inBatch = true;
    } else if (item.type === 'function_call_output') {
      inBatch = false;
    }
  }
  return batches;
}

function toLogLine(r: RecordedRequest): unknown {
  const body = r.body as { tools?: unknown[] } | undefined;
  return {
    ts: r.ts,
    method: r.method,
    path: r.path,
    kind: r.kind,
    scenario: r.scenario,
    step: r.step,
    n_input: typeof body === 'object' && body !== null && 'input' in body && Array.isArray(body.input) ? body.input.length : undefined,
    tools: Array.isArray(body?.tools) ? body.tools.map((t) => (t as { name?: string }).name ?? (t as { type?: string }).type) : undefined,
    input_from_user: r.inputFromUser,
  };
}
