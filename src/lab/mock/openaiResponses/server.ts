// A mock OpenAI Responses API (the one Codex speaks) on the shared scaffold (../scaffold.ts): 127.0.0.1
// only, an ephemeral port, a per-run bearer token, replies streamed as server-sent events and
// scripted per scenario (./scenarios.ts). Every request is recorded, so a test can assert what the model was told (e.g. after a rejection).
// Codex's auto-review asks the same server for a verdict (./reviewer.ts): such a request gets the
// scripted reviewer's answer, never a scenario's reply, and is recorded as kind `review`.
import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import { bearerToken, jsonLines, RequestLog, safeJson, sendJson, sleep } from '../http.js';
import { newToken, startLoopbackServer, type MockModelServer, type MockRequest } from '../scaffold.js';
import { formatSse, newId, type SseEvent } from '../sse.js';
import { functionCallDone, messageAdded, messageDone, responseCompleted, responseCreated, textDelta } from './events.js';
import { DEFAULT_SCENARIOS, pickReply, scenarioMarker, type MockReply, type Scenario } from './scenarios.js';
import { denyAll, isReviewRequest, parseReviewRequest, verdictText, type ReviewRequest, type Reviewer } from './reviewer.js';

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
  /** `turn`: a model turn with tools; `title`: thread-title generation; `review`: auto-review's reviewer; `other`: anything else. */
  readonly kind: 'turn' | 'title' | 'review' | 'other';
  readonly scenario?: string;
  readonly step?: number;
  /** The user's latest own message in this request. */
  readonly userText?: string;
  /** The input items from the user's latest own message on: what the model is told about this turn. */
  readonly inputFromUser: readonly InputItem[];
  /** A `review`: what was asked and what the scripted reviewer answered. */
  readonly review?: ReviewRequest & { readonly verdict: 'allow' | 'deny' | 'hang' };
  readonly body: unknown;
}

export interface ResponsesServerOptions {
  /** Scenarios by name; merged over (and overriding) the default ones. */
  readonly scenarios?: Readonly<Record<string, Scenario>>;
  /** The scenario for a message without a `SCN=` marker. */
  readonly defaultScenario?: string;
  /** Append each recorded request as one JSON line (instructions and tool specs left out). */
  readonly logFile?: string;
  /** Answers auto-review's reviewer requests; without one, every review is denied with DEFAULT_REVIEW_RATIONALE. */
  readonly reviewer?: Reviewer;
}

/** baseUrl: `http://127.0.0.1:<port>/v1`, for `model_providers.<id>.base_url`; token: the bearer token, in the env var named by `env_key`. */
export interface ResponsesServer extends MockModelServer<RecordedRequest> {
  /** Every function call the mock asked for, in order. */
  readonly calls: readonly IssuedCall[];
}

export async function startResponsesServer(opts: ResponsesServerOptions = {}): Promise<ResponsesServer> {
  const log = jsonLines(opts.logFile);
  const requests = new RequestLog<RecordedRequest>((r) => `${r.kind}:${r.scenario ?? ''}#${r.step ?? ''}`);
  const state: ResponsesState = {
    scenarios: { ...DEFAULT_SCENARIOS, ...opts.scenarios },
    defaultScenario: opts.defaultScenario ?? 'say',
    reviewer: opts.reviewer ?? denyAll,
    reviews: 0,
    calls: [],
    record: (r) => {
      requests.push(r);
      log(toLogLine(r));
    },
  };
  const token = newToken();
  const server = await startLoopbackServer({
    label: 'openaiResponses',
    token,
    presentedToken: (r) => bearerToken(r.req),
    refuseToken: (r) => {
      state.record(plainRequest(r, r.method));
      sendJson(r.res, 401, { error: { message: 'bad token', type: 'invalid_request_error' } });
    },
    handle: (r) => answer(state, r),
  });
  return {
    baseUrl: `http://127.0.0.1:${server.port}/v1`,
    port: server.port,
    token,
    requests: requests.items,
    calls: state.calls,
    waitForRequest: (predicate, timeoutMs) => requests.waitFor(predicate, timeoutMs),
    close: () => server.close(),
  };
}

interface ResponsesState {
  readonly scenarios: Readonly<Record<string, Scenario>>;
  readonly defaultScenario: string;
  readonly reviewer: Reviewer;
  /** How many reviewer requests were answered: the next one's index. */
  reviews: number;
  readonly calls: IssuedCall[];
  record(r: RecordedRequest): void;
}

function plainRequest(r: MockRequest, method: string): RecordedRequest {
  return { ts: new Date().toISOString(), method, path: r.url, kind: 'other', inputFromUser: [], body: r.raw };
}

/** A request with the right token: a model turn, a reviewer's verdict, a thread title, or a refusal. */
async function answer(state: ResponsesState, r: MockRequest): Promise<void> {
  if (r.method !== 'POST' || !r.path.endsWith('/responses')) {
    state.record(plainRequest(r, r.method));
    return sendJson(r.res, 404, { error: { message: `mock has no ${r.method} ${r.url}` } });
  }
  const parsed = ResponsesRequest.safeParse(safeJson(r.raw));
  if (!parsed.success) {
    state.record(plainRequest(r, 'POST'));
    return sendJson(r.res, 400, { error: { message: z.prettifyError(parsed.error) } });
  }
  const body = parsed.data;
  const { userText, fromUser } = lastUserMessage(body.input);
  const ts = new Date().toISOString();
  const allText = body.input.map(itemText).join('\n');
  if (isReviewRequest(r.req, allText)) return answerReview(state, r, allText, { ts, userText, fromUser, body });
  const isTitle = userText.startsWith(TITLE_REQUEST_PREFIX) || !body.tools || body.tools.length === 0;
  if (isTitle) {
    state.record({ ts, method: 'POST', path: r.url, kind: 'title', userText, inputFromUser: fromUser, body });
    return streamReply(r.res, { type: 'text', text: TITLE_TEXT }, 'title', state.calls);
  }
  const scenario = scenarioMarker(userText) ?? state.defaultScenario;
  const step = countCallBatches(fromUser);
  state.record({ ts, method: 'POST', path: r.url, kind: 'turn', scenario, step, userText, inputFromUser: fromUser, body });
  const script = state.scenarios[scenario];
  const reply: MockReply = script ? pickReply(script, { userText, step }) : { type: 'text', text: `mock: unknown scenario ${scenario}` };
  return streamReply(r.res, reply, scenario, state.calls);
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

/** A reviewer request: the scripted verdict. A review is not a step of the turn, so the scenario's replies and the calls are left alone. */
async function answerReview(
  state: ResponsesState,
  r: MockRequest,
  allText: string,
  seen: { ts: string; userText: string; fromUser: InputItem[]; body: unknown },
): Promise<void> {
  const review = parseReviewRequest(allText, state.reviews);
  state.reviews += 1;
  const verdict = state.reviewer(review);
  const summary = 'hang' in verdict ? 'hang' : verdict.outcome;
  state.record({ ts: seen.ts, method: 'POST', path: r.url, kind: 'review', userText: seen.userText, inputFromUser: seen.fromUser, review: { ...review, verdict: summary }, body: seen.body });
  if ('hang' in verdict) return hangStream(r.res);
  if (verdict.delayMs !== undefined) await sleep(verdict.delayMs);
  if (r.res.destroyed) return undefined; // Codex gave up on the review (the user's Esc) during the delay.
  return streamReply(r.res, { type: 'text', text: verdictText(verdict) }, 'review', state.calls);
}

/** Starts a stream and never finishes it: it ends when the client drops it or the server closes. */
async function hangStream(res: ServerResponse): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.write(formatSse(responseCreated(newId('resp'))));
  await new Promise<void>((resolve) => res.once('close', () => resolve()));
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
    review: r.review ? { index: r.review.index, cmd: r.review.cmd, verdict: r.review.verdict } : undefined,
    step: r.step,
    n_input: typeof body === 'object' && body !== null && 'input' in body && Array.isArray(body.input) ? body.input.length : undefined,
    tools: Array.isArray(body?.tools) ? body.tools.map((t) => (t as { name?: string }).name ?? (t as { type?: string }).type) : undefined,
    input_from_user: r.inputFromUser,
  };
}
