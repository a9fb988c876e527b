// The part every mock model server shares, whatever wire API it speaks: it listens on 127.0.0.1 only
// at an ephemeral port, reads each request's body, refuses a request without the per-run token before
// the wire API sees it, and closes with its open streams dropped. With a guard it is also the proxy
// the isolated agents' HTTP(S)_PROXY points at: a CONNECT or an absolute-URI request is refused, since
// it means something tried to leave the machine. What each refusal looks like on the wire (status,
// error body) and what it is recorded as belong to the wire API, so those are callbacks.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { readBody } from './http.js';

/** One request as a wire API sees it: the body already read. */
export interface MockRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly method: string;
  /** As the client sent it, query included. */
  readonly url: string;
  /** The path without the query. */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly raw: string;
}

export interface WireApi {
  /** Names the server in the error output of a bug in the mock. */
  readonly label: string;
  readonly token: string;
  /** The token as this API's clients send it (a header, or a query parameter). */
  presentedToken(r: MockRequest): string | undefined;
  /** Answers (and records) a request without the right token. */
  refuseToken(r: MockRequest): void;
  /** With a guard, the server refuses proxy requests: `tunnel` records a CONNECT, `proxyRequest` answers an absolute URI. */
  readonly guard?: { tunnel(req: IncomingMessage): void; proxyRequest(r: MockRequest): void };
  /** Everything else: a request with the right token. */
  handle(r: MockRequest): Promise<void>;
}

export interface LoopbackServer {
  readonly port: number;
  close(): Promise<void>;
}

/** What every mock model server gives its tests, whatever the wire API: where it is, its token, what it was asked. */
export interface MockModelServer<R> {
  readonly baseUrl: string;
  readonly port: number;
  /** The key the client must send, as its wire API carries it. */
  readonly token: string;
  readonly requests: readonly R[];
  /** Resolves with the first recorded request (past or future) that satisfies `predicate`. */
  waitForRequest(predicate: (r: R) => boolean, timeoutMs: number): Promise<R>;
  close(): Promise<void>;
}

/** A fresh per-run token: `prefix` and `bytes` random bytes in hex. */
export function newToken(bytes = 16, prefix = ''): string {
  return `${prefix}${randomBytes(bytes).toString('hex')}`;
}

export async function startLoopbackServer(api: WireApi): Promise<LoopbackServer> {
  const server: Server = createServer((req, res) => {
    void dispatch(api, req, res).catch((err: unknown) => {
      // A bug in the mock must show in the test output, and the agent must get an answer, not a hang.
      console.error(`[${api.label}]`, err);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  const guard = api.guard;
  if (guard) {
    server.on('connect', (req: IncomingMessage, socket: Socket) => {
      guard.tunnel(req);
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    });
  }
  const port = await listenLoopback(server);
  return { port, close: () => closeServer(server) };
}

async function dispatch(api: WireApi, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const raw = await readBody(req);
  const url = req.url ?? '';
  const query = new URL(url, 'http://127.0.0.1').searchParams;
  const r: MockRequest = { req, res, method: req.method ?? '', url, path: url.replace(/\?.*$/, ''), query, raw };
  if (api.guard && /^[a-z]+:\/\//i.test(url)) return api.guard.proxyRequest(r);
  if (api.presentedToken(r) !== api.token) return api.refuseToken(r);
  return api.handle(r);
}

/** Listens on 127.0.0.1 at an ephemeral port; resolves with the port. */
async function listenLoopback(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

/** Drops open connections (a stream the client still holds) and closes the server. */
function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
