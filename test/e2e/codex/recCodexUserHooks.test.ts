// `rec codex` on the REAL pinned Codex with a hook of the user's own in config.toml that answers
// Codex's approval requests (PermissionRequest; docs/codex-auto-review.md §6): Codex draws no prompt
// and never asks its reviewer. A deny shows `• Blocked by hook` / `└ <message>` and writes the call's
// output as `Rejected("<message>")`, which a rule's refusal shares: rec must record it as the hook's
// decision (decided_by hook, trigger hook, the message its reason, not run), never the user's and
// never a miss, with the user's flags as given and with rec's own hooks on beside the user's; and
// `rec merge` and `rec stats` must show it so. An allow leaves no trace rec could tell from a call
// that needed no approval: nothing is recorded.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../../../src/lab/pollUntil.js';
import { allowAll } from '../../../src/lab/mock/openaiResponses/reviewer.js';
import { REVIEW_COMMAND, REVIEW_FILE } from '../../../src/lab/mock/openaiResponses/scenarios.js';
import { expectJourneys, type Journey } from '../../support/journey.js';
import type { EventRow } from '../../support/sidecarRows.js';
import { AGENT_VERSION, userHookCommand, userHookToml } from '../../support/codex/env.js';
import { assertBuilt, startRec, STEP_TIMEOUT_MS, waitReady, type RecSession } from '../../support/codex/recSession.js';
import type { RolloutCall } from '../../support/codex/rolloutCalls.js';

/** Codex's start, one turn, the quit and rec's reconcile, merge and stats. */
const TEST_TIMEOUT_MS = 150_000;
const MESSAGE = 'USER-HOOK: writes need a ticket';
const BLOCKED = new RegExp(`^• Blocked by hook\\n {2}└ ${MESSAGE}$`, 'm');
const DONE = /^• Done\.$/m;
const PROMPT = /Would you like to|Press enter to confirm/;

let session: RecSession | undefined;

beforeAll(() => assertBuilt());

afterEach(async (ctx) => {
  // A failing case prints what rec recorded, so the gap shows (before the run's folder goes).
  if (session && ctx.task.result?.state === 'fail') process.stderr.write(`recCodexUserHooks: ${ctx.task.name}\n  rows: ${JSON.stringify(session.rows().map(who))}\n`);
  await session?.dispose();
  session = undefined;
});

/** The fields that say who decided what. */
function who(r: EventRow) {
  return { type: r.type, kind: r.kind, decided_by: r.decided_by, trigger: r.trigger, call_id: r.call_id, ran: r.ran, reason: r.reason, reason_source: r.reason_source };
}

interface Setup {
  /** `--approve-for-me`: Codex's reviewer would answer, were the hook silent. */
  readonly autoReview?: boolean;
  /** REC_CODEX_HOOKS=1: rec's own (silent) hooks run beside the user's. */
  readonly recHooks?: boolean;
}

/** Starts `rec codex` with the user's PermissionRequest hook answering as `answer` says, and sends the one-call turn. */
async function start(answer: readonly string[], o: Setup): Promise<RecSession> {
  session = await startRec({
    args: o.autoReview ? ['--approve-for-me'] : [],
    // Were the reviewer asked, it would allow: a refusal can then only be the hook's.
    reviewer: allowAll,
    env: { REC_CODEX_HOOKS: o.recHooks ? '1' : '0' },
    prepare: (env) => {
      const config = join(env.codexHome, 'config.toml');
      appendFileSync(config, userHookToml(config, 'PermissionRequest', userHookCommand(...answer)));
    },
  });
  const s = session;
  await waitReady(s);
  await s.driver.line('SCN=review1 write the files');
  return s;
}

/** Quits once the session's rollout shows the turn over, then follows the run through merge and stats. */
async function finish(s: RecSession): Promise<Journey> {
  await s.driver.waitScreen(DONE, 'done');
  await waitUntil(() => (readFileSync(s.rolloutFile(), 'utf8').includes('"type":"task_complete"') ? true : undefined), { what: 'the turn’s end in the rollout', timeoutMs: STEP_TIMEOUT_MS });
  expect((await s.quit()).exitCode).toBe(0);
  const journeys = await expectJourneys(s.dbPath, s.env.env);
  expect(journeys).toHaveLength(1);
  return journeys[0]!;
}

/** No prompt was drawn, the reviewer was never asked, and no row is the user's or a miss. */
function expectNobodyAsked(s: RecSession): void {
  expect(s.rec.output).not.toMatch(PROMPT);
  expect(s.server.requests.filter((r) => r.kind === 'review')).toEqual([]);
  const rows = s.rows();
  expect(rows.filter((r) => r.type === 'miss' || r.type === 'prompt' || r.decided_by === 'user').map(who)).toEqual([]);
}

function hookRejection(call: RolloutCall) {
  return { type: 'rejection', kind: 'command', decided_by: 'hook', trigger: 'hook', call_id: call.callId, ran: 'no', reason: MESSAGE, reason_source: 'hook' };
}

describe(`rec codex on the real Codex ${AGENT_VERSION}: a hook of the user's answers the approval request`, () => {
  const DENY_SETUPS: ReadonlyArray<readonly [string, Setup]> = [
    ['the user answers escalations', {}],
    ['the user answers escalations, rec’s own hooks on', { recHooks: true }],
    ['auto-review on', { autoReview: true }],
    ['auto-review on, rec’s own hooks on', { autoReview: true, recHooks: true }],
  ];

  it.each(DENY_SETUPS)('%s: the hook denies; a rejection decided by the hook, its message the reason, in merge and stats too', async (_label, setup) => {
    const s = await start(['deny', MESSAGE], setup);
    await s.driver.waitScreen(BLOCKED, 'blocked');
    const journey = await finish(s);
    expectNobodyAsked(s);
    expect(existsSync(join(s.env.workDir, REVIEW_FILE))).toBe(false);
    const [call] = s.rolloutCalls();
    expect(call!.args['cmd']).toBe(REVIEW_COMMAND);
    expect(call!.output).toBe(`exec_command failed: CreateProcess { message: "Rejected(\\"${MESSAGE}\\")" }`);
    expect(s.rows().map(who)).toEqual([hookRejection(call!)]);
    const rejections = journey.merged.flatMap((m) => m.rejections);
    expect(rejections.map((r) => [r.call_id, r.decided_by, r.trigger, r.reason, r.reason_source, r.ran])).toEqual([[call!.callId, 'hook', 'hook', MESSAGE, 'hook', 'no']]);
    expect(journey.stats.rejections.by_decided_by).toEqual([{ key: 'hook', count: 1 }]);
  }, TEST_TIMEOUT_MS);

  it('the hook allows, rec’s own hooks on: the call runs with no prompt, and nothing tells who allowed it, so nothing is recorded', async () => {
    const s = await start(['allow'], { recHooks: true });
    await s.driver.waitScreen(/^• Ran echo reviewed > reviewed\.txt/m, 'ran');
    const journey = await finish(s);
    expectNobodyAsked(s);
    expect(readFileSync(join(s.env.workDir, REVIEW_FILE), 'utf8')).toBe('reviewed\n');
    expect(s.rows().map(who)).toEqual([]);
    expect(journey.merged.flatMap((m) => m.calls).map((c) => c.fate)).toEqual(['ran']);
    expect(journey.merged.flatMap((m) => m.approvals)).toEqual([]);
    expect(journey.stats.rejections.total).toBe(0);
  }, TEST_TIMEOUT_MS);
});
