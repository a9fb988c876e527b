// The opt-in hook wiring (REC_CODEX_HOOKS=1) on the real pinned Codex: rec's hooks are passed for
// this run only (as -c overrides, never written to the user's config), Codex's "Hooks need review"
// trust screen does not appear, and the hooks reach the run: PostToolUse proves the call ran, and
// the rollout is the hooks' transcript_path. (Codex runs embedded with -c; see docs/codex.md.)
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Database } from '../../../src/store/sqliteDriver.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, startRec, waitReady, type RecSession } from '../../support/codex/recSession.js';
import { SCENARIOS } from '../../../src/agents/codex/bench/recordedScenarios.js';
import { expectJourneys } from '../../support/journey.js';
import { waitUntil } from '../../../src/lab/pollUntil.js';
import { AGENT_VERSION } from '../../support/codex/env.js';

const TEST_TIMEOUT_MS = 120_000;
let session: RecSession | undefined;

beforeAll(() => assertBuilt());
afterEach(async () => {
  await session?.dispose();
  session = undefined;
});

describe(`rec codex with REC_CODEX_HOOKS=1 on the real Codex ${AGENT_VERSION}`, () => {
  it('wires its hooks for this run only, skips the trust screen, and learns from them', async () => {
    const scenario = SCENARIOS.find((s) => s.name === 'shell-approve-y')!;
    session = await startRec({ env: { REC_CODEX_HOOKS: '1' } });
    await waitReady(session);
    await scenario.run(session.driver);
    // Quit once the turn is over in the rollout: with hooks Codex runs its Stop hook after the
    // answer is drawn, and a quit during it leaves a turn_aborted that no key of the user's caused.
    const s = session;
    await waitUntil(() => (readFileSync(s.rolloutFile(), 'utf8').includes('"type":"task_complete"') ? true : undefined), {
      what: 'task_complete in the rollout',
      timeoutMs: 30_000,
    });
    const exit = await session.quit();
    expect(exit.exitCode).toBe(0);
    await expectJourneys(session.dbPath, session.env.env);

    expect(session.rec.output).not.toContain('Hooks need review');
    // Nothing was written into the user's Codex config for the hooks.
    const config = join(session.env.codexHome, 'config.toml');
    expect(readFileSync(config, 'utf8')).not.toMatch(/hooks/);
    expect(existsSync(join(session.env.codexHome, 'hooks.json'))).toBe(false);

    const [call] = session.rolloutCalls();
    const approval = session.rows().find((r) => r.type === 'approval')!;
    expect(approval).toMatchObject({ call_id: call!.callId, ran: 'yes', trigger: 'letter' });
    expect(approval.evidence).toContain('hook');
    const db = new Database(session.dbPath, { readonly: true });
    const run = db.prepare('select agent_session_file from runs').get() as { agent_session_file: string };
    db.close();
    expect(run.agent_session_file).toBe(session.rolloutFile());
  }, TEST_TIMEOUT_MS);
});
