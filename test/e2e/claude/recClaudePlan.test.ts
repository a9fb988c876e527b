// `rec claude` on the REAL pinned Claude Code in plan mode (`--permission-mode plan`) against our mock
// Messages API: the model calls ExitPlanMode with its plan and Claude Code asks "Exit plan mode?".
// Each scenario drives the keys a user would press (planScenarios.ts, the same scripts the fixtures
// were recorded with), then checks the sidecar rows against Claude Code's transcript and follows them
// through `rec merge` and `rec stats` (docs/claude-plan.md).
import { afterEach, describe, expect, it } from 'vitest';
import { expectJourneys, type Journey } from '../../support/journey.js';
import { PLAN_TEXT } from '../../../src/lab/mock/anthropicMessages/scenarios.js';
import { approvalRow, promptRow, REJECT_STOP, rejectionRow, view } from '../../support/claude/expectedRows.js';
import { PLAN_SCENARIOS, PLAN_SCREEN, PLAN_TYPED } from '../../support/claude/planScenarios.js';
import { missingPart, startRec, waitReady, type RecSession } from '../../support/claude/recSession.js';
import type { TranscriptCall } from '../../support/claude/transcriptCalls.js';

/** Claude Code's start (4-6 s), one model turn, the quit and rec's reconcile, then merge and stats: generous for 2 loaded cores. */
const TEST_TIMEOUT_MS = 180_000;

/** Option 1 of the plan dialog, verbatim. */
const YES = 'Yes, and switch to default (ask each time) for this session';
/** What Claude Code tells the model when the plan is approved. */
const PLAN_APPROVED = 'User has approved exiting plan mode. You can now proceed.';

// The pinned Claude Code is a devDependency: without it (or a build) the suite fails, never skips.
const missing = missingPart();
if (missing) throw new Error(`the Claude Code e2e suite cannot run: ${missing}`);

let session: RecSession | undefined;

afterEach(async () => {
  await session?.dispose();
  session = undefined;
});

/** Runs the named plan scenario under `rec claude`, quits, and follows the run through merge and stats. */
async function run(name: string): Promise<{ s: RecSession; call: TranscriptCall; journey: Journey; idleScreen: string }> {
  const scenario = PLAN_SCENARIOS.find((x) => x.name === name);
  if (!scenario) throw new Error(`no scenario ${name}`);
  session = await startRec({ args: scenario.args ?? [] });
  const s = session;
  await waitReady(s);
  await scenario.run(s.driver);
  // The idle screen the dialog left: its footer says which mode is on.
  await s.driver.waitScreen(PLAN_SCREEN.idle);
  const idleScreen = s.proc.screen();
  await scenario.quit!(s.driver);
  expect((await s.proc.expectExit(60_000)).exitCode).toBe(0);
  const journeys = await expectJourneys(s.dbPath, s.env.env);
  expect(journeys).toHaveLength(1);
  const plans = s.transcript().calls.filter((c) => c.name === 'ExitPlanMode');
  expect(plans).toHaveLength(1);
  return { s, call: plans[0]!, journey: journeys[0]!, idleScreen };
}

/** What merge and stats make of a refused plan: a rejection of kind plan for the call, counted under plan. */
function expectRefusedPlan(journey: Journey, call: TranscriptCall, trigger: string): void {
  const rejections = journey.merged.flatMap((m) => m.rejections);
  expect(rejections).toEqual([expect.objectContaining({ call_id: call.id, rejection_type: 'plan', trigger, sources: expect.arrayContaining(['sidecar']) })]);
  expect(journey.merged.flatMap((m) => m.approvals)).toEqual([]);
  expect(journey.merged.flatMap((m) => m.calls).find((c) => c.call_id === call.id)?.fate).toBe('rejected');
  expect(journey.stats.rejections.by_kind).toEqual([{ key: 'plan', count: 1 }]);
  expect(journey.stats.rejections.by_tool).toEqual([{ key: 'ExitPlanMode', count: 1 }]);
}

describe('rec claude on the real Claude Code 2.1.330 in plan mode: the plan approval dialog', () => {
  it('1 (Yes, and switch to default) approves the plan for the session; Claude Code leaves plan mode', async () => {
    const { s, call, journey, idleScreen } = await run('plan-approve');
    expect(idleScreen).toMatch(/⏸ manual mode on/);
    expect(call.input).toEqual({ plan: PLAN_TEXT });
    expect(call.result?.content).toBe(PLAN_APPROVED);
    expect(call.result?.line.permissionDecision).toMatchObject({ decision: 'accept', grantScope: 'session' });
    expect(s.rows().map(view)).toEqual([promptRow('plan', call), approvalRow('plan', call, { trigger: 'digit', option_label: YES, scope: 'session' })]);
    expect(s.rows()[0]!.prompt).toMatchObject({ title: 'Exit plan mode?' });
    expect(journey.merged.flatMap((m) => m.approvals)).toEqual([expect.objectContaining({ call_id: call.id, trigger: 'digit', option_label: YES, scope: 'session' })]);
    expect(journey.merged.flatMap((m) => m.rejections)).toEqual([]);
    expect(journey.merged.flatMap((m) => m.calls).find((c) => c.call_id === call.id)?.fate).toBe('ran');
    expect(journey.stats.rejections.total).toBe(0);
    expect(journey.stats.approvals).toBe(1);
  }, TEST_TIMEOUT_MS);

  it('2 (No) refuses the plan: a rejection of kind plan keyed by the ExitPlanMode call; plan mode stays on', async () => {
    const { s, call, journey, idleScreen } = await run('plan-reject-digit');
    expect(call.result?.content).toBe(REJECT_STOP);
    expect(call.result?.line).toMatchObject({ toolUseResult: 'User rejected tool use', toolDenialKind: 'user-rejected', toolDenialBeforeRun: true });
    expect(idleScreen).toMatch(/⏸ plan mode on/);
    expect(s.rows().map(view)).toEqual([promptRow('plan', call), rejectionRow('plan', call, { trigger: 'digit', option_label: 'No' })]);
    expectRefusedPlan(journey, call, 'digit');
  }, TEST_TIMEOUT_MS);

  it('Esc refuses the plan with trigger esc and no option (the transcript is the same as for No)', async () => {
    const { s, call, journey } = await run('plan-reject-esc');
    expect(call.result?.content).toBe(REJECT_STOP);
    expect(s.rows().map(view)).toEqual([promptRow('plan', call), rejectionRow('plan', call, { trigger: 'esc', option_label: null })]);
    expectRefusedPlan(journey, call, 'esc');
  }, TEST_TIMEOUT_MS);

  it('Tab on No opens no text field at this dialog: the typed text is kept nowhere, and Enter is a plain No with no reason', async () => {
    const { s, call, journey } = await run('plan-reject-tab-enter');
    expect(call.result?.content).toBe(REJECT_STOP);
    expect(call.result?.line.userFeedback).toBeUndefined();
    const rows = s.rows();
    expect(rows.map(view)).toEqual([promptRow('plan', call), rejectionRow('plan', call, { trigger: 'enter', option_label: 'No' })]);
    expect(JSON.stringify(rows)).not.toContain(PLAN_TYPED);
    expectRefusedPlan(journey, call, 'enter');
  }, TEST_TIMEOUT_MS);

  it('a 60-step plan draws the same dialog; Esc refuses it', async () => {
    const { s, call, journey } = await run('plan-long-reject-esc');
    expect(String((call.input as { plan: string }).plan).split('\n')).toHaveLength(60);
    expect(s.rows().map(view)).toEqual([promptRow('plan', call), rejectionRow('plan', call, { trigger: 'esc', option_label: null })]);
    expectRefusedPlan(journey, call, 'esc');
  }, TEST_TIMEOUT_MS);
});
