// Which renderer the user's Claude Code draws with is read from the screen, never set by rec: the
// full-screen one (the default) on the alternate screen, the inline one (`"tui": "default"`) on the
// normal screen. Only the inline one erases and rewrites its lines, so only there may a frame hide
// a prompt that is still open (agentRecorder's torn-frame rule).
import { describe, expect, it } from 'vitest';
import { ClaudeProfile } from '../../../../src/agents/claude/profile.js';
import { blankScreen, TestScreen } from '../../../support/testScreen.js';

function profile() {
  const screen = new TestScreen(blankScreen());
  return new ClaudeProfile({ env: {}, cwd: '/w', startedAt: new Date(0), screen });
}

describe('ClaudeProfile: the renderer, as the screen shows it', () => {
  it('a full-screen frame (alternate screen): redraws only changed cells, no torn frames', () => {
    const p = profile();
    p.readScreen({ ...blankScreen(), alternate: true });
    expect(p.redrawsInPlace).toBe(false);
  });

  it('an inline frame (normal screen): redraws in place, so a torn frame may hide the prompt', () => {
    const p = profile();
    p.readScreen({ ...blankScreen(), alternate: false });
    expect(p.redrawsInPlace).toBe(true);
  });

  it('a view that cannot tell (replayed text) keeps what was last seen', () => {
    const p = profile();
    expect(p.redrawsInPlace).toBe(false);
    p.readScreen({ ...blankScreen(), alternate: false });
    p.readScreen(blankScreen());
    expect(p.redrawsInPlace).toBe(true);
  });
});
