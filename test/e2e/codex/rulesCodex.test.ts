// The rules `rec rules` suggests for Codex, written into the isolated CODEX_HOME of the REAL Codex
// (`$CODEX_HOME/rules/default.rules`, where its own "don't ask again" writes): the scenario of the
// recording runs again and its commands run with no prompt, while a command no rule covers still
// prompts. The rules come from the recorded session of those commands approved at prompts
// (npm-test-approve-y) with the sidecar its replay writes, as `rec codex` wrote it. Codex runs each
// command as `bash -lc SCRIPT` and checks the script's words against the rules, so the prefix rule
// must match the command as the model asked for it.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rulesCommand } from '../../../src/commands/rules.js';
import { KEY, SCREEN, writeNpmProject } from '../../../src/agents/codex/bench/recordedScenarios.js';
import { press } from '../../../src/lab/driver.js';
import { NPM_TEST_CALLS, RULES_UNCOVERED_FILE } from '../../../src/lab/mock/openaiResponses/scenarios.js';
import { runCommand } from '../../support/runCommand.js';
import { AGENT_VERSION } from '../../support/codex/env.js';
import { RECORDED_DIR, replayRecorded } from '../../support/codex/recordedRun.js';
import { assertBuilt, startRec, waitReady, type RecSession } from '../../support/codex/recSession.js';

const TEST_TIMEOUT_MS = 240_000;
const RECORDING = 'npm-test-approve-y';

let session: RecSession | undefined;
beforeAll(() => assertBuilt());
afterEach(async () => {
  await session?.dispose();
  session = undefined;
});

/** `rec rules --format codex` on the recording, joined with the sidecar its replay writes. */
async function suggestedRules(): Promise<string> {
  let text = '';
  await replayRecorded(RECORDING, {
    afterJourney: async ({ dbPath }) => {
      const r = await runCommand(rulesCommand, ['--format', 'codex', '--db', dbPath, join(RECORDED_DIR, `${RECORDING}.rollout.jsonl`)]);
      expect([r.code, r.stderr]).toEqual([0, '']);
      text = r.stdout;
    },
  });
  return text;
}

describe(`rec rules' suggestion on the real Codex ${AGENT_VERSION}`, () => {
  it('the covered commands run with no prompt; an uncovered one still prompts', async () => {
    const rules = await suggestedRules();
    expect(rules).toMatch(/^prefix_rule\(\n {4}pattern = \["npm", "test"\],\n {4}decision = "allow",\n/);

    session = await startRec({
      prepare: (env) => {
        writeNpmProject(env.workDir);
        mkdirSync(join(env.codexHome, 'rules'), { recursive: true });
        writeFileSync(join(env.codexHome, 'rules', 'default.rules'), rules);
      },
    });
    const s = session;
    await waitReady(s);
    await s.driver.line('SCN=npmtest run the tests');
    await s.driver.waitScreen(SCREEN.done, 'done');
    expect(s.rec.output).not.toMatch(SCREEN.execPrompt);

    await s.driver.line('SCN=rulesuncovered make a file');
    await s.driver.waitScreen(SCREEN.execPrompt, 'prompt');
    await press(s.driver, KEY.esc);
    await s.driver.waitScreen(SCREEN.interrupted, 'rejected');
    expect((await s.quit()).exitCode).toBe(0);

    // Each covered command ran, unasked; the uncovered one was refused at its prompt and never ran.
    const calls = s.rolloutCalls();
    expect(calls.map((c) => c.args['cmd'])).toEqual([...NPM_TEST_CALLS.map((c) => c.args['cmd']), `touch ${RULES_UNCOVERED_FILE}`]);
    for (const c of calls.slice(0, 3)) expect([c.args['cmd'], c.ranPerRollout, c.output]).toEqual([c.args['cmd'], true, expect.stringContaining('tests pass')]);
    expect(existsSync(join(s.env.workDir, RULES_UNCOVERED_FILE))).toBe(false);
    const uncovered = calls[3]!.callId;
    expect(s.rows().map((r) => [r.type, r.call_id])).toEqual([
      ['prompt', uncovered],
      ['rejection', uncovered],
    ]);
  }, TEST_TIMEOUT_MS);
});
