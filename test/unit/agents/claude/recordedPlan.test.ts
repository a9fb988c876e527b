// Plan mode's approval dialog on each verified Claude Code (recorded/plan-*, recorded by
// scripts/record-claude-fixtures.mjs from the plan scenarios of the claude kit), replayed through the
// recorder like the other recorded sessions (test/support/claude/recordedRun.ts): the ExitPlanMode call's prompt of
// kind plan, the decision by key, and what merge and stats make of it.
import { describe, expect, it } from 'vitest';
import type { RecEvent } from '../../../../src/core/events.js';
import { RECORDED_BY_VERSION, replayRecorded, type RecordedRun } from '../../../support/claude/recordedRun.js';

/** A replay parses a few hundred kB of output on the recording's clock; generous for 2 loaded cores. */
const REPLAY_TIMEOUT_MS = 60_000;

const YES = 'Yes, and switch to default (ask each time) for this session';

type Row = Partial<Pick<RecEvent, 'type' | 'kind' | 'trigger' | 'option_label' | 'call_id' | 'decided_by' | 'scope' | 'reason' | 'reason_source' | 'ran' | 'tool_name'>>;

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
  tool_name: e.tool_name,
});

/** The one ExitPlanMode call of the run. */
function planCall(r: RecordedRun): string {
  const calls = r.calls.filter((c) => c.name === 'ExitPlanMode');
  expect(calls).toHaveLength(1);
  return calls[0]!.id;
}

function expectPlanPrompt(r: RecordedRun, callId: string): void {
  expect(r.events.filter((e) => e.type === 'prompt')).toEqual([
    expect.objectContaining({
      kind: 'plan',
      call_id: callId,
      tool_name: 'ExitPlanMode',
      prompt: expect.objectContaining({ title: 'Exit plan mode?', options: [expect.objectContaining({ label: YES }), expect.objectContaining({ label: 'No' })] }),
    }),
  ]);
}

const decisions = (r: RecordedRun) => r.events.filter((e) => e.type !== 'prompt').map(view);

/** merge: a rejection of kind plan, the call's fate rejected; stats: counted under plan. */
function expectRefusedPlanMerged(r: RecordedRun, callId: string): void {
  const merged = r.journey.merged;
  expect(merged.flatMap((m) => m.rejections)).toEqual([expect.objectContaining({ call_id: callId, rejection_type: 'plan' })]);
  expect(merged.flatMap((m) => m.calls).find((c) => c.call_id === callId)?.fate).toBe('rejected');
  expect(r.journey.stats.rejections.by_kind).toEqual([{ key: 'plan', count: 1 }]);
}

const rejection = (callId: string, trigger: string, optionLabel: string | null): Row => ({
  type: 'rejection',
  kind: 'plan',
  trigger: trigger as Row['trigger'],
  option_label: optionLabel,
  call_id: callId,
  decided_by: 'user',
  scope: null,
  reason: null,
  reason_source: 'none',
  ran: 'no',
  tool_name: 'ExitPlanMode',
});

for (const { version, recorded } of RECORDED_BY_VERSION) {
  describe(`claude ${version}, 120x40, plan mode: the plan approval dialog, recorded sessions replayed through the recorder`, () => {
    it('plan-approve: 1 approves the plan for the session (Claude writes grantScope session, and leaves plan mode)', async () => {
      const r = await replayRecorded('plan-approve', { dir: recorded });
      const call = planCall(r);
      expectPlanPrompt(r, call);
      expect(decisions(r)).toEqual([
        { type: 'approval', kind: 'plan', trigger: 'digit', option_label: YES, call_id: call, decided_by: 'user', scope: 'session', reason: null, reason_source: null, ran: 'yes', tool_name: 'ExitPlanMode' },
      ]);
      expect(r.journey.merged.flatMap((m) => m.calls).find((c) => c.call_id === call)?.fate).toBe('ran');
      expect(r.journey.stats.rejections.total).toBe(0);
    }, REPLAY_TIMEOUT_MS);

    it('plan-reject-digit: 2 (No) refuses the plan: a rejection of kind plan keyed by the call', async () => {
      const r = await replayRecorded('plan-reject-digit', { dir: recorded });
      const call = planCall(r);
      expectPlanPrompt(r, call);
      expect(decisions(r)).toEqual([rejection(call, 'digit', 'No')]);
      expectRefusedPlanMerged(r, call);
    }, REPLAY_TIMEOUT_MS);

    it('plan-reject-esc: Esc refuses the plan, naming no option', async () => {
      const r = await replayRecorded('plan-reject-esc', { dir: recorded });
      expect(decisions(r)).toEqual([rejection(planCall(r), 'esc', null)]);
      expectRefusedPlanMerged(r, planCall(r));
    }, REPLAY_TIMEOUT_MS);

    it('plan-reject-tab-enter: Tab opens no field at this dialog: the typed text is no reason, Enter on No is a plain refusal', async () => {
      const r = await replayRecorded('plan-reject-tab-enter', { dir: recorded });
      expect(decisions(r)).toEqual([rejection(planCall(r), 'enter', 'No')]);
      expect(JSON.stringify(r.events)).not.toContain('keep it shorter');
    }, REPLAY_TIMEOUT_MS);

    it('plan-long-reject-esc: a 60-step plan draws the same dialog; Esc refuses it', async () => {
      const r = await replayRecorded('plan-long-reject-esc', { dir: recorded });
      const call = planCall(r);
      expectPlanPrompt(r, call);
      expect(decisions(r)).toEqual([rejection(call, 'esc', null)]);
      expectRefusedPlanMerged(r, call);
    }, REPLAY_TIMEOUT_MS);
  });
}
