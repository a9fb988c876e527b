// `rec claude --permission-mode auto` on the REAL pinned Claude Code against our mock Messages API,
// whose classifier is scripted (the verdict rides in the turn's own reply: docs/claude-auto-mode.md).
// The mock asks for one Bash call the classifier must judge; it allows it, flags it with an
// explanation, or has no usable verdict. No person decides anything there, so rec must book no
// decision as the user's: an allowed call is at most the reviewer's approval, a flagged one is the
// reviewer's rejection with the classifier's explanation as its reason, all the way to merge and stats.
// Where auto mode puts the call to the user (no verdict at all: the "can't check" dialog and its
// unnumbered No/Yes prompt; three calls flagged in a row: the breaker's prompt), the user's answer
// is the user's, with the key as trigger (the key scripts: autoModeScenarios.ts).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { expectJourneys, type Journey } from '../../support/journey.js';
import { approvalRow, rejectionRow, view, type RowView } from '../../support/claude/expectedRows.js';
import { KEY, SCREEN, settle } from '../../../src/agents/claude/bench/recordedScenarios.js';
import { missingPart, START_TIMEOUT_MS, startRec, waitReady, type RecSession } from '../../support/claude/recSession.js';
import type { TranscriptCall } from '../../support/claude/transcriptCalls.js';
import { AUTO_MODE_BREAKER_FILES, AUTO_MODE_COMMAND, AUTO_MODE_FILE } from '../../../src/lab/mock/anthropicMessages/scenarios.js';
import { AUTO_MODE_SCENARIOS, BREAKER_EXPLANATION } from '../../support/claude/autoModeScenarios.js';
import type { ClassifierVerdict } from '../../../src/lab/mock/anthropicMessages/server.js';

/** Claude Code's start, two model turns, the quit and rec's reconcile, then merge and stats: generous for 2 loaded cores. */
const TEST_TIMEOUT_MS = 180_000;

const missing = missingPart();
if (missing) throw new Error(`the Claude Code e2e suite cannot run: ${missing}`);

const EXPLANATION = 'MOCK-CLASSIFIER: writing cls.txt with node -e was not asked for by the user.';

/** Screen texts of 2.1.332 in auto mode (docs/claude-auto-mode.md §1, §3, §4); after `⎿` come a space and a no-break space. */
const AUTO = {
  /** The idle footer after a turn: no "esc to interrupt" on it. */
  idle: /^❯\u00a0[\s\S]*^ +⏵⏵ auto mode on(?!.*esc to interrupt).*$/m,
  allowed: /⎿\s+Allowed by auto mode/,
  blocked: /⎿\s+Blocked by auto mode[\s\S]*Auto mode: MOCK-CLASSIFIER/,
  noVerdict: /⎿\s+Not run · auto mode's check had no usable answer/,
} as const;

let session: RecSession | undefined;

afterEach(async () => {
  await session?.dispose();
  session = undefined;
});

interface AutoRun {
  readonly s: RecSession;
  readonly call: TranscriptCall;
  /** rec's rows about the call, prompts and misses included. */
  readonly rows: readonly RowView[];
  readonly journey: Journey;
}

/** One `SCENARIO automode` turn with the classifier's verdict, the screen it leads to, the quit, and merge and stats. */
async function runAuto(verdict: ClassifierVerdict, outcome: RegExp, args: readonly string[] = ['--permission-mode', 'auto']): Promise<AutoRun> {
  session = await startRec({ args, classifier: () => verdict });
  const s = session;
  await waitReady(s);
  await s.proc.expectScreen(/auto mode on/, START_TIMEOUT_MS);
  await s.driver.line('SCENARIO automode');
  await s.driver.waitScreen(outcome);
  await s.driver.waitScreen(SCREEN.final);
  await quitAutoMode(s);
  expect((await s.proc.expectExit(60_000)).exitCode).toBe(0);
  const calls = s.transcript().calls.filter((c) => c.name === 'Bash');
  expect(calls).toHaveLength(1);
  const call = calls[0]!;
  expect(call.input).toMatchObject({ command: AUTO_MODE_COMMAND });
  // The mock was asked: the turn carried safeguards, and the verdict went out for this very call.
  expect(s.server.requests.some((r) => r.kind === 'turn' && r.safeguards === true)).toBe(true);
  expect(s.server.verdicts.map((v) => [v.toolUseId, v.verdict])).toEqual([[call.id, verdict]]);
  const rows = s.rows().filter((r) => r.call_id === call.id || r.type === 'miss').map((r) => view(r) as RowView);
  const journeys = await expectJourneys(s.dbPath, s.env.env);
  expect(journeys).toHaveLength(1);
  return { s, call, rows, journey: journeys[0]! };
}

/** Ctrl+C twice at the idle prompt, as quitClaude does, but at auto mode's footer. */
async function quitAutoMode(s: RecSession): Promise<void> {
  await s.driver.waitScreen(AUTO.idle);
  await settle();
  s.driver.send(KEY.ctrlC);
  await s.driver.waitScreen(SCREEN.pressAgain);
  s.driver.send(KEY.ctrlC);
}

/** The reviewer's rejection of a flagged call, as rec must book it. */
function reviewerRejection(call: TranscriptCall): Partial<RowView> {
  return { type: 'rejection', call_id: call.id, tool_name: 'Bash', decided_by: 'reviewer', trigger: null, ran: 'no', reason: EXPLANATION, reason_source: 'reviewer' };
}

function expectReviewerRejection(r: AutoRun): void {
  expect(existsSync(join(r.s.env.workDir, AUTO_MODE_FILE))).toBe(false);
  expect(r.call.result?.line.toolDenialKind).toBe('automode-blocked');
  expect(r.rows.filter((row) => row.type !== 'prompt')).toEqual([expect.objectContaining(reviewerRejection(r.call))]);
  const rejected = r.journey.merged.flatMap((m) => m.rejections).filter((x) => x.call_id === r.call.id);
  expect(rejected.map((x) => ({ decided_by: x.decided_by, reason: x.reason }))).toEqual([{ decided_by: 'reviewer', reason: EXPLANATION }]);
  expect(r.journey.stats.rejections.by_decided_by).toContainEqual({ key: 'reviewer', count: 1 });
}

describe('rec claude --permission-mode auto on the real Claude Code 2.1.332: the classifier decides, never the user', () => {
  it('classifier allows: the command runs; no user decision, no miss; the approval is the reviewer’s', async () => {
    const r = await runAuto({ outcome: 'not_flagged' }, AUTO.allowed);
    expect(existsSync(join(r.s.env.workDir, AUTO_MODE_FILE))).toBe(true);
    expect(r.call.result?.isError).toBe(false);
    expect(r.rows.filter((row) => row.decided_by === 'user' || row.type === 'miss' || row.type === 'prompt')).toEqual([]);
    expect(r.rows.filter((row) => row.type === 'approval')).toEqual([expect.objectContaining({ call_id: r.call.id, decided_by: 'reviewer', trigger: null, ran: 'yes' })]);
    expect(r.rows.filter((row) => row.type === 'rejection' || row.type === 'interruption')).toEqual([]);
    // Merge reads the session file too: an approval there is the classifier's, never config's or the user's.
    const approvals = r.journey.merged.flatMap((m) => m.approvals).filter((x) => x.call_id === r.call.id);
    expect(approvals.map((x) => ({ decided_by: x.decided_by, trigger: x.trigger }))).toEqual([{ decided_by: 'reviewer', trigger: null }]);
  }, TEST_TIMEOUT_MS);

  it('classifier flags with an explanation: the reviewer’s rejection, the explanation its reason, through merge and stats', async () => {
    const r = await runAuto({ outcome: 'flagged', explanation: EXPLANATION }, AUTO.blocked);
    expectReviewerRejection(r);
  }, TEST_TIMEOUT_MS);

  it('classifier unavailable for the call: refused with no usable answer, and no decision is the user’s', async () => {
    const r = await runAuto('unavailable', AUTO.noVerdict);
    expect(existsSync(join(r.s.env.workDir, AUTO_MODE_FILE))).toBe(false);
    expect(r.call.result?.line.toolDenialKind).toBe('automode-unavailable');
    expect(r.rows.filter((row) => row.decided_by === 'user' || row.type === 'prompt')).toEqual([]);
    // The classifier's failure is a refusal of the reviewer's: not run, no trigger.
    expect(r.rows.filter((x) => x.type === 'rejection')).toEqual([expect.objectContaining({ call_id: r.call.id, decided_by: 'reviewer', trigger: null, ran: 'no' })]);
    expect(r.rows.filter((row) => row.type === 'approval' && row.ran === 'yes')).toEqual([]);
    const merged = r.journey.merged.flatMap((m) => [...m.rejections, ...m.approvals]).filter((x) => x.call_id === r.call.id);
    expect(merged.filter((x) => x.decided_by === 'user')).toEqual([]);
  }, TEST_TIMEOUT_MS);

  // rec's Claude hooks are always on (launch.ts: no switch), so the cases above ran with them. Here the
  // user passes a --settings of their own with a silent PermissionDenied hook: rec merges its hooks into
  // it, both fire, and the flagged call is still the reviewer's rejection.
  it('classifier flags, with the user’s own --settings hooks merged with rec’s: still the reviewer’s rejection', async () => {
    // The hook runs in Claude Code's environment: $HOME is the run's isolated home, removed with it.
    const script = "let s = ''; process.stdin.on('data', (c) => (s += c)).on('end', () => require('fs').appendFileSync(process.argv[1], s.trim() + '\\n'))";
    const logger = `${JSON.stringify(process.execPath)} -e ${JSON.stringify(script)} "$HOME/permission-denied.jsonl"`;
    const userSettings = { hooks: { PermissionDenied: [{ hooks: [{ type: 'command', command: logger, timeout: 10 }] }] } };
    const r = await runAuto({ outcome: 'flagged', explanation: EXPLANATION }, AUTO.blocked, ['--permission-mode', 'auto', '--settings', JSON.stringify(userSettings)]);
    const fired = readFileSync(join(r.s.env.home, 'permission-denied.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as unknown);
    expect(fired).toEqual([expect.objectContaining({ tool_use_id: r.call.id, reason: EXPLANATION, permission_mode: 'auto' })]);
    expectReviewerRejection(r);
  }, TEST_TIMEOUT_MS);
});

interface UserRun {
  readonly s: RecSession;
  /** The run's Bash calls, in order. */
  readonly calls: readonly TranscriptCall[];
  /** rec's rows, prompts and misses included. */
  readonly rows: readonly RowView[];
  /** The `prompt` rows' prompt field. */
  readonly prompts: readonly unknown[];
  readonly journey: Journey;
}

/** One of auto mode's scenarios that put the call to the user (autoModeScenarios.ts) under `rec claude`, the quit, merge and stats. */
async function runAtUser(name: string): Promise<UserRun> {
  const scenario = AUTO_MODE_SCENARIOS.find((x) => x.name === name);
  if (!scenario) throw new Error(`no scenario ${name}`);
  session = await startRec({ args: scenario.args ?? [], classifier: scenario.classifier });
  const s = session;
  await waitReady(s);
  await scenario.run(s.driver);
  await scenario.quit!(s.driver);
  expect((await s.proc.expectExit(60_000)).exitCode).toBe(0);
  const calls = s.transcript().calls.filter((c) => c.name === 'Bash');
  const journeys = await expectJourneys(s.dbPath, s.env.env);
  expect(journeys).toHaveLength(1);
  return { s, calls, rows: s.rows().map((r) => view(r) as RowView), prompts: s.rows().filter((r) => r.type === 'prompt').map((r) => r.prompt), journey: journeys[0]! };
}

/** The one call the "can't check" dialog held, with no verdict sent for it. */
function heldCall(r: UserRun): TranscriptCall {
  expect(r.calls).toHaveLength(1);
  const call = r.calls[0]!;
  expect(call.input).toMatchObject({ command: AUTO_MODE_COMMAND });
  expect(r.s.server.verdicts.map((v) => [v.toolUseId, v.verdict])).toEqual([[call.id, 'omit']]);
  return call;
}

/** The prompt rec saw: a Bash prompt of auto mode's, with why it asked. */
function expectAutoModePrompt(r: UserRun, cause: 'cannot_check' | 'breaker', labels: readonly string[]): void {
  expect(r.prompts).toEqual([expect.objectContaining({ title: 'Bash command', details: expect.objectContaining({ auto_mode: cause }), options: labels.map((label) => ({ label })) })]);
}

const FALLBACK_OPTIONS = ['No', 'Yes'];

describe('rec claude --permission-mode auto on the real Claude Code 2.1.332: where auto mode puts the call to the user, the answer is the user’s', () => {
  it('no verdict: Enter at the "can’t check" dialog records nothing; at the unnumbered prompt 1 picks nothing, Down, Enter: the user’s approval', async () => {
    const r = await runAtUser('automode-cannot-check-yes');
    const call = heldCall(r);
    expect(existsSync(join(r.s.env.workDir, AUTO_MODE_FILE))).toBe(true);
    expect(call.result?.line.permissionDecision).toMatchObject({ decision: 'accept', source: 'user_temporary' });
    expectAutoModePrompt(r, 'cannot_check', FALLBACK_OPTIONS);
    expect(r.rows.filter((row) => row.type !== 'prompt')).toEqual([approvalRow('command', call, { trigger: 'enter', option_label: 'Yes', scope: 'once' })]);
    const approvals = r.journey.merged.flatMap((m) => m.approvals);
    expect(approvals.map((x) => [x.call_id, x.decided_by, x.trigger])).toEqual([[call.id, 'user', 'enter']]);
    expect(r.journey.stats.approvals).toBe(1);
    expect(r.journey.stats.rejections.total).toBe(0);
    expect(r.journey.stats.misses.total).toBe(0);
  }, TEST_TIMEOUT_MS);

  it('no verdict: Enter at the dialog, Enter on the highlighted No: the user’s rejection, through merge and stats', async () => {
    const r = await runAtUser('automode-cannot-check-no');
    const call = heldCall(r);
    expect(existsSync(join(r.s.env.workDir, AUTO_MODE_FILE))).toBe(false);
    expectAutoModePrompt(r, 'cannot_check', FALLBACK_OPTIONS);
    expect(r.rows.filter((row) => row.type !== 'prompt')).toEqual([rejectionRow('command', call, { trigger: 'enter', option_label: 'No' })]);
    const rejections = r.journey.merged.flatMap((m) => m.rejections);
    expect(rejections.map((x) => [x.call_id, x.decided_by, x.trigger, x.option_label])).toEqual([[call.id, 'user', 'enter', 'No']]);
    expect(r.journey.stats.rejections.by_decided_by).toEqual([{ key: 'user', count: 1 }]);
    expect(r.journey.stats.misses.total).toBe(0);
  }, TEST_TIMEOUT_MS);

  it('no verdict: Enter at the dialog, Esc at the prompt: the user’s rejection with the Esc, no option', async () => {
    const r = await runAtUser('automode-cannot-check-esc');
    const call = heldCall(r);
    expectAutoModePrompt(r, 'cannot_check', FALLBACK_OPTIONS);
    expect(r.rows.filter((row) => row.type !== 'prompt')).toEqual([rejectionRow('command', call, { trigger: 'esc', option_label: null })]);
    expect(r.journey.merged.flatMap((m) => m.rejections).map((x) => [x.call_id, x.decided_by, x.trigger])).toEqual([[call.id, 'user', 'esc']]);
    expect(r.journey.stats.rejections.by_decided_by).toEqual([{ key: 'user', count: 1 }]);
    expect(r.journey.stats.misses.total).toBe(0);
  }, TEST_TIMEOUT_MS);

  it('no verdict: Esc at the dialog stops the turn: the user’s interruption of kind prompt, the held call never ran; no rejection, no miss', async () => {
    const r = await runAtUser('automode-dialog-esc');
    const call = heldCall(r);
    expect(existsSync(join(r.s.env.workDir, AUTO_MODE_FILE))).toBe(false);
    expect(r.prompts).toEqual([]);
    expect(r.rows).toEqual([
      expect.objectContaining({ type: 'interruption', kind: 'prompt', call_id: call.id, tool_name: 'Bash', decided_by: 'user', trigger: 'esc', option_label: null, ran: 'no' }),
    ]);
    const interruptions = r.journey.merged.flatMap((m) => m.interruptions);
    expect(interruptions.map((x) => [x.call_id, x.kind, x.trigger])).toEqual([[call.id, 'prompt', 'esc']]);
    expect(r.journey.merged.flatMap((m) => m.calls).find((c) => c.call_id === call.id)?.fate).toBe('interrupted');
    expect(r.journey.stats.rejections.total).toBe(0);
    expect(r.journey.stats.interruptions.by_kind).toEqual([{ key: 'prompt', count: 1 }]);
    expect(r.journey.stats.misses.total).toBe(0);
  }, TEST_TIMEOUT_MS);

  it('three calls flagged in a row: the reviewer’s two refusals, then the breaker’s prompt answered 1: the user’s approval', async () => {
    const r = await runAtUser('automode-breaker-yes');
    expect(r.calls).toHaveLength(3);
    const [first, second, third] = r.calls as [TranscriptCall, TranscriptCall, TranscriptCall];
    expect(existsSync(join(r.s.env.workDir, AUTO_MODE_BREAKER_FILES[2]))).toBe(true);
    expect(third.result?.line.permissionDecision).toMatchObject({ decision: 'accept', source: 'user_temporary', reasonCode: 'classifier:auto-mode' });
    expectAutoModePrompt(r, 'breaker', ['Yes', 'Yes, and don’t ask again for: node *', 'No']);
    const reviewer = (c: TranscriptCall) => expect.objectContaining({ type: 'rejection', call_id: c.id, decided_by: 'reviewer', trigger: null, reason: BREAKER_EXPLANATION, ran: 'no' });
    expect(r.rows.filter((row) => row.type !== 'prompt')).toEqual([reviewer(first), reviewer(second), approvalRow('command', third, { trigger: 'digit', option_label: 'Yes', scope: 'once' })]);
    expect(r.journey.merged.flatMap((m) => m.approvals).map((x) => [x.call_id, x.decided_by, x.trigger])).toEqual([[third.id, 'user', 'digit']]);
    expect(r.journey.stats.rejections.by_decided_by).toEqual([{ key: 'reviewer', count: 2 }]);
    expect(r.journey.stats.misses.total).toBe(0);
  }, TEST_TIMEOUT_MS);

  it('three calls flagged in a row: the breaker’s prompt answered Esc: the user’s rejection beside the reviewer’s two', async () => {
    const r = await runAtUser('automode-breaker-esc');
    expect(r.calls).toHaveLength(3);
    const third = r.calls[2]!;
    expect(existsSync(join(r.s.env.workDir, AUTO_MODE_BREAKER_FILES[2]))).toBe(false);
    expectAutoModePrompt(r, 'breaker', ['Yes', 'Yes, and don’t ask again for: node *', 'No']);
    expect(r.rows.filter((row) => row.type !== 'prompt' && row.decided_by === 'user')).toEqual([rejectionRow('command', third, { trigger: 'esc', option_label: null })]);
    expect(r.journey.stats.rejections.by_decided_by).toEqual([
      { key: 'reviewer', count: 2 },
      { key: 'user', count: 1 },
    ]);
    expect(r.journey.stats.misses.total).toBe(0);
  }, TEST_TIMEOUT_MS);
});
