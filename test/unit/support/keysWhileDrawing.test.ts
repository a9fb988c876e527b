// The timing sweep's soonest point: a key that followed a frame the pty handed over in pieces comes
// right after the first piece; keys after other keys, or after one piece, stay where they were.
import { describe, expect, it } from 'vitest';
import { keysWhileDrawing, type CastEvent } from '../../support/castReplay.js';

const o = (t: number, data: string): CastEvent => ({ t, kind: 'o', data });
const i = (t: number, data: string): CastEvent => ({ t, kind: 'i', data });

describe('keysWhileDrawing', () => {
  it('moves a key to just after the first piece of the frame before it, at that piece time', () => {
    const events = [o(1, 'spinner'), o(4.398, 'title'), o(4.399, 'prompt'), i(4.7, 'down'), i(4.7, 'down'), o(4.72, 'highlight')];
    expect(keysWhileDrawing(events)).toEqual([o(1, 'spinner'), o(4.398, 'title'), i(4.398, 'down'), o(4.399, 'prompt'), i(4.7, 'down'), o(4.72, 'highlight')]);
  });

  it('counts only pieces under 2 ms apart as one frame', () => {
    const events = [o(2, 'a frame'), o(2.01, 'the next frame'), i(3, '1')];
    expect(keysWhileDrawing(events)).toEqual(events);
  });

  it('leaves a key after a frame of one piece, and the first key of a recording, where they were', () => {
    const events = [i(0.5, 'x'), o(1, 'whole prompt'), i(1.3, '\r')];
    expect(keysWhileDrawing(events)).toEqual(events);
  });

  it('goes back over every piece of a long frame to the first', () => {
    const events = [o(1, 'p1'), o(1.0005, 'p2'), o(1.001, 'p3'), o(1.0015, 'p4'), i(2, '\x1b')];
    expect(keysWhileDrawing(events)).toEqual([o(1, 'p1'), i(1, '\x1b'), o(1.0005, 'p2'), o(1.001, 'p3'), o(1.0015, 'p4')]);
  });
});
