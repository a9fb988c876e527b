// Misses detected in the field (src/agents/common/missCheck.ts), on real recordings whose prompt
// screen is altered the way a new release may change it: the recorder no longer reads the prompt,
// so it records no decision, and the agent's own file shows the decision it missed. Each replay must
// report exactly the decided calls as misses (with the file's word and the screen as last seen),
// nothing else, and merge and stats must carry them (the journey, test/support/journey.ts). The
// unaltered replays of every recording report no miss (test/support/recordedRun.ts checks it).
// Below them, the rule itself on plain calls and events.
import { describe, expect, it } from 'vitest';
import type { CallState } from '../../../../src/agents/common/callLedger.js';
import type { BookedEvent } from '../../../../src/agents/common/eventBook.js';
import { MissCheck, screenCapture } from '../../../../src/agents/common/missCheck.js';
import type { NewEvent, RecEvent } from '../../../../src/core/events.js';
import { replayRecorded as replayClaude } from '../../../support/claude/recordedRun.js';
import { RECORDED_BY_VERSION, replayRecorded as replayCodex } from '../../../support/codex/recordedRun.js';
import { replayRecorded as replayGemini } from '../../../support/gemini/recordedRun.js';

/** A replay parses a few hundred kB of output on the recording's clock; generous for 2 loaded cores. */
const REPLAY_TIMEOUT_MS = 60_000;

/**
 * The same number of characters, so that nothing else on the screen moves. Claude's full-screen
 * renderer places each word of the question by a cursor move: "Do you wish to proceed?".
 */
const claudeRelease = (data: string) => data.replace(/want(\x1b\[\d+Gto\x1b\[\d+Gproceed\?)/g, 'wish$1');
const geminiRelease = (data: string) => data.replaceAll('Allow execution of ', 'Grant execution of ');
const codexRelease = (data: string) => data.replaceAll('Would you like to run the following command?', 'Would you care to run the following command?');

const view = (e: RecEvent) => ({ type: e.type, call_id: e.call_id, decision: (e.native as { decision?: unknown } | null)?.decision });

describe('misses detected in the field', () => {
  it(
    'Claude Code: a refusal by digit at a prompt rec cannot read is one miss, with the screen that showed it',
    async () => {
      const run = await replayClaude('bash-reject-digit', { alterOutput: claudeRelease });
      const refused = run.calls.map((c) => c.id);
      expect(refused).toHaveLength(1);
      expect(run.events.map(view)).toEqual([{ type: 'miss', call_id: refused[0], decision: 'rejected' }]);
      expect(run.events[0]!.partial_output).toContain('Do you wish to proceed?');
      expect(run.journey.merged.flatMap((m) => m.diagnostics).filter((d) => d.code === 'miss')).toHaveLength(1);
      expect(run.journey.stats.misses).toEqual({ total: 1, by_agent: [{ key: 'claude', count: 1 }] });
    },
    REPLAY_TIMEOUT_MS,
  );

  it(
    'Claude Code: an approval the transcript says a person gave is a miss too',
    async () => {
      const run = await replayClaude('bash-approve-once', { alterOutput: claudeRelease });
      expect(run.events.map(view)).toEqual([{ type: 'miss', call_id: run.calls[0]!.id, decision: 'approved' }]);
    },
    REPLAY_TIMEOUT_MS,
  );

  // On 0.171.0's recording the rollout shows the turn open when Esc comes: only the option list on
  // screen tells that Esc answered a dialog and cut no turn (no interruption to cover the miss).
  for (const { version, recorded } of RECORDED_BY_VERSION) {
    it(
      `Codex ${version}: Esc at a prompt rec cannot read is one miss, "aborted by user"`,
      async () => {
        const run = await replayCodex('shell-reject-esc', { alterOutput: codexRelease, dir: recorded });
        expect(run.events.map(view)).toEqual([{ type: 'miss', call_id: run.calls[0]!.callId, decision: 'aborted by user' }]);
        expect(run.events[0]!.partial_output).toContain('Would you care to run');
        expect(run.journey.stats.misses.total).toBe(1);
      },
      REPLAY_TIMEOUT_MS,
    );
  }

  it(
    'Gemini CLI: Esc at a dialog rec cannot read is one miss, "cancelled" with the denial',
    async () => {
      const run = await replayGemini('shell-reject-esc', { alterOutput: geminiRelease });
      expect(run.events.map(view)).toEqual([{ type: 'miss', call_id: expect.any(String), decision: 'cancelled: User denied execution.' }]);
      expect(run.events[0]!.partial_output).toContain('Grant execution of');
    },
    REPLAY_TIMEOUT_MS,
  );
});

describe('MissCheck', () => {
  const call = (callId: string, fileDecision?: string): CallState => ({ callId, toolName: 'Bash', toolInput: 'ls', order: 0, native: {}, fromSessionFile: true, ...(fileDecision ? { fileDecision } : {}) });
  const booked = (id: string, type: BookedEvent['type'], callId: string | null): BookedEvent => ({ id, type, ts: '2026-01-01T00:00:00.000Z', call_id: callId });
  function check(calls: CallState[], events: BookedEvent[]) {
    const written: Array<Omit<NewEvent, 'ts'>> = [];
    const misses = new MissCheck({ calls: () => calls, events: () => events, promptedCalls: () => new Set(), kindOf: () => 'command', screen: () => 'the screen' }, (e) => written.push(e));
    return { misses, written };
  }

  it('a decided call with no event of the recorder is a miss once; one it recorded, or one the file marks with no decision, is not', () => {
    const calls = [call('a', 'rejected'), call('b', 'rejected'), call('c')];
    const { misses, written } = check(calls, [booked('1', 'rejection', 'b')]);
    misses.check();
    misses.check();
    expect(written.map((e) => [e.type, e.call_id, (e.native as { decision: string }).decision, e.partial_output])).toEqual([['miss', 'a', 'rejected', 'the screen']]);
    expect(misses.count).toEqual({ decided: 2, missed: 1 });
  });

  it('an event without a call id covers the decisions of the two checks after it, and no later ones', () => {
    const calls: CallState[] = [call('a', 'aborted by user')];
    const { misses, written } = check(calls, [booked('1', 'interruption', null)]);
    misses.check();
    expect(written).toEqual([]);
    misses.check();
    calls.push(call('b', 'aborted by user'));
    misses.check();
    expect(written.map((e) => e.call_id)).toEqual(['b']);
  });

  it('keeps the bottom of a long screen, escaped', () => {
    expect(screenCapture(['\x1b]0;x\x07 top', 'bottom', '', ''])).toBe('\\x1b]0;x\\x07 top\nbottom');
    expect(screenCapture(['x'.repeat(5_000)]).length).toBe(4_001);
  });
});
