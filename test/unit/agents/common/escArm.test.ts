// Which Esc cuts a turn where one Esc only arms the interrupt (OptionRules.escArmsInterrupt), on the
// virtual clock: the second of two, told by the screen or by coming quickly after the first.
import { describe, expect, it } from 'vitest';
import { ESC_ARMED_QUICK_MS, EscArm } from '../../../../src/agents/common/escArm.js';
import { VirtualClock } from '../../../support/virtualClock.js';

describe('EscArm', () => {
  it('the first Esc arms; a second within the quick window cuts, before any redraw', async () => {
    const clock = new VirtualClock(0);
    const arm = new EscArm(clock);
    expect(arm.cuts(false)).toBe(false);
    await clock.advanceTo(ESC_ARMED_QUICK_MS);
    expect(arm.cuts(false)).toBe(true);
    // Cut: the next Esc arms again.
    expect(arm.cuts(false)).toBe(false);
  });

  it('a second Esc after the quick window cuts only where the screen asks for it', async () => {
    const clock = new VirtualClock(0);
    const arm = new EscArm(clock);
    expect(arm.cuts(false)).toBe(false);
    await clock.advanceTo(ESC_ARMED_QUICK_MS + 1);
    expect(arm.cuts(true)).toBe(true);
    expect(arm.cuts(false)).toBe(false);
    await clock.advanceTo(2 * ESC_ARMED_QUICK_MS + 2);
    // The screen no longer asks (the agent disarmed): this Esc arms again.
    expect(arm.cuts(false)).toBe(false);
  });

  it('another key between two Escs disarms', () => {
    const arm = new EscArm(new VirtualClock(0));
    expect(arm.cuts(false)).toBe(false);
    arm.disarm();
    expect(arm.cuts(false)).toBe(false);
  });
});
