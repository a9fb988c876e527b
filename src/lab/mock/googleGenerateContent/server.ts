// A mock Gemini API (generativelanguage v1beta: generateContent and streamGenerateContent, the API the
// Gemini CLI speaks) on the shared scaffold (../scaffold.ts): 127.0.0.1 only, an ephemeral port, a
// per-run API key (Gemini 0.61.0 sends it as the `x-goog-api-key` header; a `key=` query is accepted
// too), replies scripted per scenario (./scenarios.ts) and streamed as SSE (./reply.ts). Every request
// is recorded, so a test can assert what the model was told. It is also the guard: a CONNECT or an
// absolute-URI (proxy) request is refused and recorded as `kind: "guard"`.
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { jsonLines, RequestLog, safeJson, sendJson } from '../http.js';
import { newToken, startLoopbackServer, type MockModelServer, type MockRequest } from '../scaffold.js';
import { bracketedScenario } from '../scenarioMarker.js';
import { callsChunk, DEFAULT_MODEL_NAME, streamReply, textChunk, type StreamEnd } from './reply.js';
import { declaredToolNames, GenerateRequest, latestUserText, toLogLine, type ContentRequest } from './request.js';
import { CONTENT_SCENARIOS, pickContentReply, type MockFunctionCall, type ContentReply, type ContentScenario } from './scenarios.js';

export type { StreamEnd } from './reply.js';

export interface IssuedFunctionCall extends MockFunctionCall {
  readonly scenario: string;
}

export interface GenerateContentServerOptions {
  readonly scenarios?: Readonly<Record<string, ContentScenario>>;
  /** Append each recorded request as one JSON line (the system instruction and tool specs left out). */
  readonly logFile?: string;
  /** The model it answers as, in its replies and its model list: the one the agent's client is set to ask for. */
  readonly modelName?: string;
}

/** baseUrl: `http://127.0.0.1:<port>`, for GOOGLE_GEMINI_BASE_URL; token: GEMINI_API_KEY. */
export interface GenerateContentServer extends MockModelServer<ContentRequest> {
  readonly calls: readonly IssuedFunctionCall[];
  readonly streams: readonly StreamEnd[];
  /** Resolves with the first ended stream (past or future) that satisfies `predicate`. */
  waitForStreamEnd(predicate: (s: StreamEnd) => boolean, timeoutMs: number): Promise<StreamEnd>;
}

interface GenerateContentState {
  readonly scenarios: Readonly<Record<string, ContentScenario>>;
  readonly model: string;
  readonly calls: IssuedFunctionCall[];
  readonly streams: RequestLog<StreamEnd>;
  record(r: ContentRequest): void;
}

export async function startGenerateContentServer(opts: GenerateContentServerOptions = {}): Promise<GenerateContentServer> {
  const token = newToken();
  const requests = new RequestLog<ContentRequest>((r) => `${r.kind}:${r.scenario ?? ''}#${r.step ?? ''} ${r.path}`);
  const log = jsonLines(opts.logFile);
  const state: GenerateContentState = {
    scenarios: { ...CONTENT_SCENARIOS, ...opts.scenarios },
    model: opts.modelName ?? DEFAULT_MODEL_NAME,
    calls: [],
    streams: new RequestLog<StreamEnd>((s) => `${s.scenario}:${s.chunks}${s.completed ? '' : ' (cut)'}`),
    record: (r) => {
      requests.push(r);
      log(toLogLine(r));
    },
  };
  const plain = (req: IncomingMessage, kind: ContentRequest['kind'], body: unknown): void =>
    state.record({ ts: new Date().toISOString(), method: req.method ?? '', path: req.url ?? '', kind, contentsFromUser: [], body });
  const server = await startLoopbackServer({
    label: 'googleGenerateContent',
    token,
    presentedToken: (r) => {
      const header = r.req.headers['x-goog-api-key'];
      return typeof header === 'string' ? header : (r.query.get('key') ?? undefined);
    },
    refuseToken: (r) => {
      plain(r.req, 'denied', r.raw);
      sendJson(r.res, 400, { error: { code: 400, message: 'API key not valid.', status: 'INVALID_ARGUMENT' } });
    },
    guard: {
      tunnel: (req) => plain(req, 'guard', null),
      proxyRequest: (r) => {
        plain(r.req, 'guard', r.raw);
        sendJson(r.res, 403, { error: { code: 403, message: 'the mock is not a proxy', status: 'PERMISSION_DENIED' } });
      },
    },
    handle: (r) => answer(state, r, plain),
  });
  return {
    baseUrl: `http://127.0.0.1:${server.port}`,
    port: server.port,
    token,
    requests: requests.items,
    calls: state.calls,
    streams: state.streams.items,
    waitForRequest: (p, t) => requests.waitFor(p, t),
    waitForStreamEnd: (p, t) => state.streams.waitFor(p, t),
    close: () => server.close(),
  };
}

type PlainRecord = (req: IncomingMessage, kind: ContentRequest['kind'], body: unknown) => void;

/** A request with the right key: the model list, the side methods, a refusal, or a model turn. */
async function answer(state: GenerateContentState, r: MockRequest, plain: PlainRecord): Promise<void> {
  const { req, res, path, raw } = r;
  const action = /^\/v1beta\/models\/([^/:]+):(\w+)$/.exec(path);
  if (req.method === 'GET' && /^\/v1beta\/models\/?$/.test(path)) {
    plain(req, 'other', raw);
    return sendJson(res, 200, { models: [{ name: `models/${state.model}`, supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'] }] });
  }
  if (req.method !== 'POST' || !action) {
    plain(req, 'other', raw);
    return sendJson(res, 404, { error: { code: 404, message: `mock has no ${req.method} ${path}`, status: 'NOT_FOUND' } });
  }
  const method = action[2]!;
  if (method === 'countTokens') {
    plain(req, 'other', safeJson(raw));
    return sendJson(res, 200, { totalTokens: 100 });
  }
  if (method === 'embedContent') {
    plain(req, 'other', safeJson(raw));
    return sendJson(res, 200, { embedding: { values: [0, 0, 0] } });
  }
  const parsed = GenerateRequest.safeParse(safeJson(raw));
  if ((method !== 'streamGenerateContent' && method !== 'generateContent') || !parsed.success) {
    plain(req, 'other', raw);
    const message = parsed.success ? `mock has no :${method}` : z.prettifyError(parsed.error);
    return sendJson(res, 400, { error: { code: 400, message, status: 'INVALID_ARGUMENT' } });
  }
  return answerTurn(state, r, parsed.data, method === 'streamGenerateContent');
}

/** A model turn: the scenario's next reply, whole or streamed. */
async function answerTurn(state: GenerateContentState, r: MockRequest, body: GenerateRequest, streamed: boolean): Promise<void> {
  const { userText, fromUser } = latestUserText(body.contents);
  const scenario = bracketedScenario(userText) ?? 'say';
  const step = fromUser.filter((c) => c.role === 'model' && c.parts.some((p) => p.functionCall)).length;
  state.record({ ts: new Date().toISOString(), method: 'POST', path: r.url, kind: 'turn', scenario, step, userText, contentsFromUser: fromUser, body });
  const script = state.scenarios[scenario];
  const reply: ContentReply = script ? pickContentReply(script, { userText, step, toolNames: declaredToolNames(body) }) : { type: 'text', text: `mock: unknown scenario ${scenario}` };
  const issue = (calls: readonly MockFunctionCall[]): void => {
    for (const c of calls) state.calls.push({ ...c, scenario });
  };
  if (!streamed) {
    if (reply.type === 'calls') issue(reply.calls);
    return sendJson(r.res, 200, reply.type === 'calls' ? callsChunk(reply.calls, state.model) : textChunk(reply.text, true, state.model));
  }
  return streamReply(r.res, reply, scenario, state.model, { onCalls: issue, onEnd: (end) => state.streams.push(end) });
}
