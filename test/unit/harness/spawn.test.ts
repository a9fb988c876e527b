import { describe, expect, it } from 'vitest';
import { EOF, TIMEOUT, TimeoutError, spawn } from '../../../src/lab/spawn.js';

describe('harness spawn', () => {
  it('expect returns the index of the first pattern that matches and consumes it', async () => {
    const p = spawn('sh', ['-c', 'echo one; echo two; echo one'], { timeoutMs: 5000 });
    expect(await p.expect([/two/, 'one'])).toBe(1);
    expect(await p.expect([/two/, 'one'])).toBe(0);
    expect(await p.expect(['one', EOF])).toBe(0);
    expect(await p.expect(['one', EOF])).toBe(1);
    expect(await p.expectExit()).toEqual({ exitCode: 0, signal: undefined });
    p.dispose();
  });

  it('a timeout reports the pattern, the output tail and the screen', async () => {
    const p = spawn('sh', ['-c', 'echo visible-text; sleep 5'], { timeoutMs: 5000 });
    await p.expect('visible-text');
    const err = await p.expect('never-printed', 300).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(String((err as Error).message)).toMatch(/never-printed[\s\S]*visible-text[\s\S]*screen:/);
    expect(await p.expect(['never', TIMEOUT], 100)).toBe(1);
    p.dispose();
  });

  it('expectScreen waits on the rendered screen, not the raw stream', async () => {
    // The raw stream holds "old", but the screen shows it overwritten by "new".
    const p = spawn('sh', ['-c', 'printf "old\\rnew\\n"; sleep 5'], { timeoutMs: 5000 });
    const screen = await p.expectScreen(/^new$/m);
    expect(screen).not.toContain('old');
    p.dispose();
  });

  it('sendKey and resize reach the child', async () => {
    const p = spawn('sh', ['-c', 'stty raw -echo; dd bs=1 count=1 2>/dev/null | od -An -tx1; stty size'], {
      cols: 80,
      rows: 24,
    });
    p.resize(91, 27);
    p.sendKey('esc');
    await p.expect(/1b/);
    await p.expect('27 91');
    await p.expectExit();
    p.dispose();
  });
});
