import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { PROGRESS_DELAY_MS, ProgressBar } from '../../../src/commands/progressBar.js';

function capture(): { out: PassThrough; written: () => string } {
  const out = new PassThrough();
  let written = '';
  out.on('data', (d: Buffer) => (written += d.toString()));
  return { out, written: () => written };
}

describe('ProgressBar', () => {
  it('stays quiet for the first seconds, then draws, and clears its line at the end', () => {
    let now = 0;
    const { out, written } = capture();
    const bar = new ProgressBar(out, () => now);
    bar.start(1000, 2);
    bar.advance(100);
    expect(written()).toBe('');
    now = PROGRESS_DELAY_MS + 1;
    bar.advance(400);
    expect(written()).toMatch(/\r\[#+\.+\]\s+50% 2\/2 files/);
    bar.finish();
    expect(written().endsWith('\r\x1b[2K')).toBe(true);
  });

  it('says "1 file" for one', () => {
    let now = 0;
    const { out, written } = capture();
    const bar = new ProgressBar(out, () => now);
    bar.start(10, 1);
    now = PROGRESS_DELAY_MS + 1;
    bar.advance(5, 0);
    expect(written()).toMatch(/ 0\/1 file 0 MB/);
  });

  it('never draws without a terminal', () => {
    let now = 0;
    const bar = new ProgressBar(undefined, () => now);
    bar.start(10, 1);
    now = PROGRESS_DELAY_MS * 10;
    bar.advance(10);
    bar.finish();
    expect(bar.shown).toBe(false);
  });
});
