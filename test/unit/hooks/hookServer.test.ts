import { request } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { HookMessage } from '../../../src/core/hookMessage.js';
import { MAX_HOOK_MESSAGE_BYTES } from '../../../src/core/hookMessage.js';
import { HOOK_ACK, HOOK_NACK } from '../../../src/hooks/hookProtocol.js';
import { startHookServer, type HookServer } from '../../../src/hooks/hookServer.js';

const servers: HookServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(onMessage: (m: HookMessage) => void = () => undefined, debug?: (l: string) => void) {
  const server = await startHookServer({ onMessage, debug });
  servers.push(server);
  return server;
}

const message = (over: Partial<HookMessage> = {}): string =>
  JSON.stringify({
    agent: 'codex',
    event: 'PreToolUse',
    payload: { tool_use_id: 'call_1', tool_name: 'Bash' },
    sent_at: new Date().toISOString(),
    ...over,
  });

/** Opens an authorized connection and resolves when it is open. */
function open(server: HookServer, headers: Record<string, string> = { authorization: `Bearer ${server.token}` }) {
  const ws = new WebSocket(server.url, { headers });
  return new Promise<WebSocket>((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** Sends one text (or binary) message and resolves with the server's reply. */
function exchange(ws: WebSocket, data: string | Buffer, binary = false): Promise<string> {
  return new Promise((resolve, reject) => {
    ws.once('message', (reply) => resolve(String(reply)));
    ws.once('close', (code) => reject(new Error(`closed ${code}`)));
    ws.send(data, { binary });
  });
}

/** Tries an upgrade and resolves with the HTTP status of the refusal (or 101). */
function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('open', () => {
      resolve(101);
      ws.close();
    });
    ws.once('error', (err) => {
      if (!/Unexpected server response/.test(String(err))) reject(err);
    });
  });
}

describe('startHookServer', () => {
  it('listens on a 127.0.0.1 ws url with a random token of at least 128 bits', async () => {
    const a = await start();
    const b = await start();
    const url = new URL(a.url);
    expect(url.protocol).toBe('ws:');
    expect(url.hostname).toBe('127.0.0.1');
    expect(Number(url.port)).toBeGreaterThan(0);
    expect(Buffer.from(a.token, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    expect(a.token).not.toBe(b.token);
  });

  it('binds 127.0.0.1 only: the same port on another local address refuses connections', async () => {
    const server = await start();
    const port = Number(new URL(server.url).port);
    // 127.0.0.2 is a local address on Linux (all of 127/8 is loopback) but not the one bound.
    const err = await new Promise<NodeJS.ErrnoException>((resolve) => {
      const sock = connect({ host: '127.0.0.2', port });
      sock.once('connect', () => {
        sock.destroy();
        resolve(Object.assign(new Error('connected'), { code: 'CONNECTED' }));
      });
      sock.once('error', resolve);
    });
    expect(err.code).toBe('ECONNREFUSED');
  });

  it('delivers a valid message to the consumer before acking it', async () => {
    const got: HookMessage[] = [];
    let statsAtDelivery = -1;
    const server = await start((m) => {
      got.push(m);
      statsAtDelivery = server.stats.received;
    });
    const ws = await open(server);
    const reply = await exchange(ws, message());
    expect(reply).toBe(HOOK_ACK);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ agent: 'codex', event: 'PreToolUse', payload: { tool_use_id: 'call_1' } });
    expect(statsAtDelivery).toBe(1);
    expect(server.stats).toEqual({ received: 1, dropped: 0, rejected: 0 });
    ws.close();
  });

  it('refuses upgrades with a wrong token, no token or another path, and counts them', async () => {
    const got: HookMessage[] = [];
    const server = await start((m) => got.push(m));
    expect(await upgradeStatus(server.url, { authorization: 'Bearer nope' })).toBe(401);
    expect(await upgradeStatus(server.url, {})).toBe(401);
    expect(await upgradeStatus(server.url, { authorization: server.token })).toBe(401);
    const otherPath = server.url.replace('/rec-hook', '/other');
    expect(await upgradeStatus(otherPath, { authorization: `Bearer ${server.token}` })).toBe(401);
    expect(server.stats.rejected).toBe(4);
    expect(got).toHaveLength(0);
    // The right token still gets in.
    expect(await upgradeStatus(server.url, { authorization: `Bearer ${server.token}` })).toBe(101);
    expect(server.stats.rejected).toBe(4);
  });

  it('refuses plain HTTP requests and counts them', async () => {
    const server = await start();
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(server.url.replace('ws:', 'http:'), (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.once('error', reject);
      req.end();
    });
    expect(status).toBe(426);
    expect(server.stats.rejected).toBe(1);
  });

  it('drops non-JSON, schema-invalid and binary messages with a nack, and keeps serving', async () => {
    const got: HookMessage[] = [];
    const server = await start((m) => got.push(m));
    const ws = await open(server);
    expect(await exchange(ws, 'not json {')).toBe(HOOK_NACK);
    expect(await exchange(ws, JSON.stringify({ hello: 'world' }))).toBe(HOOK_NACK);
    // The hooks layer knows the form of a name only (`rec hook` checks it against the registry).
    expect(await exchange(ws, message({ agent: 'Not A Name!' }))).toBe(HOOK_NACK);
    expect(await exchange(ws, message({ event: '' }))).toBe(HOOK_NACK);
    expect(await exchange(ws, Buffer.from(message()), true)).toBe(HOOK_NACK);
    expect(server.stats).toEqual({ received: 0, dropped: 5, rejected: 0 });
    // The same connection still works.
    expect(await exchange(ws, message())).toBe(HOOK_ACK);
    expect(got).toHaveLength(1);
    expect(server.stats.received).toBe(1);
    ws.close();
  });

  it('drops a message over MAX_HOOK_MESSAGE_BYTES (closing that connection with 1009) and keeps serving', async () => {
    const got: HookMessage[] = [];
    const server = await start((m) => got.push(m));
    const big = message({ payload: 'x'.repeat(MAX_HOOK_MESSAGE_BYTES) });
    const ws = await open(server);
    const closeCode = await new Promise<number>((resolve) => {
      ws.once('close', (code) => resolve(code));
      ws.once('error', () => undefined); // The client sees the abrupt close too; the code is what matters.
      ws.send(big);
    });
    expect(closeCode).toBe(1009);
    expect(got).toHaveLength(0);
    expect(server.stats.dropped).toBe(1);
    const next = await open(server);
    expect(await exchange(next, message())).toBe(HOOK_ACK);
    expect(got).toHaveLength(1);
    next.close();
  });

  it('a message just under the limit is accepted', async () => {
    const got: HookMessage[] = [];
    const server = await start((m) => got.push(m));
    const base = message({ payload: '' });
    const fits = message({ payload: 'y'.repeat(MAX_HOOK_MESSAGE_BYTES - Buffer.byteLength(base)) });
    expect(Buffer.byteLength(fits)).toBe(MAX_HOOK_MESSAGE_BYTES);
    const ws = await open(server);
    expect(await exchange(ws, fits)).toBe(HOOK_ACK);
    expect(got).toHaveLength(1);
    ws.close();
  });

  it('a throwing consumer is disabled and logged; later messages are still validated, counted and acked', async () => {
    const lines: string[] = [];
    const reported: unknown[] = [];
    let calls = 0;
    const server = await startHookServer({
      onMessage: () => {
        calls++;
        throw new Error('recorder bug');
      },
      debug: (l) => lines.push(l),
      onConsumerError: (err) => reported.push(err),
    });
    servers.push(server);
    const first = await open(server);
    expect(await exchange(first, message())).toBe(HOOK_ACK);
    const second = await open(server);
    expect(await exchange(second, message({ event: 'PostToolUse' }))).toBe(HOOK_ACK);
    expect(calls).toBe(1);
    expect(server.stats).toEqual({ received: 2, dropped: 0, rejected: 0 });
    expect(lines.some((l) => /consumer threw.*disabled.*recorder bug/.test(l))).toBe(true);
    expect(reported).toHaveLength(1);
    expect(String(reported[0])).toMatch(/recorder bug/);
    first.close();
    second.close();
  });

  it('never writes the token to the debug log', async () => {
    const lines: string[] = [];
    const server = await start(() => undefined, (l) => lines.push(l));
    await upgradeStatus(server.url, { authorization: 'Bearer wrong' });
    const ws = await open(server);
    await exchange(ws, 'garbage');
    await exchange(ws, message());
    ws.close();
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(server.token);
  });

  it('a throwing debug logger does not break the server', async () => {
    const server = await start(
      () => undefined,
      () => {
        throw new Error('log full');
      },
    );
    expect(await upgradeStatus(server.url, {})).toBe(401);
    const ws = await open(server);
    expect(await exchange(ws, 'garbage')).toBe(HOOK_NACK);
    expect(await exchange(ws, message())).toBe(HOOK_ACK);
    ws.close();
  });

  it('close() ends open connections, stops listening and is idempotent', async () => {
    const server = await start();
    const ws = await open(server);
    const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
    await Promise.all([server.close(), server.close()]);
    await closed;
    await expect(open(server)).rejects.toThrow(/ECONNREFUSED/);
  });
});
