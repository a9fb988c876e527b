// `rec codex --approve-for-me` on the REAL pinned Codex: auto-review answers escalated calls, not
// the user (docs/codex-auto-review.md). The mock Responses server plays the reviewer (its `reviewer`
// option): Codex draws no prompt, asks the mock, and runs or refuses the call on its verdict. rec must
// record the reviewer's decisions as the reviewer's (decided_by reviewer, no trigger), never as the
// user's: not a refusal, not the interruption of Codex's circuit breaker after three denials, and not
// a miss. The user's own Esc while a review is shown stays the user's.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { press } from '../../../src/lab/driver.js';
import { KEYS } from '../../../src/lab/keys.js';
import { waitUntil } from '../../../src/lab/pollUntil.js';
import { allowAll, DEFAULT_REVIEW_RATIONALE, type Reviewer } from '../../../src/lab/mock/openaiResponses/reviewer.js';
import { REVIEW3_COMMANDS, REVIEW_COMMAND, REVIEW_FILE } from '../../../src/lab/mock/openaiResponses/scenarios.js';
import { expectJourneys, type Journey } from '../../support/journey.js';
import type { EventRow } from '../../support/sidecarRows.js';
import { AGENT_VERSION } from '../../support/codex/env.js';
import { assertBuilt, startRec, STEP_TIMEOUT_MS, waitReady, type RecSession } from '../../support/codex/recSession.js';
import type { RolloutCall } from '../../support/codex/rolloutCalls.js';

/** Codex's start, one turn with up to three reviews, the quit and rec's reconcile, merge and stats. */
const TEST_TIMEOUT_MS = 150_000;
/** Codex's flag that routes approval requests to the reviewer. */
const APPROVE_FOR_ME = '--approve-for-me';
const REVIEWING = /Reviewing approval request/;
const DENIED = (cmd: string) => new RegExp(`✗ Request denied for codex to run ${escapeRe(cmd)}`);
const INTERRUPTED = /■ Conversation interrupted/;
/** What Codex writes as the output of a call its reviewer denied (measured). */
const REVIEWER_REJECTED = 'This action was rejected due to unacceptable risk.';

let session: RecSession | undefined;

beforeAll(() => assertBuilt());

afterEach(async (ctx) => {
  // A failing case prints what rec recorded and what the mock was asked, so the gap shows (before the run's folder goes).
  if (session && ctx.task.result?.state === 'fail') {
    process.stderr.write(`recCodexReviewer: ${ctx.task.name}\n  rows: ${JSON.stringify(session.rows().map(who))}\n`);
    process.stderr.write(`  mock requests: ${JSON.stringify(session.server.requests.map((r) => [r.kind, r.step ?? r.review?.verdict]))}\n`);
  }
  await session?.dispose();
  session = undefined;
});

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The fields that say who decided what: what a failing case prints, so the gap shows. */
function who(r: EventRow) {
  return { type: r.type, kind: r.kind, decided_by: r.decided_by, trigger: r.trigger, call_id: r.call_id, ran: r.ran, reason: r.reason, reason_source: r.reason_source };
}

/** Starts `rec codex --approve-for-me` with the mock's reviewer and types the scenario's message. */
async function start(scn: string, o: { reviewer?: Reviewer; env?: NodeJS.ProcessEnv } = {}): Promise<RecSession> {
  session = await startRec({ args: [APPROVE_FOR_ME], ...(o.reviewer ? { reviewer: o.reviewer } : {}), ...(o.env ? { env: o.env } : {}) });
  const s = session;
  await waitReady(s);
  await s.driver.line(`SCN=${scn} write the files`);
  return s;
}

/** Waits until the session's rollout (not the reviewer's) holds `record`, e.g. the turn's end. */
async function waitRollout(s: RecSession, record: string): Promise<void> {
  await waitUntil(() => (readFileSync(s.rolloutFile(), 'utf8').includes(record) ? true : undefined), { what: `${record} in the rollout`, timeoutMs: STEP_TIMEOUT_MS });
}

/** Quits once the turn is over, then follows the run through merge and stats. */
async function finish(s: RecSession, turnEnd: string): Promise<Journey> {
  await waitRollout(s, turnEnd);
  expect((await s.quit()).exitCode).toBe(0);
  const journeys = await expectJourneys(s.dbPath, s.env.env);
  expect(journeys).toHaveLength(1);
  return journeys[0]!;
}

function reviews(s: RecSession) {
  return s.server.requests.filter((r) => r.kind === 'review');
}

/** No row says the user decided, or that rec missed a decision. */
function expectNoUserDecision(s: RecSession): void {
  const rows = s.rows();
  expect(rows.filter((r) => r.type === 'miss').map(who)).toEqual([]);
  expect(rows.filter((r) => r.type !== 'prompt' && r.decided_by === 'user').map(who)).toEqual([]);
  expect(rows.filter((r) => r.trigger === 'esc' || r.trigger === 'ctrl_c').map(who)).toEqual([]);
}

/** The rejection rec must record for a call the reviewer denied. */
function reviewerRejection(call: RolloutCall) {
  return { type: 'rejection', kind: 'command', decided_by: 'reviewer', trigger: null, call_id: call.callId, ran: 'no', reason: DEFAULT_REVIEW_RATIONALE, reason_source: 'reviewer' };
}

/** Review 1 denied: the screen's ✗ line, the call's Rejected output; then the turn goes on to its end. */
async function deniedOnce(s: RecSession): Promise<{ call: RolloutCall; journey: Journey }> {
  await s.driver.waitScreen(DENIED(REVIEW_COMMAND), 'denied');
  await s.driver.waitScreen(/^• Done\.$/m, 'done');
  const journey = await finish(s, '"type":"task_complete"');
  expect(reviews(s).map((r) => [r.review?.cmd, r.review?.verdict])).toEqual([[REVIEW_COMMAND, 'deny']]);
  expect(s.rec.output).not.toMatch(/Would you like to|Press enter to confirm/);
  expect(existsSync(join(s.env.workDir, REVIEW_FILE))).toBe(false);
  const [call] = s.rolloutCalls();
  expect(call!.output).toContain(REVIEWER_REJECTED);
  expect(call!.output).toContain(DEFAULT_REVIEW_RATIONALE);
  return { call: call!, journey };
}

function expectReviewerRejectionMerged(journey: Journey, call: RolloutCall): void {
  const rejections = journey.merged.flatMap((m) => m.rejections);
  expect(rejections.map((x) => [x.call_id, x.decided_by])).toEqual([[call.callId, 'reviewer']]);
  expect(journey.stats.rejections.by_decided_by).toEqual([{ key: 'reviewer', count: 1 }]);
}

describe(`rec codex ${APPROVE_FOR_ME} on the real Codex ${AGENT_VERSION}: the reviewer decides, not the user`, () => {
  it('the reviewer allows: the command runs, no prompt is drawn, and no decision is the user’s', async () => {
    const s = await start('review1', { reviewer: allowAll });
    await s.server.waitForRequest((r) => r.kind === 'review', STEP_TIMEOUT_MS);
    await s.driver.waitScreen(/• Ran echo reviewed > reviewed\.txt/, 'ran');
    await s.driver.waitScreen(/^• Done\.$/m, 'done');
    const journey = await finish(s, '"type":"task_complete"');
    expect(reviews(s).map((r) => r.review?.verdict)).toEqual(['allow']);
    expect(s.rec.output).not.toMatch(/Would you like to|Press enter to confirm/);
    expect(readFileSync(join(s.env.workDir, REVIEW_FILE), 'utf8')).toBe('reviewed\n');
    expectNoUserDecision(s);
    const [call] = s.rolloutCalls();
    // The reviewer's approval, from its own rollout (the session's shows a call that needed none).
    expect(s.rows().filter((r) => r.type !== 'prompt').map(who)).toEqual([
      { type: 'approval', kind: 'command', decided_by: 'reviewer', trigger: null, call_id: call!.callId, ran: 'yes', reason: null, reason_source: null },
    ]);
    expect(journey.merged.flatMap((m) => m.approvals).map((a) => [a.call_id, a.decided_by])).toEqual([[call!.callId, 'reviewer']]);
    expect(journey.stats.rejections.total).toBe(0);
  }, TEST_TIMEOUT_MS);

  it('the reviewer denies once: a rejection decided by the reviewer, its rationale the reason; the turn goes on', async () => {
    const s = await start('review1');
    const { call, journey } = await deniedOnce(s);
    expectNoUserDecision(s);
    expect(s.rows().filter((r) => r.type !== 'prompt').map(who)).toEqual([reviewerRejection(call)]);
    expectReviewerRejectionMerged(journey, call);
  }, TEST_TIMEOUT_MS);

  it('three denials in a row trip Codex’s circuit breaker: three reviewer rejections, and the cut is not the user’s', async () => {
    const s = await start('review3');
    await s.driver.waitScreen(DENIED(REVIEW3_COMMANDS[2]!), 'third denial');
    await s.driver.waitScreen(INTERRUPTED, 'interrupted');
    const journey = await finish(s, '"type":"turn_aborted"');
    expect(reviews(s).map((r) => [r.review?.cmd, r.review?.verdict])).toEqual(REVIEW3_COMMANDS.map((cmd) => [cmd, 'deny']));
    const calls = s.rolloutCalls();
    expect(calls.map((c) => c.args.cmd)).toEqual(REVIEW3_COMMANDS);
    // Codex writes the third call as the user's cut (docs/codex-auto-review.md §4a), or as the
    // reviewer's refusal when it wrote the output before it cut the turn: no key was pressed.
    expect(calls[2]!.output).toMatch(/aborted by user$|This action was rejected due to unacceptable risk/);
    expectNoUserDecision(s);
    const rows = s.rows().filter((r) => r.type !== 'prompt');
    // The third's rationale comes from the reviewer's rollout when its output is "aborted by user".
    expect(rows.filter((r) => r.type === 'rejection').map(who)).toEqual(calls.map(reviewerRejection));
    // The turn's cut is the system's, on the reviewer's account.
    expect(rows.filter((r) => r.type === 'interruption').map(who)).toEqual([expect.objectContaining({ kind: 'system', decided_by: 'reviewer', trigger: null, call_id: null })]);
    expect(rows.filter((r) => r.type !== 'rejection' && r.type !== 'interruption').map(who)).toEqual([]);
    expect(journey.stats.rejections.by_decided_by).toEqual([{ key: 'reviewer', count: 3 }]);
    expect(journey.stats.interruptions.by_trigger.filter((t) => t.key === 'esc' || t.key === 'ctrl_c')).toEqual([]);
  }, TEST_TIMEOUT_MS);

  it('the user presses Esc while the review is shown: the user’s interruption, no reviewer rejection', async () => {
    const s = await start('review1', { reviewer: () => ({ hang: true }) });
    await s.server.waitForRequest((r) => r.kind === 'review', STEP_TIMEOUT_MS);
    await s.driver.waitScreen(REVIEWING, 'reviewing');
    await press(s.driver, KEYS.esc);
    await s.driver.waitScreen(INTERRUPTED, 'interrupted');
    await finish(s, '"type":"turn_aborted"');
    expect(s.rec.output).not.toMatch(/✗ Request denied/);
    expect(existsSync(join(s.env.workDir, REVIEW_FILE))).toBe(false);
    const [call] = s.rolloutCalls();
    const rows = s.rows().filter((r) => r.type !== 'prompt');
    expect(rows.filter((r) => r.decided_by === 'reviewer' || r.type === 'miss').map(who)).toEqual([]);
    expect(rows.filter((r) => r.type === 'interruption').map(who)).toEqual([expect.objectContaining({ decided_by: 'user', trigger: 'esc' })]);
    expect([null, call!.callId]).toContain(rows.find((r) => r.type === 'interruption')!.call_id);
  }, TEST_TIMEOUT_MS);

  it('with REC_CODEX_HOOKS=1 the reviewer still decides: rec’s hooks answer no PermissionRequest', async () => {
    const s = await start('review1', { env: { REC_CODEX_HOOKS: '1' } });
    const { call, journey } = await deniedOnce(s);
    expectNoUserDecision(s);
    expect(s.rows().filter((r) => r.type !== 'prompt').map(who)).toEqual([reviewerRejection(call)]);
    expectReviewerRejectionMerged(journey, call);
  }, TEST_TIMEOUT_MS);
});
