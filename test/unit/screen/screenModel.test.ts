import xtermHeadless from '@xterm/headless';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_BACKLOG_BYTES, ScreenModel } from '../../../src/screen/screenModel.js';

const models: ScreenModel[] = [];
afterEach(() => {
  for (const m of models.splice(0)) m.dispose();
});

function model(cols = 40, rows = 10, extra: Partial<ConstructorParameters<typeof ScreenModel>[0]> = {}): ScreenModel {
  const m = new ScreenModel({ cols, rows, ...extra });
  models.push(m);
  return m;
}

async function render(m: ScreenModel, ...chunks: Array<string | Buffer>) {
  for (const c of chunks) m.write(typeof c === 'string' ? Buffer.from(c, 'utf8') : c);
  await m.whenIdle();
  return m.snapshot();
}

/** ~size bytes of numbered lines with colours and cursor moves, like an agent's output. */
function burst(size: number): { data: Buffer; lastLine: string } {
  const parts: string[] = [];
  let bytes = 0;
  let n = 0;
  let lastLine = '';
  while (bytes < size) {
    n++;
    lastLine = `line ${n} ok`;
    const s = `\x1b[38;5;${n % 256}m${lastLine}\x1b[0m \x1b[2K\x1b[1G${lastLine}\r\n`;
    parts.push(s);
    bytes += s.length;
  }
  return { data: Buffer.from(parts.join(''), 'latin1'), lastLine };
}

function* chunksOf(data: Buffer, size: number): Generator<Buffer> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

describe('ScreenModel', () => {
  it('renders plain text lines, right-trimmed, with the cursor after the text', async () => {
    const s = await render(model(), 'hello   \r\nworld');
    expect(s.cols).toBe(40);
    expect(s.rows).toBe(10);
    expect(s.lines).toHaveLength(10);
    expect(s.lines.slice(0, 3)).toEqual(['hello', 'world', '']);
    expect(s.cursor).toEqual({ x: 5, y: 1 });
  });

  it('follows cursor moves', async () => {
    const s = await render(model(), '\x1b[5;10Hxy\x1b[2;3Hz\x1b[A\x1b[2Dq');
    expect(s.lines[4]).toBe(' '.repeat(9) + 'xy');
    expect(s.lines[1]).toBe('  z');
    // z leaves the cursor at column 3; up one row, left two: column 1.
    expect(s.lines[0]).toBe(' q');
    expect(s.cursor).toEqual({ x: 2, y: 0 });
  });

  it('shows overwritten and erased lines as they end up', async () => {
    const m = model();
    let s = await render(m, 'first line\rsecond');
    expect(s.lines[0]).toBe('secondline');
    s = await render(m, '\x1b[2K\x1b[1Gnew\r\nkeep\r\ngone\x1b[1K');
    expect(s.lines.slice(0, 3)).toEqual(['new', 'keep', '']);
  });

  it('decodes UTF-8 split across writes', async () => {
    const bytes = Buffer.from('→ 中文 ✓', 'utf8');
    const s = await render(model(), bytes.subarray(0, 3), bytes.subarray(3, 6), bytes.subarray(6));
    expect(s.lines[0]).toBe('→ 中文 ✓');
  });

  it('reports the style of each row’s first visible cell', async () => {
    const s = await render(
      model(),
      [
        '\x1b[7m› 1. Yes, proceed\x1b[0m',
        '\x1b[1mbold\x1b[0m',
        '\x1b[2mdim\x1b[0m',
        '\x1b[38;5;208morange\x1b[0m',
        '\x1b[38;2;1;2;3mrgb fg\x1b[0m',
        '\x1b[48;5;236m   padded highlight\x1b[0m',
        '\x1b[48;2;10;20;30mx\x1b[0m',
        '    \x1b[1;31mindented\x1b[0m',
        'plain',
      ].join('\r\n'),
    );
    expect(s.styles[0]).toEqual({ bold: false, dim: false, inverse: true, fg: -1, bg: -1 });
    expect(s.styles[1]).toMatchObject({ bold: true, dim: false, inverse: false });
    expect(s.styles[2]).toMatchObject({ bold: false, dim: true });
    expect(s.styles[3]).toMatchObject({ fg: 208, bg: -1 });
    expect(s.styles[4]).toMatchObject({ fg: 0x010203 });
    expect(s.styles[5]).toMatchObject({ bg: 236, fg: -1 });
    expect(s.styles[6]).toMatchObject({ bg: 0x0a141e });
    expect(s.styles[7]).toEqual({ bold: true, dim: false, inverse: false, fg: 1, bg: -1 });
    expect(s.styles[8]).toEqual({ bold: false, dim: false, inverse: false, fg: -1, bg: -1 });
    expect(s.styles[9]).toEqual({ bold: false, dim: false, inverse: false, fg: -1, bg: -1 });
  });

  it('resizes after the output written before the resize, and later output uses the new width', async () => {
    const m = model(40, 10);
    const renders: number[] = [];
    m.onDidRender((seq) => renders.push(seq));
    m.write(Buffer.from('before'));
    m.resize(10, 5);
    m.write(Buffer.from('\r\nabcdefghijKLM'));
    await m.whenIdle();
    const s = m.snapshot();
    expect(s.cols).toBe(10);
    expect(s.rows).toBe(5);
    expect(s.lines).toEqual(['before', 'abcdefghij', 'KLM', '', '']);
    expect(renders.length).toBeGreaterThanOrEqual(3);
    expect(renders[renders.length - 1]).toBe(s.seq);
  });

  it('a 20 MB burst under the backlog bound loses nothing: the marker after it shows, every byte parsed', async () => {
    const m = model(80, 24, { maxBacklogBytes: 32 * 1024 * 1024 });
    const { data, lastLine } = burst(20 * 1024 * 1024);
    for (const chunk of chunksOf(data, 4096)) m.write(chunk);
    const marker = `MARKER-${process.pid}-${Date.now()}`;
    m.write(Buffer.from(marker));
    await m.whenIdle();
    const s = m.snapshot();
    expect(s.lines[23]).toBe(marker);
    expect(s.lines[22]).toBe(lastLine);
    expect(m.stats).toMatchObject({ droppedBytes: 0, backlogBytes: 0, injectedBytes: 0 });
    expect(m.stats.parsedBytes).toBe(data.length + marker.length);
    expect(m.stats.writtenBytes).toBe(data.length + marker.length);
  }, 120_000);

  it('a burst over the bound drops the oldest bytes, counts them, and still ends on the newest screen', async () => {
    const m = model(80, 24, { maxBacklogBytes: 1024 * 1024 });
    const { data, lastLine } = burst(20 * 1024 * 1024);
    for (const chunk of chunksOf(data, 4096)) m.write(chunk);
    m.write(Buffer.from('THE-END'));
    await m.whenIdle();
    const s = m.snapshot();
    expect(s.lines[23]).toBe('THE-END');
    expect(s.lines[22]).toBe(lastLine);
    const stats = m.stats;
    expect(stats.droppedBytes).toBeGreaterThan(18 * 1024 * 1024);
    expect(stats.dropCount).toBeGreaterThan(0);
    expect(stats.parsedBytes).toBe(stats.writtenBytes - stats.droppedBytes + stats.injectedBytes);
  }, 120_000);

  it('the default backlog bound is a named constant of a few MB', () => {
    expect(MAX_BACKLOG_BYTES).toBeGreaterThanOrEqual(1024 * 1024);
    expect(MAX_BACKLOG_BYTES).toBeLessThanOrEqual(32 * 1024 * 1024);
  });

  it('after a drop, an alternate-screen switch among the dropped bytes still takes effect', async () => {
    const m = model(40, 5, { maxBacklogBytes: 64 * 1024 });
    m.write(Buffer.from('\r\n\r\nMAIN SCREEN'));
    // Invisible filler (SGR resets) so that only the screen switch decides what is shown.
    m.write(Buffer.from('\x1b[?1049h' + '\x1b[0m'.repeat(80 * 1024)));
    m.write(Buffer.from('\x1b[HALT SCREEN'));
    await m.whenIdle();
    const s = m.snapshot();
    expect(m.stats.droppedBytes).toBeGreaterThan(0);
    expect(s.lines[0]).toBe('ALT SCREEN');
    expect(s.lines.join('\n')).not.toContain('MAIN');
  });

  it('says whether the program draws on the alternate screen (a full-screen renderer) or the normal one', async () => {
    const m = model();
    expect((await render(m, 'inline')).alternate).toBe(false);
    expect((await render(m, '\x1b[?1049hfull screen')).alternate).toBe(true);
    expect((await render(m, '\x1b[?1049l')).alternate).toBe(false);
  });

  it('caches the snapshot per seq and makes a new one after a render', async () => {
    const m = model();
    const seen: number[] = [];
    m.onDidRender((seq) => seen.push(seq));
    const a = await render(m, 'one');
    expect(m.snapshot()).toBe(a);
    expect(seen[seen.length - 1]).toBe(a.seq);
    const b = await render(m, ' two');
    expect(b).not.toBe(a);
    expect(b.seq).toBeGreaterThan(a.seq);
    expect(b.lines[0]).toBe('one two');
    expect(a.lines[0]).toBe('one');
  });

  it('whenIdle resolves once what was written before it is parsed', async () => {
    const m = model();
    m.write(Buffer.from('first'));
    const idle = m.whenIdle();
    m.write(Buffer.from(' second'));
    await idle;
    expect(m.snapshot().lines[0]).toMatch(/^first/);
    await m.whenIdle();
    expect(m.snapshot().lines[0]).toBe('first second');
  });

  it('keeps parsing while output keeps arriving (busy pacing does not stall the model)', async () => {
    const m = model(40, 5);
    let writes = 0;
    const done = new Promise<void>((resolve) => {
      m.onDidRender(() => {
        // Feed more output from the render callback, as a busy passthrough would, 200 times.
        if (writes < 200) m.write(Buffer.from(`\r\nchunk ${++writes}`));
        else resolve();
      });
    });
    m.write(Buffer.from('start'));
    await done;
    await m.whenIdle();
    expect(m.snapshot().lines[4]).toBe('chunk 200');
  }, 60_000);

  it('a throwing render listener is counted and reported, and rendering goes on', async () => {
    const m = model();
    const reported: unknown[] = [];
    m.onListenerError((e) => reported.push(e));
    m.onDidRender(() => {
      throw new Error('recorder bug');
    });
    const s = await render(m, 'still rendered');
    expect(s.lines[0]).toBe('still rendered');
    expect(m.stats.listenerErrors).toBeGreaterThan(0);
    expect((reported[0] as Error).message).toBe('recorder bug');
  });

  it('write, resize and whenIdle after dispose are harmless, and in-flight output does not fire', async () => {
    const m = model();
    await render(m, 'kept');
    let rendersAfterDispose = 0;
    m.write(Buffer.alloc(256 * 1024, 0x41));
    m.onDidRender(() => rendersAfterDispose++);
    m.dispose();
    expect(() => m.write(Buffer.from('late'))).not.toThrow();
    expect(() => m.resize(20, 5)).not.toThrow();
    await m.whenIdle();
    expect(m.snapshot().lines[0]).toBe('kept');
    // xterm runs the writes it already had after dispose; a probe terminal's write callback runs
    // after them (timers fire in order), so by then any stray callback would have fired.
    const probe = new xtermHeadless.Terminal({ cols: 10, rows: 2 });
    await new Promise<void>((resolve) => probe.write('x', resolve));
    probe.dispose();
    expect(rendersAfterDispose).toBe(0);
  });

  it('clamps an unknown terminal size (0 x 0) to a usable one', async () => {
    const s = await render(model(0, 0), 'x');
    expect(s.cols).toBe(2);
    expect(s.rows).toBe(1);
  });
});

describe('ScreenModel.catchUp: the screen as drawn before a key, on the key’s own stack', () => {
  it('parses what was just written, paced or in flight, before returning, with a render for it', () => {
    const m = model(60, 12);
    const seen: number[] = [];
    m.onDidRender((seq) => seen.push(seq));
    // An agent's redraws arriving back to back: the model is busy and paces its parsing.
    const { data, lastLine } = burst(100 * 1024);
    for (const c of chunksOf(data, 4096)) m.write(c);
    m.write(Buffer.from('\x1b[2J\x1b[HDo you want to proceed?'));
    expect(m.snapshot().lines[0]).not.toBe('Do you want to proceed?');
    expect(m.catchUp()).toBe(true);
    expect(m.snapshot().lines[0]).toBe('Do you want to proceed?');
    expect(seen.length).toBeGreaterThan(0);
    expect(m.stats.parsedBytes).toBe(m.stats.writtenBytes);
    expect(lastLine).toMatch(/^line \d+ ok$/);
  });

  it('applies a resize queued between writes in order', () => {
    const m = model(40, 10);
    m.write(Buffer.from('before'));
    m.resize(80, 20);
    m.write(Buffer.from('\r\nafter'));
    expect(m.catchUp()).toBe(true);
    const s = m.snapshot();
    expect([s.cols, s.rows]).toEqual([80, 20]);
    expect(s.lines.slice(0, 2)).toEqual(['before', 'after']);
  });

  it('leaves a flood larger than its bound to the paced parsing and says the model is not current', async () => {
    const m = model(60, 12);
    const { data, lastLine } = burst(600 * 1024);
    m.write(data);
    expect(m.catchUp(256 * 1024)).toBe(false);
    await m.whenIdle();
    expect(m.snapshot().lines).toContain(lastLine);
  });

  it('writes that come after a catch-up are parsed as usual', async () => {
    const m = model();
    m.write(Buffer.from('one'));
    expect(m.catchUp()).toBe(true);
    const s = await render(m, '\r\ntwo');
    expect(s.lines.slice(0, 2)).toEqual(['one', 'two']);
  });
});
