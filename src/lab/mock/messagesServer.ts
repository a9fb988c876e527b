// A mock Anthropic Messages API for the real Claude Code CLI: 127.0.0.1 only, an ephemeral port, a
// per-run key (the `x-api-key` header Claude Code sends from ANTHROPIC_API_KEY), replies streamed as
// server-sent events and scripted per scenario (./claudeScenarios.ts). Every request body is recorded,
// and so is a stream the client dropped, so a test can assert what the model was told and when Claude
// Code cut a reply. It is also the proxy claudeEnv points HTTP(S)_PROXY at: a CONNECT or an
// absolute-URI request is refused and logged as an escape attempt.
import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { z } from 'zod';
import {
  blockStop,
  inputJsonDelta,
  messageDelta,
  messageStart,
  messageStop,
  ping,
  textBlockStart,
  textDelta,
  toolUseBlockStart,
} from './anthropicSse.js';
import { CLAUDE_SCENARIOS, FINAL_PREFIX, scenarioMarker, slowWord, type ClaudeReply, type ClaudeScenario } from './claudeScenarios.js';
import { readBody, RequestLog, safeJson, sleep } from './http.js';
import { formatSse, newId, type SseEvent } from './sse.js';

const ContentBlock = z
  .object({ type: z.string(), text: z.string().optional(), tool_use_id: z.string().optional(), content: z.unknown().optional(), is_error: z.boolean().optional() })
  .loose();
const Message = z.object({ role: z.string(), content: z.union([z.string(), z.array(ContentBlock)]) }).loose();
type Message = z.infer<typeof Message>;

const MessagesRequest = z
  .object({
    model: z.string().default('mock-model'),
    messages: z.array(Message).default([]),
    system: z.union([z.string(), z.array(ContentBlock)]).optional(),
    tools: z.array(z.unknown()).optional(),
    stream: z.boolean().optional(),
  })
  .loose();
type MessagesRequest = z.infer<typeof MessagesRequest>;

export interface ToolResultSeen {
  readonly tool_use_id: string;
  readonly is_error: boolean;
  readonly content: string;
}

export interface RecordedRequest {
  readonly ts: string;
  readonly method: string;
  readonly path: string;
  /**
   * `turn`: a main-thread or subagent call with tools; `side`: a call without tools (titles and
   * such); `count_tokens`, `models`; `unauthorized`: a wrong key; `escape`: a proxy request (CONNECT
   * or absolute URI) the guard refused; `other`: anything else.
   */
  readonly kind: 'turn' | 'side' | 'count_tokens' | 'models' | 'unauthorized' | 'escape' | 'other';
  readonly scenario?: string;
  readonly step?: number;
  /** The latest user prompt's text (the one with the scenario marker). */
  readonly userText?: string;
  /** The tool results after the model's last message: what the model is told about its calls. */
  readonly toolResults?: readonly ToolResultSeen[];
  /** Every text block of the last user message (e.g. `[Request interrupted by user]`). */
  readonly lastUserTexts?: readonly string[];
  readonly body: unknown;
}

/** What happened to a streamed reply: each slow chunk sent, and a stream the client dropped. */
export interface StreamNote {
  readonly ts: string;
  readonly scenario: string;
  readonly event: 'chunk' | 'client_aborted_stream' | 'completed';
  /** How many slow chunks went out so far. */
  readonly chunks: number;
  /** The tool_use ids this reply issued (for a slow tool call: the id Claude Code never records). */
  readonly toolUseIds: readonly string[];
}

export interface MessagesServerOptions {
  readonly scenarios?: Readonly<Record<string, ClaudeScenario>>;
  /**
   * The reply to every model turn whose prompts carry no SCENARIO marker, asked anew for each (rec
   * demo's script, where a person types what they like); without it such a turn is `hello`.
   */
  readonly unmarked?: () => ClaudeReply;
  /** Append each request (and each stream note) as one JSON line; system prompt and tool specs left out. */
  readonly logFile?: string;
}

export interface MessagesServer {
  /** `http://127.0.0.1:<port>`, for ANTHROPIC_BASE_URL (and the proxies: the guard). */
  readonly baseUrl: string;
  readonly port: number;
  /** The API key Claude Code must send (ANTHROPIC_API_KEY). */
  readonly token: string;
  readonly requests: readonly RecordedRequest[];
  readonly streams: readonly StreamNote[];
  /** Every tool_use id the mock issued, in order. */
  readonly toolUseIds: readonly string[];
  waitForRequest(predicate: (r: RecordedRequest) => boolean, timeoutMs: number): Promise<RecordedRequest>;
  waitForStream(predicate: (n: StreamNote) => boolean, timeoutMs: number): Promise<StreamNote>;
  close(): Promise<void>;
}

export async function startMessagesServer(opts: MessagesServerOptions = {}): Promise<MessagesServer> {
  const scenarios = { ...CLAUDE_SCENARIOS, ...opts.scenarios };
  // Claude Code approves a custom key by its last 20 characters (claudeEnv seeds that), so keep it long.
  const token = `sk-ant-api03-mock-${randomBytes(24).toString('hex')}`;
  const requests = new RequestLog<RecordedRequest>((r) => `${r.kind}:${r.scenario ?? ''}#${r.step ?? ''}`);
  const streams = new RequestLog<StreamNote>((n) => `${n.scenario}:${n.event}:${n.chunks}`);
  const toolUseIds: string[] = [];
  const log = (line: unknown): void => {
    if (opts.logFile) appendFileSync(opts.logFile, `${JSON.stringify(line)}\n`);
  };
  const record = (r: RecordedRequest): void => {
    requests.push(r);
    log(toLogLine(r));
  };
  const note = (n: StreamNote): void => {
    streams.push(n);
    log({ stream: n });
  };

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      // A bug in the mock must show in the test output, and Claude Code must get an answer, not a hang.
      console.error('[messagesServer]', err);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  // The guard: Claude Code (or anything it starts) trying to tunnel out through the proxy variables.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    record({ ts: now(), method: 'CONNECT', path: req.url ?? '', kind: 'escape', body: null });
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const url = req.url ?? '';
    const method = req.method ?? '';
    if (/^[a-z]+:\/\//i.test(url)) {
      record({ ts: now(), method, path: url, kind: 'escape', body: null });
      return json(res, 403, { error: { type: 'forbidden', message: 'the mock is no proxy' } });
    }
    const path = url.replace(/\?.*$/, '');
    if (req.headers['x-api-key'] !== token) {
      record({ ts: now(), method, path, kind: 'unauthorized', body: raw });
      return json(res, 401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
    }
    if (method === 'GET' && path === '/v1/models') {
      record({ ts: now(), method, path, kind: 'models', body: null });
      return json(res, 200, { data: [{ type: 'model', id: 'mock-model', display_name: 'Mock', created_at: '2026-01-01T00:00:00Z' }], has_more: false, first_id: 'mock-model', last_id: 'mock-model' });
    }
    if (method === 'POST' && path === '/v1/messages/count_tokens') {
      record({ ts: now(), method, path, kind: 'count_tokens', body: safeJson(raw) });
      return json(res, 200, { input_tokens: Math.ceil(raw.length / 4) });
    }
    if (method !== 'POST' || path !== '/v1/messages') {
      record({ ts: now(), method, path, kind: 'other', body: raw });
      return json(res, 404, { type: 'error', error: { type: 'not_found_error', message: `mock has no ${method} ${path}` } });
    }
    const parsed = MessagesRequest.safeParse(safeJson(raw));
    if (!parsed.success) {
      record({ ts: now(), method, path, kind: 'other', body: raw });
      return json(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: z.prettifyError(parsed.error) } });
    }
    const body = parsed.data;
    const turn = readTurn(body, raw);
    if (!body.tools || body.tools.length === 0) {
      record({ ts: now(), method, path, kind: 'side', userText: turn.userText, body });
      return reply(res, body, { type: 'text', text: 'Mock session' }, 'side');
    }
    const scenario = turn.scenario ?? (opts.unmarked ? 'unmarked' : 'hello');
    record({ ts: now(), method, path, kind: 'turn', scenario, step: turn.step, userText: turn.userText, toolResults: turn.toolResults, lastUserTexts: turn.lastUserTexts, body });
    const script = scenarios[scenario];
    let next: ClaudeReply;
    if (turn.scenario === undefined && opts.unmarked) next = opts.unmarked();
    else if (!script) next = { type: 'text', text: `mock: unknown scenario ${scenario}` };
    else next = script[turn.step] ?? { type: 'text', text: finalText(turn.toolResults) };
    return reply(res, body, next, scenario, turn.workDir);
  }

  async function reply(res: ServerResponse, body: MessagesRequest, r: ClaudeReply, scenario: string, workDir = ''): Promise<void> {
    const messageId = newId('msg_mock');
    const ids = r.type === 'tools' ? r.calls.map(() => newId('toolu_mock')) : [];
    toolUseIds.push(...ids);
    const inputs = r.type === 'tools' ? r.calls.map((c) => JSON.stringify(c.input({ workDir, step: 0 }))) : [];
    if (body.stream !== true) {
      const content: unknown[] = [];
      if (r.text) content.push({ type: 'text', text: r.text });
      if (r.type === 'tools') r.calls.forEach((c, i) => content.push({ type: 'tool_use', id: ids[i], name: c.name, input: JSON.parse(inputs[i]!) }));
      return json(res, 200, {
        id: messageId,
        type: 'message',
        role: 'assistant',
        model: body.model,
        content,
        stop_reason: r.type === 'tools' ? 'tool_use' : 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 10 },
      });
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    let closed = false;
    let chunks = 0;
    res.on('close', () => {
      if (!res.writableFinished) {
        closed = true;
        note({ ts: now(), scenario, event: 'client_aborted_stream', chunks, toolUseIds: ids });
      }
    });
    const send = (e: SseEvent): void => {
      if (!closed) res.write(formatSse(e));
    };
    const slowChunk = async (e: SseEvent, delayMs: number): Promise<void> => {
      send(e);
      chunks += 1;
      note({ ts: now(), scenario, event: 'chunk', chunks, toolUseIds: ids });
      await sleep(delayMs);
    };
    send(messageStart(messageId, body.model));
    send(ping());
    let index = 0;
    if (r.type === 'text' && r.delayMs !== undefined) {
      send(textBlockStart(index));
      const words = r.endless ? Number.POSITIVE_INFINITY : r.text.split(' ').length;
      // Until Claude Code hangs up (the Esc scenario), or the words run out.
      for (let i = 0; i < words && !closed; i += 1) await slowChunk(textDelta(index, r.endless ? slowWord(i) : `${r.text.split(' ')[i]} `), r.delayMs);
      send(blockStop(index));
      index += 1;
    } else if (r.text) {
      send(textBlockStart(index));
      send(textDelta(index, r.text));
      send(blockStop(index));
      index += 1;
    }
    if (r.type === 'tools') {
      for (const [i, call] of r.calls.entries()) {
        send(toolUseBlockStart(index, ids[i]!, call.name));
        const input = inputs[i]!;
        const slow = r.slowInputMs !== undefined && i === r.calls.length - 1;
        if (slow) {
          // One character per delay and never the last one: the call is still streaming when Esc comes.
          // After all but the closing brace, JSON whitespace keeps the stream alive until Claude Code hangs up.
          for (let at = 0; !closed; at += 1) await slowChunk(inputJsonDelta(index, at < input.length - 1 ? input[at]! : ' '), r.slowInputMs!);
        } else {
          send(inputJsonDelta(index, input));
        }
        send(blockStop(index));
        index += 1;
      }
    }
    send(messageDelta(r.type === 'tools' ? 'tool_use' : 'end_turn', 10));
    send(messageStop());
    if (!closed) note({ ts: now(), scenario, event: 'completed', chunks, toolUseIds: ids });
    res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    token,
    requests: requests.items,
    streams: streams.items,
    toolUseIds,
    waitForRequest: (p, t) => requests.waitFor(p, t),
    waitForStream: (p, t) => streams.waitFor(p, t),
    close() {
      return new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}

interface Turn {
  readonly scenario: string | undefined;
  readonly step: number;
  readonly userText: string;
  readonly workDir: string;
  readonly toolResults: ToolResultSeen[];
  readonly lastUserTexts: string[];
}

/**
 * The user's latest prompt is the last user message with a text block holding a marker (Claude Code
 * puts harness text — `<system-reminder>`, `[Request interrupted by user]` — into user messages too);
 * the step is how many assistant messages came after it.
 */
function readTurn(body: MessagesRequest, raw: string): Turn {
  const texts = (m: Message): string[] => (typeof m.content === 'string' ? [m.content] : m.content.flatMap((b) => (b.type === 'text' && b.text !== undefined ? [b.text] : [])));
  let at = -1;
  let scenario: string | undefined;
  let userText = '';
  for (let i = body.messages.length - 1; i >= 0 && at < 0; i -= 1) {
    const m = body.messages[i]!;
    if (m.role !== 'user') continue;
    for (const t of texts(m)) {
      const s = scenarioMarker(t);
      if (s !== undefined) {
        at = i;
        scenario = s;
        userText = t;
      }
    }
  }
  const step = at < 0 ? 0 : body.messages.slice(at + 1).filter((m) => m.role === 'assistant').length;
  const last = body.messages.at(-1);
  // Everything after the model's last message: Claude Code may follow the tool results with more user messages.
  const lastAssistant = body.messages.map((m) => m.role).lastIndexOf('assistant');
  const toolResults: ToolResultSeen[] = body.messages
    .slice(lastAssistant + 1)
    .flatMap((m) => (typeof m.content === 'string' ? [] : m.content))
    .flatMap((b) => (b.type === 'tool_result' && b.tool_use_id ? [{ tool_use_id: b.tool_use_id, is_error: b.is_error === true, content: resultText(b.content) }] : []));
  return { scenario, step, userText, workDir: workDirOf(raw), toolResults, lastUserTexts: last && last.role === 'user' ? texts(last) : [] };
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((c: unknown) => (typeof c === 'object' && c !== null && 'text' in c && typeof c.text === 'string' ? c.text : '')).join('');
}

/** Claude Code names its working directory in the request (system prompt or a context block); the file tools need it absolute. */
function workDirOf(raw: string): string {
  return /Primary working directory: *([^\s"\\]+)/.exec(raw)?.[1] ?? '';
}

/** The reply once a scenario's script is used up: which tool results came back, so a screen shows it. */
function finalText(results: readonly ToolResultSeen[]): string {
  if (results.length === 0) return `${FINAL_PREFIX} nothing to report.`;
  return `${FINAL_PREFIX} ${results.length} tool result(s): ${results.map((r) => `${r.tool_use_id} ${r.is_error ? 'ERROR' : 'ok'}`).join(', ')}`;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function now(): string {
  return new Date().toISOString();
}

function toLogLine(r: RecordedRequest): unknown {
  const body = r.body as { messages?: unknown[]; model?: unknown; stream?: unknown } | null;
  return {
    ts: r.ts,
    method: r.method,
    path: r.path,
    kind: r.kind,
    scenario: r.scenario,
    step: r.step,
    model: typeof body === 'object' && body !== null ? body.model : undefined,
    stream: typeof body === 'object' && body !== null ? body.stream : undefined,
    n_messages: typeof body === 'object' && body !== null && Array.isArray(body.messages) ? body.messages.length : undefined,
    user_text: r.userText,
    last_user_texts: r.lastUserTexts,
    tool_results: r.toolResults,
    // The system prompt and tool specs are long and the same every time; the last messages are what the model is told.
    messages_tail: typeof body === 'object' && body !== null && Array.isArray(body.messages) ? body.messages.slice(-2) : undefined,
  };
}
