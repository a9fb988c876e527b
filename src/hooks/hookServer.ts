// The per-run hooks channel: a WebSocket server on 127.0.0.1 (an ephemeral port) that accepts only
// connections presenting the run's random token, validates each message as a HookMessage, hands it
// to the consumer and acks it. Nothing a client sends can take it down: bad upgrades are refused
// and counted, bad messages dropped and counted, and a consumer that throws is disabled.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
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
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  const expectedAuth = Buffer.from(HOOK_AUTH_SCHEME + token, 'utf8');
  const counts = { received: 0, dropped: 0, rejected: 0 };
  let consumer: ((message: HookMessage) => void) | undefined = opts.onMessage;

  const debug = (line: string): void => {
    try {
      opts.debug?.(`hooks: ${line}`);
    } catch {
      // A failing debug logger must not break the channel it reports on.
    }
  };

  const isAuthorized = (req: IncomingMessage): boolean => {
    const header = req.headers[HOOK_AUTH_HEADER];
    if (typeof header !== 'string') return false;
    const given = Buffer.from(header, 'utf8');
    return given.length === expectedAuth.length && timingSafeEqual(given, expectedAuth);
  };

  const deliver = (message: HookMessage): void => {
    if (consumer === undefined) return;
    try {
      consumer(message);
    } catch (err) {
      // The consumer (the agent's recorder) has a bug: disable it, keep the channel and the agent going.
      consumer = undefined;
      debug(`consumer threw on ${message.agent} ${message.event}, disabled: ${String(err)}`);
      try {
        opts.onConsumerError?.(err);
      } catch (reportErr) {
        // The failure report itself failed: the debug line above is all we can do.
        debug(`onConsumerError threw: ${String(reportErr)}`);
      }
    }
  };

  const handleMessage = (schema: HookSchema, ws: WebSocket, data: RawData, isBinary: boolean): void => {
    const drop = (why: string): void => {
      counts.dropped++;
      debug(`dropped a message: ${why}`);
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
    counts.received++;
    // Deliver before acking: when the hook command exits, the run already has its payload.
    deliver(parsed.data);
    ws.send(HOOK_ACK);
  };

  // ws and the zod schema load after the agent has started (this server must listen before it
  // starts, since its URL goes into the agent's environment); an upgrade waits for them.
  // ws loads on the first connection only: most runs never get one, and it costs RSS (docs/benchmarks.md).
  let wssReady: Promise<WebSocketServer> | undefined;
  const loadWss = (): Promise<WebSocketServer> => (wssReady ??= createWss());
  const createWss = async (): Promise<WebSocketServer> => {
    const [{ WebSocketServer: Server }, { HookMessage: schema }] = await Promise.all([
      import('ws'),
      import('../core/hookMessage.js'),
    ]);
    const wss = new Server({
      noServer: true,
      maxPayload: HOOK_MESSAGE_LIMIT_BYTES,
      perMessageDeflate: false,
      clientTracking: true,
    });
    wss.on('connection', (ws: WebSocket) => {
      let idle = setTimeout(() => ws.terminate(), HOOK_CONNECTION_IDLE_MS);
      ws.on('message', (data: RawData, isBinary: boolean) => {
        clearTimeout(idle);
        idle = setTimeout(() => ws.terminate(), HOOK_CONNECTION_IDLE_MS);
        try {
          handleMessage(schema, ws, data, isBinary);
        } catch (err) {
          // Only a bug in this file can land here; keep serving other connections.
          debug(`message handling failed: ${String(err)}`);
        }
      });
      ws.on('error', (err: Error & { code?: string }) => {
        // ws closes the connection itself (1009 for an oversize message, 1002 for a bad frame).
        counts.dropped++;
        debug(`connection error, message dropped: ${err.code ?? err.message}`);
      });
      ws.on('close', () => clearTimeout(idle));
    });
    wss.on('error', (err) => debug(`server error: ${String(err)}`));
    wss.on('wsClientError', (err: Error, socket: Socket) => {
      // An authorized but malformed handshake (bad key or version): refuse it like any other upgrade.
      counts.rejected++;
      debug(`refused a malformed handshake: ${err.message}`);
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    });
    wssLoaded = wss;
    return wss;
  };
  let wssLoaded: WebSocketServer | undefined;

  const http = createServer((_req, res) => {
    // Plain HTTP is not the channel; refuse it like an unauthenticated upgrade.
    counts.rejected++;
    res.writeHead(426, { Connection: 'close' }).end();
  });
  http.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    // Errors on a socket we are about to refuse or hand to ws (client reset): nothing to do.
    socket.on('error', () => undefined);
    const path = (req.url ?? '').split('?')[0];
    if (path !== HOOK_PATH || !isAuthorized(req)) {
      counts.rejected++;
      debug('refused a connection without the run token');
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    void loadWss().then(
      (wss) => wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req)),
      (err: unknown) => {
        debug(`cannot load the WebSocket server: ${String(err)}`);
        socket.destroy();
      },
    );
  });
  http.on('clientError', (_err, socket) => {
    // A malformed HTTP request: refuse it; it never reached the upgrade.
    counts.rejected++;
    socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  http.on('error', (err) => debug(`http error: ${String(err)}`));
  const { port } = http.address() as AddressInfo;
  debug(`listening on 127.0.0.1:${port}`);

  let closing: Promise<void> | undefined;
  return {
    url: `ws://127.0.0.1:${port}${HOOK_PATH}`,
    token,
    get stats(): HookServerStats {
      return { ...counts };
    },
    close(): Promise<void> {
      closing ??= new Promise<void>((resolve) => {
        if (wssLoaded) {
          for (const ws of wssLoaded.clients) ws.terminate();
          wssLoaded.close();
        }
        http.closeAllConnections();
        http.close(() => resolve());
      });
      return closing;
    },
  };
}

type HookSchema = typeof import('../core/hookMessage.js').HookMessage;

function rawToString(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
