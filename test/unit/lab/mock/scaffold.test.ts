// The part every mock model server shares (src/lab/mock/scaffold.ts), on a wire API made up for the
// test: the token refused before the wire API sees a request, a bug answered with 500, the guard
// optional, and close() not waiting for a stream the client still holds.
import { request } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sendJson } from '../../../../src/lab/mock/http.js';
import { newToken, startLoopbackServer, type LoopbackServer, type MockRequest } from '../../../../src/lab/mock/scaffold.js';

const TOKEN = newToken();
let server: LoopbackServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.restoreAllMocks();
});

/** A wire API that reads its token from `x-token`, echoes what it was given, and lists what reached it. */
function echoApi(handled: MockRequest[], refused: string[]) {
  return {
    label: 'echo',
    token: TOKEN,
    presentedToken: (r: MockRequest) => r.req.headers['x-token'] as string | undefined,
    refuseToken: (r: MockRequest) => {
      refused.push(r.url);
      sendJson(r.res, 401, { refused: true });
    },
    handle: async (r: MockRequest) => {
      handled.push(r);
      if (r.path === '/throw') throw new Error('a bug in the mock');
      if (r.path === '/hold') {
        r.res.writeHead(200, { 'content-type': 'text/event-stream' });
        r.res.write('data: first\n\n');
        return;
      }
      sendJson(r.res, 200, { method: r.method, path: r.path, q: r.query.get('q'), raw: r.raw });
    },
  };
}

describe('the mock server scaffold', () => {
  it('refuses a request without the token before the wire API sees it, and hands the rest over with body, path and query', async () => {
    const handled: MockRequest[] = [];
    const refused: string[] = [];
    server = await startLoopbackServer(echoApi(handled, refused));
    const base = `http://127.0.0.1:${server.port}`;
    expect((await fetch(`${base}/a?q=1`, { method: 'POST', body: 'x' })).status).toBe(401);
    expect((await fetch(`${base}/a?q=1`, { method: 'POST', body: 'x', headers: { 'x-token': 'wrong' } })).status).toBe(401);
    const ok = await fetch(`${base}/a?q=1`, { method: 'POST', body: 'hello', headers: { 'x-token': TOKEN } });
    expect(await ok.json()).toEqual({ method: 'POST', path: '/a', q: '1', raw: 'hello' });
    expect(refused).toEqual(['/a?q=1', '/a?q=1']);
    expect(handled.map((r) => r.url)).toEqual(['/a?q=1']);
  });

  it('answers a bug in the wire API with 500 and says so on stderr', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server = await startLoopbackServer(echoApi([], []));
    const res = await fetch(`http://127.0.0.1:${server.port}/throw`, { headers: { 'x-token': TOKEN } });
    expect(res.status).toBe(500);
    expect(errors).toHaveBeenCalledWith('[echo]', expect.objectContaining({ message: 'a bug in the mock' }));
  });

  it('without a guard, an absolute-URI request goes to the token check like any other', async () => {
    const refused: string[] = [];
    server = await startLoopbackServer(echoApi([], refused));
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server!.port, path: 'http://example.com/x' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(401);
    expect(refused).toEqual(['http://example.com/x']);
  });

  it('close() drops a stream the client still holds', async () => {
    const handled: MockRequest[] = [];
    server = await startLoopbackServer(echoApi(handled, []));
    const res = await fetch(`http://127.0.0.1:${server.port}/hold`, { headers: { 'x-token': TOKEN } });
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: first\n\n');
    await server.close();
    server = undefined;
    await expect(reader.read()).rejects.toThrow();
  });
});
