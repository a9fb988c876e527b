import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readHookStdin } from '../../../src/hooks/readHookStdin.js';

/** Generous: only reached if the stream never ends, which these tests do not rely on. */
const LONG_MS = 10_000;

describe('readHookStdin', () => {
  it('reads everything up to end, across chunks and multi-byte characters', async () => {
    const stdin = new PassThrough();
    const text = '{"a":"héllo ✓"}';
    const bytes = Buffer.from(text);
    const reading = readHookStdin(stdin, { maxBytes: 1024, timeoutMs: LONG_MS });
    stdin.write(bytes.subarray(0, 8)); // splits a multi-byte character
    stdin.end(bytes.subarray(8));
    expect(await reading).toEqual({ kind: 'ok', text });
  });

  it('reads past the limit to let the writer finish, but keeps nothing and reports too_large', async () => {
    const stdin = new PassThrough();
    const reading = readHookStdin(stdin, { maxBytes: 10, timeoutMs: LONG_MS });
    stdin.write('0123456789');
    stdin.end('abc');
    expect(await reading).toEqual({ kind: 'too_large', bytes: 13 });
  });

  it('gives up on a stream that never ends and releases it', async () => {
    const stdin = new PassThrough();
    stdin.write('{"partial":');
    const result = await readHookStdin(stdin, { maxBytes: 1024, timeoutMs: 50 });
    expect(result).toEqual({ kind: 'timeout' });
    expect(stdin.destroyed).toBe(true);
  });

  it('a terminal on stdin reads as empty without waiting', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    expect(await readHookStdin(stdin, { maxBytes: 1024, timeoutMs: LONG_MS })).toEqual({ kind: 'ok', text: '' });
  });

  it('reports a stream error as a value', async () => {
    const stdin = new PassThrough();
    const reading = readHookStdin(stdin, { maxBytes: 1024, timeoutMs: LONG_MS });
    stdin.destroy(Object.assign(new Error('boom'), { code: 'EIO' }));
    expect(await reading).toEqual({ kind: 'error', code: 'EIO' });
  });
});
