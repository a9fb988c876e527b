import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { HookMessage } from '../../../src/core/hookMessage.js';
import { encodeFrame, readFrame, sendHookMessage } from '../../../src/hooks/hookClient.js';
import { startHookServer, type HookServer } from '../../../src/hooks/hookServer.js';

/** Generous: the machine is shared; a real answer comes in milliseconds. */
const TIMEOUT_MS = 5_000;

const servers: HookServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const body = JSON.stringify({
  agent: 'claude',
  event: 'PreToolUse',
  payload: { tool_use_id: 'toolu_1', text: 'héllo ✓' },
  sent_at: '2026-01-01T00:00:00.000Z',
});

describe('frames', () => {
  it.each([0, 1, 125, 126, 65535, 65536, 200_000])('a masked frame of %i bytes reads back intact', (n) => {
    const payload = Buffer.alloc(n, 'ab');
    const frame = encodeFrame(0x1, payload);
    expect(frame[1]! & 0x80).toBe(0x80); // masked, as clients must
    const read = readFrame(Buffer.concat([frame, Buffer.from('next')]));
    expect(read?.opcode).toBe(0x1);
    expect(read?.payload.equals(payload)).toBe(true);
    expect(read?.size).toBe(frame.length);
    expect(readFrame(frame.subarray(0, frame.length - 1))).toBeUndefined();
  });
});

describe('sendHookMessage', () => {
  it('delivers a message to a real hook server and reports the ack', async () => {
    const got: HookMessage[] = [];
    const server = await startHookServer({ onMessage: (m) => got.push(m) });
    servers.push(server);
    const result = await sendHookMessage({ url: server.url, token: server.token, body, timeoutMs: TIMEOUT_MS });
    expect(result).toEqual({ ok: true });
    expect(got).toEqual([JSON.parse(body)]);
  });

  it('reports a nack for a message the server drops', async () => {
    const server = await startHookServer({ onMessage: () => undefined });
    servers.push(server);
    const result = await sendHookMessage({ url: server.url, token: server.token, body: '{"x":1}', timeoutMs: TIMEOUT_MS });
    expect(result).toEqual({ ok: false, reason: 'nack' });
    expect(server.stats.dropped).toBe(1);
  });

  it('reports the refusal of a wrong token', async () => {
    const server = await startHookServer({ onMessage: () => undefined });
    servers.push(server);
    const result = await sendHookMessage({ url: server.url, token: 'wrong', body, timeoutMs: TIMEOUT_MS });
    expect(result).toEqual({ ok: false, reason: 'refused 401' });
    expect(server.stats.rejected).toBe(1);
  });

  it('reports a closed port as a value', async () => {
    const server = await startHookServer({ onMessage: () => undefined });
    await server.close();
    const result = await sendHookMessage({ url: server.url, token: server.token, body, timeoutMs: TIMEOUT_MS });
    expect(result).toEqual({ ok: false, reason: 'ECONNREFUSED' });
  });

  it('gives up at its deadline when the server never answers', async () => {
    // A TCP server that accepts and then says nothing.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const result = await sendHookMessage({ url: `ws://127.0.0.1:${port}/rec-hook`, token: 't', body, timeoutMs: 200 });
      expect(result).toEqual({ ok: false, reason: 'timeout' });
    } finally {
      silent.close();
    }
  });

  it.each(['ws://example.com:80/rec-hook', 'ws://10.0.0.1:1/rec-hook', 'http://127.0.0.1:1/', 'wss://127.0.0.1:1/', '::'])(
    'refuses to send to %s (not a loopback ws: url)',
    async (url) => {
      const result = await sendHookMessage({ url, token: 't', body, timeoutMs: TIMEOUT_MS });
      expect(result.ok).toBe(false);
    },
  );
});
