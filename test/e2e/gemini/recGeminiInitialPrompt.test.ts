// `rec gemini --prompt-interactive "…"` on the REAL pinned Gemini CLI: the first message is Gemini's
// argument, never typed, and its first dialog opens before the user pressed any key. The decision
// there is recorded like one after a typed message: a prompt row and an approval with the call id.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectJourneys } from '../../support/journey.js';
import { approvalRow, expectDecisionsLinked, OPTION, promptRow, view } from '../../support/gemini/expectedRows.js';
import { AGENT_VERSION } from '../../support/gemini/env.js';
import { SCENARIOS } from '../../../src/agents/gemini/bench/recordedScenarios.js';
import { assertBuilt, startRec, STEP_TIMEOUT_MS, type RecSession } from '../../support/gemini/recSession.js';
import type { SessionToolCall } from '../../support/gemini/sessionSnapshots.js';

/** Gemini's start (10-20 s), one model turn, the quit; generous for 2 loaded cores. */
const TEST_TIMEOUT_MS = 240_000;

let session: RecSession | undefined;

beforeAll(() => assertBuilt());

afterEach(async () => {
  await session?.dispose();
  session = undefined;
});

describe(`rec gemini --prompt-interactive on the real Gemini CLI ${AGENT_VERSION}`, () => {
  it('Enter at the first dialog approves once: prompt and approval rows with the call id, and merge sees the approval', async () => {
    const scenario = SCENARIOS.find((x) => x.name === 'shell-approve-enter-initial')!;
    const s = (session = await startRec({ args: scenario.args! }));
    await scenario.run(s.driver);
    const [call] = (await s.snapshots.waitForToolCalls(1, STEP_TIMEOUT_MS)) as [SessionToolCall];
    expect(call.status).toBe('success');
    expect((await s.quit()).exitCode).toBe(0);
    const rows = s.rows();
    expect(rows.map(view)).toEqual([
      promptRow('command', call),
      approvalRow('command', call, { trigger: 'enter', option_label: OPTION.once, scope: 'once', ran: 'yes' }),
    ]);
    expectDecisionsLinked(rows);
    await expectJourneys(s.dbPath, s.env.env);
  }, TEST_TIMEOUT_MS);
});
