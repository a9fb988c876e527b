// The per-run hooks channel: a WebSocket server on 127.0.0.1 (an ephemeral port) that accepts only
// connections presenting the run's random token, validates each message as a HookMessage, hands it
// to the consumer and acks it. Nothing a client sends can take it down: bad upgrades are refused
// and counted, bad messages dropped and counted, and a consumer that throws is disabled.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { RawData, WebSocket, WebSocketServer } from 'ws';
import type { HookMessage } from '../core/hookMessage.js';
import {
  HOOK_ACK,
  HOOK_AUTH_HEADER,
  HOOK_AUTH_SCHEME,
  HOOK_MESSAGE_LIMIT_BYTES,
  HOOK_NACK,
  HOOK_PATH,
} from './hookProtocol.js';

export interface HookServerStats {
  /** Messages validated and handed to the consumer. */
  readonly received: number;
  /** Messages dropped: not JSON, not a HookMessage, binary, over MAX_HOOK_MESSAGE_BYTES, bad frames. */
  readonly dropped: number;
  /** Connections refused at the upgrade (missing or wrong token, wrong path) or plain HTTP requests. */
  readonly rejected: number;
}

export interface HookServer {
  /** ws://127.0.0.1:<port>/rec-hook — give it to the agent as REC_HOOK_URL. */
  readonly url: string;
  /** The run's secret (256 bits, base64url) — give it to the agent as REC_HOOK_TOKEN. Never log it. */
  readonly token: string;
  /** A snapshot of the counters. */
  readonly stats: HookServerStats;
  /** Stops listening and drops open connections. Idempotent. */
  close(): Promise<void>;
}

export interface HookServerOptions {
  onMessage: (message: HookMessage) => void;
  /** The run's debug log (REC_DEBUG=1). Never receives the token or payloads. */
  debug?: (line: string) => void;
  /** Told once when onMessage threw and was disabled, so the run can report the part that failed. */
  onConsumerError?: (err: unknown) => void;
}

/** 32 random bytes: well above the 128 bits needed to make guessing the token hopeless. */
const TOKEN_BYTES = 32;
/**
 * A hook sends one message right after connecting. A connection idle for this long is a stuck or
 * hostile client; closing it bounds what such a client can hold open.
 */
export const HOOK_CONNECTION_IDLE_MS = 10_000;

export async function startHookServer(opts: HookServerOptions): Promise<HookServer> {
  const channel = new HookChannel(opts);
  await channel.listen();
  return channel;
}

/** The server behind a HookServer: one per run, listening from startHookServer until close. */
class HookChannel implements HookServer {
  readonly token = randomBytes(TOKEN_BYTES).toString('base64url');
  private readonly _expectedAuth = Buffer.from(HOOK_AUTH_SCHEME + this.token, 'utf8');
  private readonly _counts = { received: 0, dropped: 0, rejected: 0 };
  private _consumer: ((message: HookMessage) => void) | undefined;
  private readonly _http: Server;
  private _port = 0;
  // ws and the zod schema load after the agent has started (this server must listen before it
  // starts, since its URL goes into the agent's environment); an upgrade waits for them.
  // ws loads on the first connection only: most runs never get one, and it costs RSS (docs/benchmarks.md).
  private _wssReady: Promise<WebSocketServer> | undefined;
  private _wssLoaded: WebSocketServer | undefined;
  private _closing: Promise<void> | undefined;

  constructor(private readonly _opts: HookServerOptions) {
    this._consumer = _opts.onMessage;
    this._http = createServer((_req, res) => {
      // Plain HTTP is not the channel; refuse it like an unauthenticated upgrade.
      this._counts.rejected++;
      res.writeHead(426, { Connection: 'close' }).end();
    });
    this._http.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => this._upgrade(req, socket, head));
    this._http.on('clientError', (_err, socket) => {
      // A malformed HTTP request: refuse it; it never reached the upgrade.
      this._counts.rejected++;
      socket.destroy();
    });
  }

  get url(): string {
    return `ws://127.0.0.1:${this._port}${HOOK_PATH}`;
  }

  get stats(): HookServerStats {
    return { ...this._counts };
  }

  async listen(): Promise<void> {
    const http = this._http;
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(0, '127.0.0.1', () => {
        http.off('error', reject);
        resolve();
      });
    });
    http.on('error', (err) => this._debug(`http error: ${String(err)}`));
    this._port = (http.address() as AddressInfo).port;
    this._debug(`listening on 127.0.0.1:${this._port}`);
  }

  close(): Promise<void> {
    this._closing ??= new Promise<void>((resolve) => {
      if (this._wssLoaded) {
        for (const ws of this._wssLoaded.clients) ws.terminate();
        this._wssLoaded.close();
      }
      this._http.closeAllConnections();
      this._http.close(() => resolve());
    });
    return this._closing;
  }

  private _debug(line: string): void {
    try {
      this._opts.debug?.(`hooks: ${line}`);
    } catch {
      // A failing debug logger must not break the channel it reports on.
    }
  }

  private _isAuthorized(req: IncomingMessage): boolean {
    const header = req.headers[HOOK_AUTH_HEADER];
    if (typeof header !== 'string') return false;
    const given = Buffer.from(header, 'utf8');
    return given.length === this._expectedAuth.length && timingSafeEqual(given, this._expectedAuth);
  }

  private _upgrade(req: IncomingMessage, socket: Socket, head: Buffer): void {
    // Errors on a socket we are about to refuse or hand to ws (client reset): nothing to do.
    socket.on('error', () => undefined);
    const path = (req.url ?? '').split('?')[0];
    if (path !== HOOK_PATH || !this._isAuthorized(req)) {
      this._counts.rejected++;
      this._debug('refused a connection without the run token');
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    void this._loadWss().then(
      (wss) => wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req)),
      (err: unknown) => {
        this._debug(`cannot load the WebSocket server: ${String(err)}`);
        socket.destroy();
      },
    );
  }

  private _loadWss(): Promise<WebSocketServer> {
    return (this._wssReady ??= this._createWss());
  }

  private async _createWss(): Promise<WebSocketServer> {
    const [{ WebSocketServer: WsServer }, { HookMessage: schema }] = await Promise.all([
      import('ws'),
      import('../core/hookMessage.js'),
    ]);
    const wss = new WsServer({
      noServer: true,
      maxPayload: HOOK_MESSAGE_LIMIT_BYTES,
      perMessageDeflate: false,
      clientTracking: true,
    });
    wss.on('connection', (ws: WebSocket) => this._connection(schema, ws));
    wss.on('error', (err) => this._debug(`server error: ${String(err)}`));
    wss.on('wsClientError', (err: Error, socket: Socket) => {
      // An authorized but malformed handshake (bad key or version): refuse it like any other upgrade.
      this._counts.rejected++;
      this._debug(`refused a malformed handshake: ${err.message}`);
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    });
    this._wssLoaded = wss;
    return wss;
  }

  private _connection(schema: HookSchema, ws: WebSocket): void {
    let idle = setTimeout(() => ws.terminate(), HOOK_CONNECTION_IDLE_MS);
    ws.on('message', (data: RawData, isBinary: boolean) => {
      clearTimeout(idle);
      idle = setTimeout(() => ws.terminate(), HOOK_CONNECTION_IDLE_MS);
      try {
        this._handleMessage(schema, ws, data, isBinary);
      } catch (err) {
        // Only a bug in this file can land here; keep serving other connections.
        this._debug(`message handling failed: ${String(err)}`);
      }
    });
    ws.on('error', (err: Error & { code?: string }) => {
      // ws closes the connection itself (1009 for an oversize message, 1002 for a bad frame).
      this._counts.dropped++;
      this._debug(`connection error, message dropped: ${err.code ?? err.message}`);
    });
    ws.on('close', () => clearTimeout(idle));
  }

  private _handleMessage(schema: HookSchema, ws: WebSocket, data: RawData, isBinary: boolean): void {
    const drop = (why: string): void => {
      this._counts.dropped++;
      this._debug(`dropped a message: ${why}`);
      ws.send(HOOK_NACK);
    };
    if (isBinary) return drop('binary frame');
    let json: unknown;
    try {
      json = JSON.parse(rawToString(data));
    } catch {
      // Not JSON: counted and answered, the connection and the server carry on.
      return drop('not JSON');
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) return drop(`not a HookMessage (${parsed.error.issues.length} issues)`);
    this._counts.received++;
    // Deliver before acking: when the hook command exits, the run already has its payload.
    this._deliver(parsed.data);
    ws.send(HOOK_ACK);
  }

  private _deliver(message: HookMessage): void {
    if (this._consumer === undefined) return;
    try {
      this._consumer(message);
    } catch (err) {
      // The consumer (the agent's recorder) has a bug: disable it, keep the channel and the agent going.
      this._consumer = undefined;
      this._debug(`consumer threw on ${message.agent} ${message.event}, disabled: ${String(err)}`);
      try {
        this._opts.onConsumerError?.(err);
      } catch (reportErr) {
        // The failure report itself failed: the debug line above is all we can do.
        this._debug(`onConsumerError threw: ${String(reportErr)}`);
      }
    }
  }
}

type HookSchema = typeof import('../core/hookMessage.js').HookMessage;

function rawToString(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
