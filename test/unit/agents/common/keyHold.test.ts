// KeyHold: keys pressed while the agent is drawing are held in order and judged once the prompt
// shows, when another key forces them out, or when the hold runs out; on the screen they were
// pressed on unless a prompt showed since (the recorder decides that in its judge).
import { describe, expect, it } from 'vitest';
import type { KeyEvent } from '../../../../src/core/keys.js';
import { KEY_HOLD_MS, KeyHold, type HeldKey } from '../../../../src/agents/common/keyHold.js';
import { VirtualClock } from '../../../support/virtualClock.js';

const down: KeyEvent = { type: 'key', name: 'down', bytes: Buffer.from('\x1b[B') };
const enter: KeyEvent = { type: 'key', name: 'enter', bytes: Buffer.from('\r') };

function setUp() {
  const clock = new VirtualClock(1_000);
  const judged: Array<{ readonly at: number; readonly held: HeldKey<string> }> = [];
  const hold = new KeyHold<string>(clock, (held) => judged.push({ at: clock.now(), held }));
  return { clock, judged, hold };
}

describe('KeyHold', () => {
  it('tells output this recent from output a person could have read', () => {
    const { clock, hold } = setUp();
    expect(hold.drawing(clock.now())).toBe(true);
    expect(hold.drawing(clock.now() - KEY_HOLD_MS + 1)).toBe(true);
    expect(hold.drawing(clock.now() - KEY_HOLD_MS)).toBe(false);
    expect(hold.drawing(-Infinity)).toBe(false);
  });

  it('judges nothing while holding, then every key in the order pressed when released', () => {
    const { judged, hold } = setUp();
    hold.hold({ key: down, screen: 'half a prompt' });
    hold.hold({ key: enter, screen: 'half a prompt' });
    expect(hold.holding).toBe(true);
    expect(judged).toEqual([]);
    hold.release();
    expect(judged.map((j) => [j.held.key, j.held.screen])).toEqual([
      [down, 'half a prompt'],
      [enter, 'half a prompt'],
    ]);
    expect(hold.holding).toBe(false);
  });

  it('releases by itself KEY_HOLD_MS after the first key held, and only once', async () => {
    const { clock, judged, hold } = setUp();
    hold.hold({ key: down, screen: 'composer' });
    await clock.advanceTo(1_000 + KEY_HOLD_MS - 1);
    expect(judged).toEqual([]);
    await clock.advanceTo(1_000 + KEY_HOLD_MS);
    expect(judged.map((j) => j.at)).toEqual([1_000 + KEY_HOLD_MS]);
    await clock.advanceTo(1_000 + 10 * KEY_HOLD_MS);
    expect(judged).toHaveLength(1);
  });

  it('a release before the timer leaves no timer to judge again; dispose drops what is held', async () => {
    const { clock, judged, hold } = setUp();
    hold.hold({ key: down, screen: 'a' });
    hold.release();
    await clock.advanceTo(1_000 + 2 * KEY_HOLD_MS);
    expect(judged).toHaveLength(1);
    hold.hold({ key: enter, screen: 'b' });
    hold.dispose();
    await clock.advanceTo(1_000 + 4 * KEY_HOLD_MS);
    expect(judged).toHaveLength(1);
    expect(hold.holding).toBe(false);
  });

  it('a key held until the screen model caught up waits for that, not for KEY_HOLD_MS, and so do the keys after it', async () => {
    const { clock, judged, hold } = setUp();
    let caughtUp!: () => void;
    hold.holdUntil({ key: down, screen: 'behind' }, new Promise<void>((resolve) => (caughtUp = resolve)));
    hold.hold({ key: enter, screen: 'behind' });
    expect(hold.waitingForScreen).toBe(true);
    await clock.advanceTo(1_000 + 10 * KEY_HOLD_MS);
    expect(judged).toEqual([]);
    caughtUp();
    await Promise.resolve();
    await Promise.resolve();
    expect(judged.map((j) => j.held.key)).toEqual([down, enter]);
    expect([hold.holding, hold.waitingForScreen]).toEqual([false, false]);
  });

  it('a later key held for the screen model waits for its own catch-up, not an earlier one', async () => {
    const { judged, hold } = setUp();
    let first!: () => void;
    let second!: () => void;
    const firstReady = new Promise<void>((resolve) => (first = resolve));
    const secondReady = new Promise<void>((resolve) => (second = resolve));
    hold.holdUntil({ key: down, screen: 'behind' }, firstReady);
    hold.holdUntil({ key: enter, screen: 'further behind' }, secondReady);
    first();
    await firstReady;
    await Promise.resolve();
    expect(judged).toEqual([]);
    second();
    await secondReady;
    await Promise.resolve();
    expect(judged.map((j) => j.held.key)).toEqual([down, enter]);
  });
});

