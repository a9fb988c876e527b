import { afterEach, describe, expect, it } from 'vitest';
import { ScreenModel } from '../../../src/screen/screenModel.js';

const models: ScreenModel[] = [];
afterEach(() => {
  for (const m of models.splice(0)) m.dispose();
});

describe('ScreenModel.watchOsc', () => {
  it('hands out OSC payloads in order with the output, and the screen still shows only the text', async () => {
    const m = new ScreenModel({ cols: 40, rows: 5 });
    models.push(m);
    const seen: string[] = [];
    m.watchOsc(7501)((data) => seen.push(data));
    const other: string[] = [];
    m.watchOsc(7)((data) => other.push(data));
    m.write(Buffer.from('one \x1b]7501;state=blocked:app=codex:kind=permission\x1b\\two \x1b]7501;state=working:app=codex\x07three'));
    await m.whenIdle();
    expect(seen).toEqual(['state=blocked:app=codex:kind=permission', 'state=working:app=codex']);
    expect(other).toEqual([]);
    expect(m.snapshot().lines[0]).toBe('one two three');
  });

  it('a listener that throws is counted and the model goes on', async () => {
    const m = new ScreenModel({ cols: 40, rows: 5 });
    models.push(m);
    m.watchOsc(7501)(() => {
      throw new Error('listener bug');
    });
    m.write(Buffer.from('a\x1b]7501;state=idle\x07b'));
    await m.whenIdle();
    expect(m.stats.listenerErrors).toBe(1);
    expect(m.snapshot().lines[0]).toBe('ab');
  });
});
