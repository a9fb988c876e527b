// What the run hands its session chooser as witnesses: the user messages shown long enough ago to
// count towards a fit, and every message shown in the run, however recently, to tell a trailing file
// of our own from another session's.
import { describe, expect, it } from 'vitest';
import type { ScreenReading } from '../../../../src/agents/common/agentProfile.js';
import { SessionBinding } from '../../../../src/agents/common/sessionBinding.js';

const SETTLE_MS = 1_000;
const screen = (userMessages: readonly string[]): ScreenReading => ({ working: false, userMessages, decisionRows: 0 });

describe('SessionBinding.witness', () => {
  it('counts a message towards the fit once shown SETTLE ms ago, and names every message ever shown, whitespace dropped', () => {
    const binding = new SessionBinding(SETTLE_MS, () => {});
    binding.screenShown(screen(['first message']), 0);
    binding.screenShown(screen(['second  message']), 900);
    // The first has scrolled away; the screen shows only the second now.
    const early = binding.witness(1_000, ['second  message'], undefined, []);
    expect(early.userMessages).toEqual([]);
    expect(early.shownEver).toEqual(['firstmessage', 'secondmessage']);
    const later = binding.witness(1_900, ['second  message'], undefined, []);
    expect(later.userMessages).toEqual(['second  message']);
  });
});
