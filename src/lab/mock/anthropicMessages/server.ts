// A mock Anthropic Messages API (the one Claude Code speaks) on the shared scaffold (../scaffold.ts):
// 127.0.0.1 only, an ephemeral port, a per-run key (the `x-api-key` header Claude Code sends from
// ANTHROPIC_API_KEY), replies streamed as server-sent events (./reply.ts) and scripted per scenario
// (./scenarios.ts). Every request body is recorded, and so is a stream the client dropped, so a test
// can assert what the model was told and when Claude Code cut a reply. A turn that asks for the
// auto-mode classifier's verdicts gets one per call, as scripted (./safeguards.ts). It is also the proxy claudeEnv
// points HTTP(S)_PROXY at: a CONNECT or an absolute-URI request is refused and logged as an escape attempt.
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { jsonLines, RequestLog, safeJson, sendJson } from '../http.js';
import { newToken, startLoopbackServer, type MockModelServer, type MockRequest } from '../scaffold.js';
import { sendReply, type StreamNote } from './reply.js';
import { finalText, MessagesRequest, readTurn, toLogLine, type RecordedRequest } from './request.js';
import { allowEverything, asksForVerdicts, safeguardResults, type Classifier, type SentVerdict } from './safeguards.js';
import { MESSAGES_SCENARIOS, type MessagesReply, type MessagesScenario } from './scenarios.js';

export type { StreamNote } from './reply.js';
export type { Classifier, ClassifierVerdict, SentVerdict } from './safeguards.js';

export interface MessagesServerOptions {
  readonly scenarios?: Readonly<Record<string, MessagesScenario>>;
  /**
   * The reply to every model turn whose prompts carry no SCENARIO marker, asked anew for each (rec
   * demo's script, where a person types what they like); without it such a turn is `hello`.
   */
  readonly unmarked?: () => MessagesReply;
  /**
   * The auto-mode classifier: the verdict on each call of a reply to a request that carries
   * `safeguards`; by default every call is `not_flagged`.
   */
  readonly classifier?: Classifier;
  /** Append each request (and each stream note and verdict) as one JSON line; system prompt and tool specs left out. */
  readonly logFile?: string;
}

/** baseUrl: `http://127.0.0.1:<port>`, for ANTHROPIC_BASE_URL (and the proxies: the guard); token: ANTHROPIC_API_KEY. */
export interface MessagesServer extends MockModelServer<RecordedRequest> {
  readonly streams: readonly StreamNote[];
  /** Every tool_use id the mock issued, in order. */
  readonly toolUseIds: readonly string[];
  /** Every classifier verdict the mock sent (or omitted), in order. */
  readonly verdicts: readonly SentVerdict[];
  waitForStream(predicate: (n: StreamNote) => boolean, timeoutMs: number): Promise<StreamNote>;
}

interface MessagesState {
  readonly scenarios: Readonly<Record<string, MessagesScenario>>;
  readonly unmarked: (() => MessagesReply) | undefined;
  readonly toolUseIds: string[];
  readonly classifier: Classifier;
  readonly verdicts: SentVerdict[];
  record(r: RecordedRequest): void;
  note(n: StreamNote): void;
  sent(v: SentVerdict): void;
}

export async function startMessagesServer(opts: MessagesServerOptions = {}): Promise<MessagesServer> {
  // Claude Code approves a custom key by its last 20 characters (claudeEnv seeds that), so keep it long.
  const token = newToken(24, 'sk-ant-api03-mock-');
  const requests = new RequestLog<RecordedRequest>((r) => `${r.kind}:${r.scenario ?? ''}#${r.step ?? ''}`);
  const streams = new RequestLog<StreamNote>((n) => `${n.scenario}:${n.event}:${n.chunks}`);
  const log = jsonLines(opts.logFile);
  const state: MessagesState = {
    scenarios: { ...MESSAGES_SCENARIOS, ...opts.scenarios },
    unmarked: opts.unmarked,
    toolUseIds: [],
    classifier: opts.classifier ?? allowEverything,
    verdicts: [],
    record: (r) => {
      requests.push(r);
      log(toLogLine(r));
    },
    note: (n) => {
      streams.push(n);
      log({ stream: n });
    },
    sent: (v) => {
      state.verdicts.push(v);
      log({ verdict: v });
    },
  };
  const server = await startLoopbackServer({
    label: 'anthropicMessages',
    token,
    presentedToken: (r) => headerValue(r.req, 'x-api-key'),
    refuseToken: (r) => {
      state.record({ ts: now(), method: r.method, path: r.path, kind: 'unauthorized', body: r.raw });
      sendJson(r.res, 401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
    },
    guard: {
      tunnel: (req) => state.record({ ts: now(), method: 'CONNECT', path: req.url ?? '', kind: 'escape', body: null }),
      proxyRequest: (r) => {
        state.record({ ts: now(), method: r.method, path: r.url, kind: 'escape', body: null });
        sendJson(r.res, 403, { error: { type: 'forbidden', message: 'the mock is no proxy' } });
      },
    },
    handle: (r) => answer(state, r),
  });
  return {
    baseUrl: `http://127.0.0.1:${server.port}`,
    port: server.port,
    token,
    requests: requests.items,
    streams: streams.items,
    toolUseIds: state.toolUseIds,
    verdicts: state.verdicts,
    waitForRequest: (p, t) => requests.waitFor(p, t),
    waitForStream: (p, t) => streams.waitFor(p, t),
    close: () => server.close(),
  };
}

/** A request with the right key: the side endpoints, a refusal, or a model turn. */
async function answer(state: MessagesState, r: MockRequest): Promise<void> {
  const { method, path, raw, res } = r;
  if (method === 'GET' && path === '/v1/models') {
    state.record({ ts: now(), method, path, kind: 'models', body: null });
    return sendJson(res, 200, { data: [{ type: 'model', id: 'mock-model', display_name: 'Mock', created_at: '2026-01-01T00:00:00Z' }], has_more: false, first_id: 'mock-model', last_id: 'mock-model' });
  }
  if (method === 'POST' && path === '/v1/messages/count_tokens') {
    state.record({ ts: now(), method, path, kind: 'count_tokens', body: safeJson(raw) });
    return sendJson(res, 200, { input_tokens: Math.ceil(raw.length / 4) });
  }
  if (method !== 'POST' || path !== '/v1/messages') {
    state.record({ ts: now(), method, path, kind: 'other', body: raw });
    return sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `mock has no ${method} ${path}` } });
  }
  const parsed = MessagesRequest.safeParse(safeJson(raw));
  if (!parsed.success) {
    state.record({ ts: now(), method, path, kind: 'other', body: raw });
    return sendJson(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: z.prettifyError(parsed.error) } });
  }
  return answerTurn(state, r, parsed.data);
}

/** A model call: a side call without tools gets a title, a turn gets its scenario's next reply. */
async function answerTurn(state: MessagesState, r: MockRequest, body: MessagesRequest): Promise<void> {
  const { method, path } = r;
  const turn = readTurn(body, r.raw);
  const safeguards = asksForVerdicts(body.safeguards);
  const target = (scenario: string, workDir: string) => ({
    res: r.res,
    body,
    scenario,
    workDir,
    issued: (ids: readonly string[]) => state.toolUseIds.push(...ids),
    note: state.note,
    ...(safeguards ? { classify: (calls: readonly { id: string; name: string; input: Record<string, unknown> }[]) => classify(state, scenario, calls) } : {}),
  });
  if (!body.tools || body.tools.length === 0) {
    state.record({ ts: now(), method, path, kind: 'side', userText: turn.userText, body });
    return sendReply(target('side', ''), { type: 'text', text: 'Mock session' });
  }
  const scenario = turn.scenario ?? (state.unmarked ? 'unmarked' : 'hello');
  state.record({
    ts: now(),
    method,
    path,
    kind: 'turn',
    scenario,
    step: turn.step,
    userText: turn.userText,
    toolResults: turn.toolResults,
    lastUserTexts: turn.lastUserTexts,
    ...(safeguards ? { safeguards } : {}),
    body,
  });
  const script = state.scenarios[scenario];
  let next: MessagesReply;
  if (turn.scenario === undefined && state.unmarked) next = state.unmarked();
  else if (!script) next = { type: 'text', text: `mock: unknown scenario ${scenario}` };
  else next = script[turn.step] ?? { type: 'text', text: finalText(turn.toolResults) };
  return sendReply(target(scenario, turn.workDir), next);
}

/** The scripted verdict on each call, noted, as the reply's `safeguard_results`. */
function classify(state: MessagesState, scenario: string, calls: readonly { id: string; name: string; input: Record<string, unknown> }[]): readonly unknown[] | undefined {
  const verdicts = calls.map((c) => {
    const index = state.verdicts.length;
    const verdict = state.classifier({ name: c.name, input: c.input, index });
    state.sent({ ts: now(), scenario, toolUseId: c.id, name: c.name, index, verdict });
    return { toolUseId: c.id, verdict };
  });
  return safeguardResults(verdicts);
}

/** A header's value, or undefined when it is absent or repeated. */
function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

function now(): string {
  return new Date().toISOString();
}
