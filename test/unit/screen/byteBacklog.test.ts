import { describe, expect, it } from 'vitest';
import { ByteBacklog, DROP_TO_FRACTION, type BacklogItem } from '../../../src/screen/byteBacklog.js';

const b = (s: string): Buffer => Buffer.from(s, 'latin1');

function drain(backlog: ByteBacklog, maxBytes = 1 << 20): BacklogItem[] {
  const out: BacklogItem[] = [];
  for (let item = backlog.take(maxBytes); item !== undefined; item = backlog.take(maxBytes)) out.push(item);
  return out;
}

describe('ByteBacklog', () => {
  it('coalesces small chunks into one slice up to the limit', () => {
    const backlog = new ByteBacklog(1000);
    for (const s of ['ab', 'cd', 'ef', 'gh']) backlog.push(b(s));
    expect(backlog.bytes).toBe(8);
    expect(backlog.take(5)?.toString()).toBe('abcde');
    expect(backlog.take(5)?.toString()).toBe('fgh');
    expect(backlog.take(5)).toBeUndefined();
    expect(backlog.isEmpty).toBe(true);
    expect(backlog.bytes).toBe(0);
  });

  it('slices a large chunk without copying it', () => {
    const backlog = new ByteBacklog(1000);
    const big = b('0123456789');
    backlog.push(big);
    const first = backlog.take(4) as Buffer;
    expect(first.toString()).toBe('0123');
    expect(first.buffer).toBe(big.buffer);
    expect(drain(backlog, 4).map(String)).toEqual(['4567', '89']);
  });

  it('keeps resizes in order with the bytes around them and collapses consecutive ones', () => {
    const backlog = new ByteBacklog(1000);
    backlog.push(b('before'));
    backlog.pushResize({ cols: 10, rows: 5 });
    backlog.pushResize({ cols: 20, rows: 6 });
    backlog.push(b('after'));
    expect(backlog.nextIsResize).toBe(false);
    expect(backlog.take(100)?.toString()).toBe('before');
    expect(backlog.nextIsResize).toBe(true);
    expect(backlog.take(100)).toEqual({ cols: 20, rows: 6 });
    expect(backlog.take(100)?.toString()).toBe('after');
  });

  it('drops the oldest bytes past the bound, down to half of it, counts them, and keeps the newest', () => {
    const backlog = new ByteBacklog(10);
    backlog.push(b('aaaaaaaa'));
    expect(backlog.dropCount).toBe(0);
    backlog.push(b('bbbbbbbb'));
    expect(backlog.dropCount).toBe(1);
    expect(backlog.droppedBytes).toBe(16 - 10 * DROP_TO_FRACTION);
    const out = Buffer.concat(drain(backlog) as Buffer[]);
    // CAN first, then the newest bytes.
    expect(out.toString('latin1')).toBe('\x18bbbbb');
    expect(backlog.injectedBytes).toBe(1);
  });

  it('a sustained flood cuts once per half bound of output, not once per chunk', () => {
    const backlog = new ByteBacklog(1000);
    for (let i = 0; i < 100; i++) backlog.push(Buffer.alloc(100, 0x41));
    expect(backlog.droppedBytes).toBeGreaterThan(8000);
    expect(backlog.dropCount).toBeLessThanOrEqual(20);
    expect(backlog.bytes).toBeLessThanOrEqual(1000);
  });

  it('restarts after a cut at the next ESC or line feed, not inside an escape sequence', () => {
    const backlog = new ByteBacklog(20);
    backlog.push(b('x'.repeat(10) + '\x1b[38;5;208mcolour\r\nnext line'));
    const out = Buffer.concat(drain(backlog) as Buffer[]).toString('latin1');
    expect(out).toBe('\x18next line');
    expect(backlog.droppedBytes + 'next line'.length).toBe(10 + '\x1b[38;5;208mcolour\r\nnext line'.length);
  });

  it('keeps resizes that sit among dropped bytes', () => {
    const backlog = new ByteBacklog(8);
    backlog.push(b('old\n'));
    backlog.pushResize({ cols: 30, rows: 7 });
    backlog.push(b('0123456789\n'));
    // Both chunks go (the cut in the second one moves on to its line feed); the resize stays.
    expect(drain(backlog, 100).map((i) => (Buffer.isBuffer(i) ? i.toString('latin1') : i))).toEqual([
      '\x18',
      { cols: 30, rows: 7 },
    ]);
    expect(backlog.droppedBytes).toBe(15);
  });

  it('replays the last alternate-screen switch among dropped bytes', () => {
    const backlog = new ByteBacklog(16);
    backlog.push(b('\x1b[?1049h' + 'y'.repeat(40) + '\x1b[?1049l' + 'z'.repeat(40) + '\x1b[?1049h' + 'w'.repeat(40)));
    backlog.push(b('\x1b[Htail'));
    const out = Buffer.concat(drain(backlog) as Buffer[]).toString('latin1');
    expect(out.startsWith('\x18\x1b[?1049h')).toBe(true);
    expect(out.endsWith('\x1b[Htail')).toBe(true);
  });
});
