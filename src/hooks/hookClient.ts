// A minimal, single-message WebSocket client (RFC 6455) on node:http: it sends one masked text
// frame and waits for one reply. The hook command runs as a fresh process once per agent hook, and
// loading the `ws` package would make each of those processes much slower; the measured cost and
// the decision are in docs/benchmarks.md#the-hook-client (scripts/bench-hook-client.mjs).
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { Socket } from 'node:net';
import { HOOK_ACK, HOOK_AUTH_HEADER, HOOK_AUTH_SCHEME } from './hookProtocol.js';

export type HookSendResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: string };

export interface HookSendOptions {
  readonly url: string;
  readonly token: string;
  /** The JSON text of one HookMessage. */
  readonly body: string;
  /** The whole exchange (connect, upgrade, send, ack) must finish within this. */
  readonly timeoutMs: number;
}

/** RFC 6455 §1.3: the GUID the server appends to Sec-WebSocket-Key before hashing. */
const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const OPCODE_TEXT = 0x1;
const OPCODE_CLOSE = 0x8;
/** Close status 1000 (normal closure), big-endian. */
const CLOSE_NORMAL = Buffer.from([0x03, 0xe8]);
/** Hosts a hook may send to: hook payloads hold commands and file contents, so never off the machine. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Sends one message and resolves when the server acknowledged it. Never rejects. */
export function sendHookMessage(opts: HookSendOptions): Promise<HookSendResult> {
  let target: URL;
  try {
    target = new URL(opts.url);
  } catch {
    // A malformed REC_HOOK_URL is an expected failure: report it as a value.
    return Promise.resolve({ ok: false, reason: 'bad url' });
  }
  if (target.protocol !== 'ws:' || !LOOPBACK_HOSTS.has(target.hostname)) {
    return Promise.resolve({ ok: false, reason: 'not a loopback ws: url' });
  }

  return new Promise<HookSendResult>((resolve) => {
    let settled = false;
    let socket: Socket | undefined;
    const key = randomBytes(16).toString('base64');
    const req = request({
      host: target.hostname.replace(/^\[|\]$/g, ''),
      port: Number(target.port || 80),
      path: target.pathname + target.search,
      agent: false,
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': key,
        [HOOK_AUTH_HEADER]: HOOK_AUTH_SCHEME + opts.token,
      },
    });

    const finish = (result: HookSendResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      socket?.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => finish({ ok: false, reason: 'timeout' }), opts.timeoutMs);

    req.on('error', (err: NodeJS.ErrnoException) => finish({ ok: false, reason: err.code ?? 'error' }));
    // A plain HTTP answer instead of 101 means the upgrade was refused (bad token or path).
    req.on('response', (res) => finish({ ok: false, reason: `refused ${res.statusCode ?? '?'}` }));
    req.on('upgrade', (res, upgraded: Socket, head: Buffer) => {
      socket = upgraded;
      const expected = createHash('sha1').update(key + WS_GUID).digest('base64');
      if (res.headers['sec-websocket-accept'] !== expected) {
        finish({ ok: false, reason: 'bad handshake' });
        return;
      }
      upgraded.on('error', (err: NodeJS.ErrnoException) => finish({ ok: false, reason: err.code ?? 'error' }));
      upgraded.on('close', () => finish({ ok: false, reason: 'closed before ack' }));
      let pending = head;
      const onData = (chunk: Buffer): void => {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        for (;;) {
          const frame = readFrame(pending);
          if (frame === undefined) return;
          pending = pending.subarray(frame.size);
          if (frame.opcode === OPCODE_TEXT) {
            const ok = frame.payload.toString('utf8') === HOOK_ACK;
            // Say goodbye politely so the server does not log an abnormal closure.
            upgraded.write(encodeFrame(OPCODE_CLOSE, CLOSE_NORMAL));
            finish(ok ? { ok: true } : { ok: false, reason: 'nack' });
            return;
          }
          if (frame.opcode === OPCODE_CLOSE) {
            const code = frame.payload.length >= 2 ? frame.payload.readUInt16BE(0) : 0;
            finish({ ok: false, reason: `closed ${code}` });
            return;
          }
          // Ping, pong or continuation frames: not expected for a single ack; keep waiting.
        }
      };
      upgraded.on('data', onData);
      upgraded.write(encodeFrame(OPCODE_TEXT, Buffer.from(opts.body, 'utf8')));
      if (head.length > 0) onData(Buffer.alloc(0));
    });
    req.end();
  });
}

/** Encodes one final, masked client frame (clients must mask, RFC 6455 §5.3). */
export function encodeFrame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  const lenBytes = len < 126 ? 0 : len <= 0xffff ? 2 : 8;
  const header = Buffer.alloc(2 + lenBytes + 4);
  header[0] = 0x80 | opcode;
  if (lenBytes === 0) header[1] = 0x80 | len;
  else if (lenBytes === 2) {
    header[1] = 0x80 | 126;
    header.writeUInt16BE(len, 2);
  } else {
    header[1] = 0x80 | 127;
    header.writeBigUInt64BE(BigInt(len), 2);
  }
  const mask = randomBytes(4);
  mask.copy(header, 2 + lenBytes);
  const masked = Buffer.allocUnsafe(len);
  for (let i = 0; i < len; i++) masked[i] = payload[i]! ^ mask[i & 3]!;
  return Buffer.concat([header, masked]);
}

interface Frame {
  readonly opcode: number;
  readonly payload: Buffer;
  /** Bytes the whole frame took in the buffer. */
  readonly size: number;
}

/** Reads one complete server frame from the start of buf, or undefined if more bytes are needed. */
export function readFrame(buf: Buffer): Frame | undefined {
  if (buf.length < 2) return undefined;
  const opcode = buf[0]! & 0x0f;
  const masked = (buf[1]! & 0x80) !== 0;
  let len = buf[1]! & 0x7f;
  let offset = 2;
  if (len === 126) {
    if (buf.length < 4) return undefined;
    len = buf.readUInt16BE(2);
    offset = 4;
  } else if (len === 127) {
    if (buf.length < 10) return undefined;
    len = Number(buf.readBigUInt64BE(2));
    offset = 10;
  }
  const maskOffset = offset;
  if (masked) offset += 4;
  if (buf.length < offset + len) return undefined;
  let payload = buf.subarray(offset, offset + len);
  if (masked) {
    // Servers do not mask, but unmasking costs nothing and keeps the reader general.
    const out = Buffer.allocUnsafe(len);
    for (let i = 0; i < len; i++) out[i] = payload[i]! ^ buf[maskOffset + (i & 3)]!;
    payload = out;
  }
  return { opcode, payload, size: offset + len };
}
