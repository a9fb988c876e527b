// `rec codex` on the REAL pinned Codex with a `forbidden` prefix_rule of the user's
// ($CODEX_HOME/rules/default.rules; docs/codex-auto-review.md §6a): Codex refuses each matching call
// before it runs, draws no prompt and nothing of its own, and writes the call's output as
// `Rejected("`<command>` rejected: policy forbids commands starting with `npm test`")`, words a
// hook's own message could share. rec must record each as the rule's rejection (decided_by rule,
// trigger rule, the rule's text kept), never the user's and never a miss; and `rec merge` and
// `rec stats` must show it so.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../../../src/lab/pollUntil.js';
import { NPM_TEST_CALLS } from '../../../src/lab/mock/openaiResponses/scenarios.js';
import { expectJourneys } from '../../support/journey.js';
import type { EventRow } from '../../support/sidecarRows.js';
import { AGENT_VERSION } from '../../support/codex/env.js';
import { assertBuilt, startRec, STEP_TIMEOUT_MS, waitReady, type RecSession } from '../../support/codex/recSession.js';

/** Codex's start, three refused calls, the quit and rec's reconcile, merge and stats. */
const TEST_TIMEOUT_MS = 150_000;
const RULE = 'prefix_rule(pattern=["npm", "test"], decision="forbidden")';
const PROMPT = /Would you like to|Press enter to confirm/;

let session: RecSession | undefined;

beforeAll(() => assertBuilt());

afterEach(async (ctx) => {
  if (session && ctx.task.result?.state === 'fail') process.stderr.write(`recCodexRuleRefusal: ${ctx.task.name}\n  rows: ${JSON.stringify(session.rows().map(who))}\n`);
  await session?.dispose();
  session = undefined;
});

function who(r: EventRow) {
  return { type: r.type, kind: r.kind, decided_by: r.decided_by, trigger: r.trigger, call_id: r.call_id, ran: r.ran, reason_source: r.reason_source };
}

describe(`rec codex on the real Codex ${AGENT_VERSION}: a rule of the user's forbids the command`, () => {
  it("each refused call is the rule's rejection, with the rule's text, in merge and stats too; no prompt, no miss", async () => {
    session = await startRec({
      prepare: (env) => {
        mkdirSync(join(env.codexHome, 'rules'), { recursive: true });
        writeFileSync(join(env.codexHome, 'rules', 'default.rules'), `${RULE}\n`);
      },
    });
    const s = session;
    await waitReady(s);
    await s.driver.line('SCN=npmtest run the tests');
    // No screen of Codex's own marks the refusals: the rollout's end of the turn does (once it exists).
    const turnOver = () => s.env.rolloutFiles().length > 0 && readFileSync(s.rolloutFile(), 'utf8').includes('"type":"task_complete"');
    await waitUntil(() => (turnOver() ? true : undefined), { what: 'the turn’s end in the rollout', timeoutMs: STEP_TIMEOUT_MS });
    expect((await s.quit()).exitCode).toBe(0);
    expect(s.rec.output).not.toMatch(PROMPT);

    const calls = s.rolloutCalls();
    expect(calls.map((c) => c.args['cmd'])).toEqual(NPM_TEST_CALLS.map((c) => c.args['cmd']));
    for (const c of calls) expect(c.output).toMatch(/^exec_command failed: CreateProcess \{ message: "Rejected\(\\"`.*` rejected: policy forbids commands starting with `npm test`\\"\)" \}$/);
    const rows = s.rows();
    expect(rows.filter((r) => r.type === 'miss' || r.type === 'prompt' || r.decided_by === 'user').map(who)).toEqual([]);
    expect(rows.map(who)).toEqual(calls.map((c) => ({ type: 'rejection', kind: 'command', decided_by: 'rule', trigger: 'rule', call_id: c.callId, ran: 'no', reason_source: 'none' })));
    for (const r of rows) expect(r.native).toMatchObject({ permission_rule: RULE });

    const journeys = await expectJourneys(s.dbPath, s.env.env);
    expect(journeys).toHaveLength(1);
    const rejections = journeys[0]!.merged.flatMap((m) => m.rejections);
    expect(rejections.map((r) => [r.call_id, r.decided_by, r.trigger, r.ran])).toEqual(calls.map((c) => [c.callId, 'rule', 'rule', 'no']));
    expect(journeys[0]!.stats.rejections.by_decided_by).toEqual([{ key: 'rule', count: 3 }]);
  }, TEST_TIMEOUT_MS);
});
