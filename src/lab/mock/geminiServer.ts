// A mock Gemini API (generativelanguage v1beta) for the real Gemini CLI: 127.0.0.1 only, an ephemeral
// port, a per-run API key (Gemini 0.61.0 sends it as the `x-goog-api-key` header; a `key=` query is
// accepted too), replies scripted per scenario (./geminiScenarios.ts) and streamed as SSE. Every
// request is recorded, so a test can assert what the model was told. It is also the guard: a CONNECT
// or an absolute-URI (proxy) request is refused and recorded as `kind: "guard"`.
import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { z } from 'zod';
import {
  GEMINI_SCENARIOS,
  geminiScenarioMarker,
  pickGeminiReply,
  slowWord,
  type GeminiCall,
  type GeminiReply,
  type GeminiScenario,
} from './geminiScenarios.js';
import { closeServer, listenLoopback, readBody, RequestLog, safeJson, sleep } from './http.js';

/** A bound on the endless stream, in case a client never closes (2 minutes at the default delay). */
const MAX_ENDLESS_CHUNKS = 480;

const Part = z
  .object({
    text: z.string().optional(),
    functionCall: z.object({ name: z.string(), args: z.unknown().optional(), id: z.string().optional() }).loose().optional(),
    functionResponse: z.object({ name: z.string(), response: z.unknown().optional(), id: z.string().optional() }).loose().optional(),
  })
  .loose();
const Content = z.object({ role: z.string().optional(), parts: z.array(Part).default([]) }).loose();
export type GeminiContent = z.infer<typeof Content>;
const Tool = z.object({ functionDeclarations: z.array(z.object({ name: z.string() }).loose()).optional() }).loose();
const GenerateRequest = z.object({ contents: z.array(Content).default([]), tools: z.array(Tool).optional() }).loose();

export interface GeminiIssuedCall extends GeminiCall {
  readonly scenario: string;
}

export interface GeminiRequest {
  readonly ts: string;
  readonly method: string;
  readonly path: string;
  /** `turn`: a model turn; `guard`: a proxy/CONNECT attempt (refused); `denied`: wrong or no key; `other`. */
  readonly kind: 'turn' | 'guard' | 'denied' | 'other';
  readonly scenario?: string;
  readonly step?: number;
  readonly userText?: string;
  /** The contents from the latest user text on: what the model is told about this turn. */
  readonly contentsFromUser: readonly GeminiContent[];
  readonly body: unknown;
}

export interface StreamEnd {
  readonly scenario: string;
  /** Chunks written before the reply ended or the client closed. */
  readonly chunks: number;
  /** The text sent, in full. */
  readonly text: string;
  /** False when the client closed the stream first (Esc / Ctrl+C in Gemini). */
  readonly completed: boolean;
}

export interface GeminiServerOptions {
  readonly scenarios?: Readonly<Record<string, GeminiScenario>>;
  /** Append each recorded request as one JSON line (the system instruction and tool specs left out). */
  readonly logFile?: string;
}

export interface GeminiServer {
  /** `http://127.0.0.1:<port>`, for GOOGLE_GEMINI_BASE_URL. */
  readonly baseUrl: string;
  readonly port: number;
  /** The API key Gemini must send (GEMINI_API_KEY). */
  readonly token: string;
  readonly requests: readonly GeminiRequest[];
  readonly calls: readonly GeminiIssuedCall[];
  readonly streams: readonly StreamEnd[];
  /** Resolves with the first recorded request (past or future) that satisfies `predicate`. */
  waitForRequest(predicate: (r: GeminiRequest) => boolean, timeoutMs: number): Promise<GeminiRequest>;
  /** Resolves with the first ended stream (past or future) that satisfies `predicate`. */
  waitForStreamEnd(predicate: (s: StreamEnd) => boolean, timeoutMs: number): Promise<StreamEnd>;
  close(): Promise<void>;
}

export async function startGeminiServer(opts: GeminiServerOptions = {}): Promise<GeminiServer> {
  const scenarios = { ...GEMINI_SCENARIOS, ...opts.scenarios };
  const token = randomBytes(16).toString('hex');
  const requests = new RequestLog<GeminiRequest>((r) => `${r.kind}:${r.scenario ?? ''}#${r.step ?? ''} ${r.path}`);
  const streams = new RequestLog<StreamEnd>((s) => `${s.scenario}:${s.chunks}${s.completed ? '' : ' (cut)'}`);
  const calls: GeminiIssuedCall[] = [];

  const record = (r: GeminiRequest): void => {
    requests.push(r);
    if (opts.logFile) appendFileSync(opts.logFile, `${JSON.stringify(toLogLine(r))}\n`);
  };
  const plain = (req: IncomingMessage, kind: GeminiRequest['kind'], body: unknown): void =>
    record({ ts: new Date().toISOString(), method: req.method ?? '', path: req.url ?? '', kind, contentsFromUser: [], body });

  const server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      // A bug in the mock must show in the test output, and Gemini must get an answer, not a hang.
      console.error('[geminiServer]', err);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  // A CONNECT is a tunnel request through us as a proxy: something tried to leave 127.0.0.1.
  server.on('connect', (req: IncomingMessage, socket) => {
    plain(req, 'guard', null);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const url = req.url ?? '';
    if (/^[a-z]+:\/\//i.test(url)) {
      plain(req, 'guard', raw);
      return json(res, 403, { error: { code: 403, message: 'the mock is not a proxy', status: 'PERMISSION_DENIED' } });
    }
    const parsedUrl = new URL(url, 'http://127.0.0.1');
    const key = req.headers['x-goog-api-key'] ?? parsedUrl.searchParams.get('key');
    if (key !== token) {
      plain(req, 'denied', raw);
      return json(res, 400, { error: { code: 400, message: 'API key not valid.', status: 'INVALID_ARGUMENT' } });
    }
    const path = parsedUrl.pathname;
    const action = /^\/v1beta\/models\/([^/:]+):(\w+)$/.exec(path);
    if (req.method === 'GET' && /^\/v1beta\/models\/?$/.test(path)) {
      plain(req, 'other', raw);
      return json(res, 200, { models: [{ name: 'models/gemini-2.5-flash', supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'] }] });
    }
    if (req.method !== 'POST' || !action) {
      plain(req, 'other', raw);
      return json(res, 404, { error: { code: 404, message: `mock has no ${req.method} ${path}`, status: 'NOT_FOUND' } });
    }
    const method = action[2]!;
    if (method === 'countTokens') {
      plain(req, 'other', safeJson(raw));
      return json(res, 200, { totalTokens: 100 });
    }
    if (method === 'embedContent') {
      plain(req, 'other', safeJson(raw));
      return json(res, 200, { embedding: { values: [0, 0, 0] } });
    }
    const parsed = GenerateRequest.safeParse(safeJson(raw));
    if ((method !== 'streamGenerateContent' && method !== 'generateContent') || !parsed.success) {
      plain(req, 'other', raw);
      const message = parsed.success ? `mock has no :${method}` : z.prettifyError(parsed.error);
      return json(res, 400, { error: { code: 400, message, status: 'INVALID_ARGUMENT' } });
    }
    const { userText, fromUser } = latestUserText(parsed.data.contents);
    const scenario = geminiScenarioMarker(userText) ?? 'say';
    const step = fromUser.filter((c) => c.role === 'model' && c.parts.some((p) => p.functionCall)).length;
    record({ ts: new Date().toISOString(), method: 'POST', path: url, kind: 'turn', scenario, step, userText, contentsFromUser: fromUser, body: parsed.data });
    const script = scenarios[scenario];
    const reply: GeminiReply = script ? pickGeminiReply(script, { userText, step, toolNames: (parsed.data.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((f) => f.name)) }) : { type: 'text', text: `mock: unknown scenario ${scenario}` };
    if (method === 'generateContent') return json(res, 200, reply.type === 'calls' ? callsChunk(reply.calls, scenario) : textChunk(reply.text, true));
    await streamReply(res, reply, scenario);
  }

  function callsChunk(list: readonly GeminiCall[], scenario: string): unknown {
    for (const c of list) calls.push({ ...c, scenario });
    const parts = list.map((c) => ({ functionCall: { name: c.name, args: c.args, ...(c.id ? { id: c.id } : {}) } }));
    return candidate(parts, true);
  }

  async function streamReply(res: ServerResponse, reply: GeminiReply, scenario: string): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    let closed = false;
    res.on('close', () => {
      closed = true;
    });
    const send = (chunk: unknown): void => {
      if (!closed) res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    };
    if (reply.type === 'calls') {
      send(callsChunk(reply.calls, scenario));
      streams.push({ scenario, chunks: 1, text: '', completed: true });
      res.end();
      return;
    }
    const pieces: string[] = [];
    const step = reply.chunkChars ?? reply.text.length;
    for (let at = 0; at < reply.text.length; at += step) pieces.push(reply.text.slice(at, at + step));
    let sent = '';
    let chunks = 0;
    const total = reply.endless ? MAX_ENDLESS_CHUNKS : pieces.length;
    for (let i = 0; i < total && !closed; i += 1) {
      const piece = i < pieces.length ? pieces[i]! : slowWord(i - pieces.length + 1);
      const last = i === total - 1;
      send(textChunk(piece, last));
      sent += piece;
      chunks += 1;
      if (!last && reply.delayMs) await sleep(reply.delayMs);
    }
    streams.push({ scenario, chunks, text: sent, completed: !closed });
    res.end();
  }

  const port = await listenLoopback(server);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    token,
    requests: requests.items,
    calls,
    streams: streams.items,
    waitForRequest: (p, t) => requests.waitFor(p, t),
    waitForStreamEnd: (p, t) => streams.waitFor(p, t),
    close: () => closeServer(server),
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function candidate(parts: readonly unknown[], last: boolean): unknown {
  return {
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
    usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 },
    modelVersion: 'gemini-2.5-flash',
  };
}

function textChunk(text: string, last: boolean): unknown {
  return candidate([{ text }], last);
}

/**
 * The user's latest typed text: the last text part of the latest user turn that has text. Gemini puts
 * its `<session_context>` and the first prompt in one turn, and after a fully rejected batch (rolled
 * back from history) appends the next prompt to that same turn, so the last part is the newest.
 */
function latestUserText(contents: readonly GeminiContent[]): { userText: string; fromUser: GeminiContent[] } {
  for (let i = contents.length - 1; i >= 0; i -= 1) {
    const c = contents[i]!;
    if (c.role !== 'user') continue;
    const texts = c.parts.map((p) => p.text).filter((t): t is string => t !== undefined && !t.startsWith('<session_context>'));
    if (texts.length === 0) continue;
    return { userText: texts.at(-1)!, fromUser: contents.slice(i) };
  }
  return { userText: '', fromUser: [...contents] };
}

/** A request as one log line: the session context part cut short, no system instruction or tool specs. */
function toLogLine(r: GeminiRequest): unknown {
  return {
    ts: r.ts,
    method: r.method,
    path: r.path,
    kind: r.kind,
    scenario: r.scenario,
    step: r.step,
    user_text: r.userText,
    contents_from_user: r.contentsFromUser.map((c) => ({
      ...c,
      parts: c.parts.map((p) => (p.text?.startsWith('<session_context>') ? { text: '<session_context>…' } : p)),
    })),
  };
}
