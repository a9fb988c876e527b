// Recorded sessions of Codex 0.171.0 where a hook of the user's answers the approval request
// (scripts/record-codex-fixtures.mjs, key scripts HOOK_SCENARIOS in test/support/codex/promptScenarios.ts),
// replayed like the other Codex recordings with the rollout on time and late: a hook's refusal is
// recorded as the hook's (decided_by hook, trigger hook, its message the reason), never as a person's
// and never as a miss; what `rec merge` and `rec stats` make of the run; and what the rollout alone says.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecEvent } from '../../../../src/core/events.js';
import { joinSession } from '../../../../src/merge/joinSession.js';
import { readSessionFile } from '../../../../src/merge/readSession.js';
import { TIMING_POINTS, timingLabel, timingOptions } from '../../../support/timingSweep.js';
import { HOOK_MESSAGE } from '../../../support/codex/promptScenarios.js';
import { RECORDED_BY_VERSION, replayRecorded, type RecordedRun, type ReplayOptions } from '../../../support/codex/recordedRun.js';
import type { RolloutCall } from '../../../support/codex/rolloutCalls.js';

const REPLAY_TIMEOUT_MS = 60_000;
const TIMINGS: ReadonlyArray<{ readonly label: string; readonly options: Pick<ReplayOptions, 'fileLagMs' | 'keyDelayMs' | 'keysWhileDrawing'> }> = [
  { label: 'rollout on time', options: {} },
  ...[400, 1_500].map((lag) => ({ label: `rollout ${lag} ms late`, options: { fileLagMs: lag } })),
  ...TIMING_POINTS.map((p) => ({ label: timingLabel(p, 'rollout'), options: timingOptions(p) })),
];
/** User hooks were measured on 0.171.0 only. */
const DIR = RECORDED_BY_VERSION.find((v) => v.version === '0.171.0')!.recorded;

/** The fields that say who decided what, and on which witnesses. */
function who(e: RecEvent) {
  return {
    type: e.type,
    kind: e.kind,
    decided_by: e.decided_by,
    trigger: e.trigger,
    call_id: e.call_id,
    tool_input: e.tool_input,
    reason: e.reason,
    reason_source: e.reason_source,
    ran: e.ran,
    hook: (e.native as { hook?: string } | null)?.hook ?? null,
    evidence: [...e.evidence].sort(),
  };
}

/** A hook's refusal as rec must record it: the hook's, its message the reason, the call not run. */
function hookRejection(call: RolloutCall, hook: 'PermissionRequest' | 'PreToolUse', evidence: readonly string[]) {
  return {
    type: 'rejection',
    kind: 'command',
    decided_by: 'hook',
    trigger: 'hook',
    call_id: call.callId,
    tool_input: call.args,
    reason: HOOK_MESSAGE,
    reason_source: 'hook',
    ran: 'no',
    hook,
    evidence: [...evidence].sort(),
  };
}

function replay(name: string, timing: Pick<ReplayOptions, 'fileLagMs' | 'keyDelayMs' | 'keysWhileDrawing'>): Promise<RecordedRun> {
  return replayRecorded(name, { dir: DIR, ...timing });
}

/** What merge and stats show of the run: the hook's rejections, each call's fate. */
function expectJourney(run: RecordedRun, fates: readonly string[], hookRejections: number): void {
  const merged = run.journey.merged;
  expect(merged.flatMap((m) => m.calls).map((c) => c.fate)).toEqual(fates);
  expect(merged.flatMap((m) => m.rejections).map((x) => [x.call_id, x.decided_by, x.trigger, x.reason, x.reason_source])).toEqual(
    run.calls.slice(0, hookRejections).map((c) => [c.callId, 'hook', 'hook', HOOK_MESSAGE, 'hook']),
  );
  expect(merged.flatMap((m) => m.unknown)).toEqual([]);
  expect(run.journey.stats.rejections.by_decided_by).toEqual(hookRejections > 0 ? [{ key: 'hook', count: hookRejections }] : []);
}

for (const { label, options: timing } of TIMINGS) {
  describe(`codex 0.171.0, a hook of the user's answers, ${label}`, () => {
    it("hook-deny: a PermissionRequest hook denies three calls with its message: three rejections decided by the hook, no prompt, no miss", async () => {
      const run = await replay('hook-deny', timing);
      expect(run.calls).toHaveLength(3);
      // The rollout names no refuser (a rule's refusal reads the same); the screen's `Blocked by hook` does.
      expect(run.events.map(who)).toEqual(run.calls.map((c) => hookRejection(c, 'PermissionRequest', ['screen', 'session_file'])));
      expectJourney(run, ['rejected', 'rejected', 'rejected'], 3);
    }, REPLAY_TIMEOUT_MS);

    it('hook-deny-auto-review: with auto-review on, the hook denies before the reviewer is asked: the hook’s, not the reviewer’s', async () => {
      const run = await replay('hook-deny-auto-review', timing);
      expect(run.events.map(who)).toEqual([hookRejection(run.calls[0]!, 'PermissionRequest', ['screen', 'session_file'])]);
      expectJourney(run, ['rejected'], 1);
    }, REPLAY_TIMEOUT_MS);

    it('hook-block-pretooluse: a PreToolUse hook blocks the call; its output names the hook', async () => {
      const run = await replay('hook-block-pretooluse', timing);
      expect(run.events.map(who)).toEqual([hookRejection(run.calls[0]!, 'PreToolUse', ['session_file'])]);
      expectJourney(run, ['rejected'], 1);
    }, REPLAY_TIMEOUT_MS);

    it('hook-allow: a PermissionRequest hook allows the call: it runs with no prompt, and nothing tells rec who allowed it', async () => {
      const run = await replay('hook-allow', timing);
      expect(run.calls.map((c) => c.ranPerRollout)).toEqual([true]);
      expect(run.events.map(who)).toEqual([]);
      expectJourney(run, ['ran'], 0);
    }, REPLAY_TIMEOUT_MS);
  });
}

describe('rec merge of a hook run’s rollout alone', () => {
  const merged = async (name: string) => {
    const file = join(DIR, `${name}.rollout.jsonl`);
    const r = await readSessionFile(file);
    expect(r.session, JSON.stringify(r.diagnostics)).not.toBeNull();
    return joinSession(r.session!, { events: [], runIds: [], source: 'file', files: [file] });
  };

  it("a PermissionRequest hook's own message reads like a rule's refusal: a rejection no person made, its decider undetermined", async () => {
    const m = await merged('hook-deny');
    expect(m.rejections.map((r) => [r.decided_by, r.reason, r.reason_source, r.ran, r.undetermined])).toEqual(Array(3).fill([null, null, 'none', 'no', ['decided_by']]));
    expect(m.calls.map((c) => c.fate)).toEqual(['rejected', 'rejected', 'rejected']);
  });

  it("a PreToolUse hook's block names the hook: decided by the hook, its reason kept", async () => {
    const m = await merged('hook-block-pretooluse');
    expect(m.rejections).toEqual([
      expect.objectContaining({ decided_by: 'hook', reason: HOOK_MESSAGE, reason_source: 'hook', ran: 'no', undetermined: [], native: expect.objectContaining({ hook: 'PreToolUse' }) }),
    ]);
  });

  it("a hook's allow reads as a call that needed no approval", async () => {
    const m = await merged('hook-allow');
    expect(m.rejections).toEqual([]);
    expect(m.approvals).toEqual([]);
    expect(m.calls.map((c) => c.fate)).toEqual(['ran']);
  });
});
