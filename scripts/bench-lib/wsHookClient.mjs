// @ts-check
// The hook client written on the `ws` package, as rec would ship it if it dropped the hand-written
// one: the same `sendHookMessage` (loopback-only ws: URLs, the token in the upgrade's header, one
// deadline for the whole exchange, the same reasons) as src/hooks/hookClient.ts. It runs only as
// dist/hooks/hookClient.js in the copy of dist/ that scripts/bench-hook-client.mjs makes, beside
// the compiled hookProtocol.js, which it loads by URL (a static import would not resolve here).
import WebSocket from 'ws';

/** @type {{HOOK_ACK: string, HOOK_AUTH_HEADER: string, HOOK_AUTH_SCHEME: string}} */
const { HOOK_ACK, HOOK_AUTH_HEADER, HOOK_AUTH_SCHEME } = await import(new URL('./hookProtocol.js', import.meta.url).href);

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
/** Close status 1000 (normal closure). */
const CLOSE_NORMAL = 1000;

/**
 * Sends one message and resolves when the server acknowledged it. Never rejects.
 * @param {{url: string, token: string, body: string, timeoutMs: number}} opts
 * @returns {Promise<{ok: true} | {ok: false, reason: string}>}
 */
export function sendHookMessage(opts) {
  let target;
  try {
    target = new URL(opts.url);
  } catch {
    // A malformed REC_HOOK_URL is an expected failure: report it as a value.
    return Promise.resolve({ ok: false, reason: 'bad url' });
  }
  if (target.protocol !== 'ws:' || !LOOPBACK_HOSTS.has(target.hostname)) {
    return Promise.resolve({ ok: false, reason: 'not a loopback ws: url' });
  }
  return new Promise((resolve) => {
    let settled = false;
    const ws = new WebSocket(target, {
      headers: { [HOOK_AUTH_HEADER]: HOOK_AUTH_SCHEME + opts.token },
      perMessageDeflate: false,
      followRedirects: false,
    });
    /** @param {{ok: true} | {ok: false, reason: string}} result */
    const finish = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // The close frame (if any) is written already; dropping the socket now is what the
      // hand-written client does too, so neither waits for the server's closing reply.
      ws.terminate();
      resolve(result);
    };
    const timer = setTimeout(() => finish({ ok: false, reason: 'timeout' }), opts.timeoutMs);
    ws.on('error', (/** @type {NodeJS.ErrnoException} */ err) => finish({ ok: false, reason: err.code ?? 'error' }));
    // A plain HTTP answer instead of 101 means the upgrade was refused (bad token or path).
    ws.on('unexpected-response', (_req, res) => finish({ ok: false, reason: `refused ${res.statusCode ?? '?'}` }));
    ws.on('open', () => ws.send(opts.body));
    ws.on('message', (data, isBinary) => {
      const ok = !isBinary && data.toString() === HOOK_ACK;
      ws.close(CLOSE_NORMAL);
      finish(ok ? { ok: true } : { ok: false, reason: 'nack' });
    });
    ws.on('close', (code) => finish({ ok: false, reason: `closed ${code}` }));
  });
}
