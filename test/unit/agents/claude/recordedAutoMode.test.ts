// Claude Code 2.1.332's auto mode where it puts the call to the user (recorded/automode-*, recorded
// by scripts/record-claude-fixtures.mjs from the claude kit's autoModeScenarios.ts), replayed through
// the recorder like the other recorded sessions, on time and with the keys and the transcript late,
// then through merge and stats. A person's answer at auto mode's prompts is the user's, with the key
// as trigger; the classifier's refusals before the breaker stay the reviewer's; the "can't check"
// dialog decides no call: Enter there records nothing, and Esc or Shift+Tab, which stop the turn
// there, are the user's interruption of kind prompt of the call it held, which never ran.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecEvent } from '../../../../src/core/events.js';
import { fixturesDir } from '../../../support/agentVersions.js';
import { TIMING_POINTS, timingLabel, timingOptions } from '../../../support/timingSweep.js';
import { replayRecorded, type RecordedRun } from '../../../support/claude/recordedRun.js';

/** A replay parses a few hundred kB of output on the recording's clock; generous for 2 loaded cores. */
const REPLAY_TIMEOUT_MS = 90_000;
const RECORDED = join(fixturesDir('claude', '2.1.332'), 'recorded');

type Row = Partial<Pick<RecEvent, 'type' | 'kind' | 'trigger' | 'option_label' | 'call_id' | 'decided_by' | 'scope' | 'reason' | 'reason_source' | 'ran'>>;

const view = (e: RecEvent): Row => ({
  type: e.type,
  kind: e.kind,
  trigger: e.trigger,
  option_label: e.option_label,
  call_id: e.call_id,
  decided_by: e.decided_by,
  scope: e.scope,
  reason: e.reason,
  reason_source: e.reason_source,
  ran: e.ran,
});

const decisions = (r: RecordedRun) => r.events.filter((e) => e.type !== 'prompt').map(view);
const bashCalls = (r: RecordedRun) => r.calls.filter((c) => c.name === 'Bash').map((c) => c.id);

/** The one Bash call of a "can't check" run. */
function heldCall(r: RecordedRun): string {
  const ids = bashCalls(r);
  expect(ids).toHaveLength(1);
  return ids[0]!;
}

/** The prompt auto mode put to the user, tied to its call, with why it asked. */
function expectAutoModePrompt(r: RecordedRun, callId: string, cause: 'cannot_check' | 'breaker', labels: readonly string[]): void {
  expect(r.events.filter((e) => e.type === 'prompt')).toEqual([
    expect.objectContaining({
      kind: 'command',
      call_id: callId,
      tool_name: 'Bash',
      prompt: expect.objectContaining({ title: 'Bash command', details: expect.objectContaining({ auto_mode: cause }), options: labels.map((label) => ({ label })) }),
    }),
  ]);
}

const userRejection = (callId: string, trigger: 'enter' | 'esc', optionLabel: string | null): Row => ({
  type: 'rejection',
  kind: 'command',
  trigger,
  option_label: optionLabel,
  call_id: callId,
  decided_by: 'user',
  scope: null,
  reason: null,
  reason_source: 'none',
  ran: 'no',
});

const reviewerRejection = (callId: string): Row => ({
  type: 'rejection',
  kind: 'command',
  trigger: null,
  option_label: null,
  call_id: callId,
  decided_by: 'reviewer',
  scope: null,
  // The recordings cut the transcript's long strings (its README): the explanation's start is kept.
  reason: expect.stringMatching(/^MOCK-CLASSIFIER: writing a file w/) as unknown as string,
  reason_source: 'reviewer',
  ran: 'no',
});

/** merge: the user's refusal at the prompt, the call rejected; stats: counted as the user's. */
function expectUserRefusalMerged(r: RecordedRun, callId: string, trigger: string): void {
  const merged = r.journey.merged;
  expect(merged.flatMap((m) => m.rejections).map((x) => [x.call_id, x.decided_by, x.trigger])).toEqual([[callId, 'user', trigger]]);
  expect(merged.flatMap((m) => m.calls).find((c) => c.call_id === callId)?.fate).toBe('rejected');
  expect(r.journey.stats.rejections.by_decided_by).toEqual([{ key: 'user', count: 1 }]);
  expect(r.journey.misses).toEqual([]);
}

/** The dialog's stop: the user's interruption of kind prompt of the held call, which never ran; no rejection, no miss. */
function expectStoppedAtDialog(r: RecordedRun, trigger: 'esc' | 'shift_tab'): void {
  const call = heldCall(r);
  expect(r.events.filter((e) => e.type === 'prompt')).toEqual([]);
  expect(decisions(r)).toEqual([
    { type: 'interruption', kind: 'prompt', trigger, option_label: null, call_id: call, decided_by: 'user', scope: null, reason: null, reason_source: null, ran: 'no' },
  ]);
  const merged = r.journey.merged;
  expect(merged.flatMap((m) => m.interruptions).map((x) => [x.call_id, x.kind, x.trigger])).toEqual([[call, 'prompt', trigger]]);
  expect(merged.flatMap((m) => [...m.rejections, ...m.approvals])).toEqual([]);
  expect(merged.flatMap((m) => m.calls).find((c) => c.call_id === call)?.fate).toBe('interrupted');
  expect(r.journey.stats.interruptions.by_kind).toEqual([{ key: 'prompt', count: 1 }]);
  expect(r.journey.stats.rejections.total).toBe(0);
  expect(r.journey.misses).toEqual([]);
}

const TIMINGS = [
  { label: 'as recorded', options: {} },
  ...TIMING_POINTS.map((p) => ({ label: timingLabel(p, 'transcript'), options: timingOptions(p) })),
];

for (const { label, options } of TIMINGS) {
  describe(`claude 2.1.332, 120x40, auto mode puts the call to the user, recorded sessions replayed through the recorder, ${label}`, () => {
    const replay = (name: string) => replayRecorded(name, { dir: RECORDED, ...options });

    it('automode-cannot-check-yes: Enter at the dialog records nothing; 1 at the unnumbered prompt nothing; Down, Enter: the user’s approval', async () => {
      const r = await replay('automode-cannot-check-yes');
      const call = heldCall(r);
      expectAutoModePrompt(r, call, 'cannot_check', ['No', 'Yes']);
      expect(decisions(r)).toEqual([
        { type: 'approval', kind: 'command', trigger: 'enter', option_label: 'Yes', call_id: call, decided_by: 'user', scope: 'once', reason: null, reason_source: null, ran: 'yes' },
      ]);
      const merged = r.journey.merged;
      expect(merged.flatMap((m) => m.approvals).map((x) => [x.call_id, x.decided_by, x.trigger])).toEqual([[call, 'user', 'enter']]);
      expect(merged.flatMap((m) => m.calls).find((c) => c.call_id === call)?.fate).toBe('ran');
      expect(r.journey.misses).toEqual([]);
    }, REPLAY_TIMEOUT_MS);

    it('automode-cannot-check-no: Enter on the highlighted No: the user’s rejection', async () => {
      const r = await replay('automode-cannot-check-no');
      const call = heldCall(r);
      expectAutoModePrompt(r, call, 'cannot_check', ['No', 'Yes']);
      expect(decisions(r)).toEqual([userRejection(call, 'enter', 'No')]);
      expectUserRefusalMerged(r, call, 'enter');
    }, REPLAY_TIMEOUT_MS);

    it('automode-cannot-check-esc: Esc at the prompt: the user’s rejection, no option', async () => {
      const r = await replay('automode-cannot-check-esc');
      const call = heldCall(r);
      expectAutoModePrompt(r, call, 'cannot_check', ['No', 'Yes']);
      expect(decisions(r)).toEqual([userRejection(call, 'esc', null)]);
      expectUserRefusalMerged(r, call, 'esc');
    }, REPLAY_TIMEOUT_MS);

    it('automode-dialog-esc: Esc at the dialog stops the turn: the user’s interruption of kind prompt, the call never ran', async () => {
      expectStoppedAtDialog(await replay('automode-dialog-esc'), 'esc');
    }, REPLAY_TIMEOUT_MS);

    it('automode-dialog-shifttab: Shift+Tab at the dialog (accept edits mode) stops the turn: the same, with its key', async () => {
      expectStoppedAtDialog(await replay('automode-dialog-shifttab'), 'shift_tab');
    }, REPLAY_TIMEOUT_MS);

    it('automode-breaker-yes: two refusals are the reviewer’s; the third, put to the user, 1: the user’s approval', async () => {
      const r = await replay('automode-breaker-yes');
      const [first, second, third] = bashCalls(r) as [string, string, string];
      expectAutoModePrompt(r, third, 'breaker', ['Yes', 'Yes, and don’t ask again for: node *', 'No']);
      expect(decisions(r)).toEqual([
        reviewerRejection(first),
        reviewerRejection(second),
        { type: 'approval', kind: 'command', trigger: 'digit', option_label: 'Yes', call_id: third, decided_by: 'user', scope: 'once', reason: null, reason_source: null, ran: 'yes' },
      ]);
      const merged = r.journey.merged;
      expect(merged.flatMap((m) => m.approvals).map((x) => [x.call_id, x.decided_by, x.trigger])).toEqual([[third, 'user', 'digit']]);
      expect(r.journey.stats.rejections.by_decided_by).toEqual([{ key: 'reviewer', count: 2 }]);
      expect(r.journey.misses).toEqual([]);
    }, REPLAY_TIMEOUT_MS);

    it('automode-breaker-esc: the third put to the user, Esc: the user’s rejection beside the reviewer’s two', async () => {
      const r = await replay('automode-breaker-esc');
      const [first, second, third] = bashCalls(r) as [string, string, string];
      expectAutoModePrompt(r, third, 'breaker', ['Yes', 'Yes, and don’t ask again for: node *', 'No']);
      expect(decisions(r)).toEqual([reviewerRejection(first), reviewerRejection(second), userRejection(third, 'esc', null)]);
      expect(r.journey.stats.rejections.by_decided_by).toEqual([
        { key: 'reviewer', count: 2 },
        { key: 'user', count: 1 },
      ]);
      expect(r.journey.misses).toEqual([]);
    }, REPLAY_TIMEOUT_MS);
  });
}
