// `rec claude --permission-mode auto` on the REAL pinned Claude Code against our mock Messages API,
// whose classifier is scripted (the verdict rides in the turn's own reply: docs/claude-auto-mode.md).
// The mock asks for one Bash call the classifier must judge; it allows it, flags it with an
// explanation, or has no usable verdict. No person decides anything here, so rec must book no
// decision as the user's: an allowed call is at most the reviewer's approval, a flagged one is the
// reviewer's rejection with the classifier's explanation as its reason, all the way to merge and stats.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { expectJourneys, type Journey } from '../../support/journey.js';
import { view, type RowView } from '../../support/claude/expectedRows.js';
import { KEY, SCREEN, settle } from '../../../src/agents/claude/bench/recordedScenarios.js';
import { missingPart, START_TIMEOUT_MS, startRec, waitReady, type RecSession } from '../../support/claude/recSession.js';
import type { TranscriptCall } from '../../support/claude/transcriptCalls.js';
import { AUTO_MODE_COMMAND, AUTO_MODE_FILE } from '../../../src/lab/mock/anthropicMessages/scenarios.js';
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
