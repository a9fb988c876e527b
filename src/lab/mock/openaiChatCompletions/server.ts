// A mock OpenAI Chat Completions API on the shared scaffold (../scaffold.ts), for the agents that
// speak it: 127.0.0.1 only, an ephemeral port, a per-run bearer token, replies scripted per scenario
// (./scenarios.ts), whole or streamed (./reply.ts). Every request is recorded, so a test can assert
// what the model was told. It is also the proxy guard: a CONNECT or an absolute-URI request is
// refused and recorded as `kind: "escape"`.
import { z } from 'zod';
import { bearerToken, jsonLines, RequestLog, safeJson, sendJson } from '../http.js';
import { newToken, startLoopbackServer, type MockModelServer, type MockRequest } from '../scaffold.js';
import { bracketedScenario } from '../scenarioMarker.js';
import { issueCalls, sendReply, type IssuedToolCall } from './reply.js';
import { ChatRequest, readTurn, toLogLine, type ChatRecordedRequest } from './request.js';
import { CHAT_SCENARIOS, pickChatReply, SIDE_TEXT, type ChatReply, type ChatScenario } from './scenarios.js';


export interface ChatIssuedCall extends IssuedToolCall {
  readonly scenario: string;
}

export interface ChatCompletionsServerOptions {
  /** Scenarios by name; merged over (and overriding) the default ones. */
  readonly scenarios?: Readonly<Record<string, ChatScenario>>;
  /** The scenario for a prompt without a marker; `say` unless given. */
  readonly defaultScenario?: string;
  /** Append each recorded request as one JSON line (system prompt and tool specs left out). */
  readonly logFile?: string;
}

/** baseUrl: `http://127.0.0.1:<port>/v1`, what an OpenAI-compatible provider setting takes; token: its API key. */
export interface ChatCompletionsServer extends MockModelServer<ChatRecordedRequest> {
  /** Every tool call the mock asked for, in order. */
  readonly calls: readonly ChatIssuedCall[];
}

interface ChatState {
  readonly scenarios: Readonly<Record<string, ChatScenario>>;
  readonly defaultScenario: string;
  readonly calls: ChatIssuedCall[];
  record(r: ChatRecordedRequest): void;
}

export async function startChatCompletionsServer(opts: ChatCompletionsServerOptions = {}): Promise<ChatCompletionsServer> {
  const token = newToken();
  const requests = new RequestLog<ChatRecordedRequest>((r) => `${r.kind}:${r.scenario ?? ''}#${r.step ?? ''}`);
  const log = jsonLines(opts.logFile);
  const state: ChatState = {
    scenarios: { ...CHAT_SCENARIOS, ...opts.scenarios },
    defaultScenario: opts.defaultScenario ?? 'say',
    calls: [],
    record: (r) => {
      requests.push(r);
      log(toLogLine(r));
    },
  };
  const server = await startLoopbackServer({
    label: 'openaiChatCompletions',
    token,
    presentedToken: (r) => bearerToken(r.req),
    refuseToken: (r) => {
      state.record({ ts: now(), method: r.method, path: r.path, kind: 'unauthorized', body: r.raw });
      sendJson(r.res, 401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
    },
    guard: {
      tunnel: (req) => state.record({ ts: now(), method: 'CONNECT', path: req.url ?? '', kind: 'escape', body: null }),
      proxyRequest: (r) => {
        state.record({ ts: now(), method: r.method, path: r.url, kind: 'escape', body: null });
        sendJson(r.res, 403, { error: { message: 'the mock is no proxy', type: 'forbidden', param: null, code: null } });
      },
    },
    handle: (r) => answer(state, r),
  });
  return {
    baseUrl: `http://127.0.0.1:${server.port}/v1`,
    port: server.port,
    token,
    requests: requests.items,
    calls: state.calls,
    waitForRequest: (p, t) => requests.waitFor(p, t),
    close: () => server.close(),
  };
}

/** A request with the right token: the model list, a refusal, or a completion. */
async function answer(state: ChatState, r: MockRequest): Promise<void> {
  const { method, path, raw, res } = r;
  if (method === 'GET' && path.endsWith('/models')) {
    state.record({ ts: now(), method, path, kind: 'models', body: null });
    return sendJson(res, 200, { object: 'list', data: [{ id: 'mock-model', object: 'model', created: 1767225600, owned_by: 'rec' }] });
  }
  if (method !== 'POST' || !path.endsWith('/chat/completions')) {
    state.record({ ts: now(), method, path, kind: 'other', body: raw });
    return sendJson(res, 404, { error: { message: `mock has no ${method} ${path}`, type: 'invalid_request_error', param: null, code: null } });
  }
  const parsed = ChatRequest.safeParse(safeJson(raw));
  if (!parsed.success) {
    state.record({ ts: now(), method, path, kind: 'other', body: raw });
    return sendJson(res, 400, { error: { message: z.prettifyError(parsed.error), type: 'invalid_request_error', param: null, code: null } });
  }
  return answerTurn(state, r, parsed.data);
}

/** A completion: a side call without tools gets SIDE_TEXT, a turn its scenario's next reply. */
async function answerTurn(state: ChatState, r: MockRequest, body: ChatRequest): Promise<void> {
  const turn = readTurn(body);
  const target = { res: r.res, model: body.model, stream: body.stream === true, includeUsage: body.stream_options?.include_usage === true };
  if (turn.toolNames.length === 0) {
    state.record({ ts: now(), method: r.method, path: r.path, kind: 'side', userText: turn.userText, body });
    return sendReply(target, { type: 'text', text: SIDE_TEXT }, []);
  }
  const scenario = bracketedScenario(turn.userText) ?? state.defaultScenario;
  state.record({ ts: now(), method: r.method, path: r.path, kind: 'turn', scenario, step: turn.step, userText: turn.userText, toolResults: turn.toolResults, body });
  const script = state.scenarios[scenario];
  const reply: ChatReply = script ? pickChatReply(script, turn) : { type: 'text', text: `mock: unknown scenario ${scenario}` };
  const calls = issueCalls(reply);
  state.calls.push(...calls.map((c) => ({ ...c, scenario })));
  return sendReply(target, reply, calls);
}

function now(): string {
  return new Date().toISOString();
}
