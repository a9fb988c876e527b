// The policy `rec rules` suggests for Gemini CLI, written to the isolated ~/.gemini/policies of the
// REAL Gemini CLI: the command it covers runs with no dialog, and another command still asks.
// The rule is made from the recorded shell session with the covered command approved three times.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT_VERSION } from '../../support/gemini/env.js';
import { startRec, waitReady, type RecSession } from '../../support/gemini/recSession.js';
import { promptFor, SCREEN } from '../../../src/agents/gemini/bench/recordedScenarios.js';
import { press } from '../../../src/lab/driver.js';
import { KEYS } from '../../../src/lab/keys.js';
import { ruleFileText } from '../../../src/rules/ruleFile.js';
import { RulesAggregator } from '../../../src/rules/suggestRules.js';
import { GOLDEN, madeSession, recordedDecisions } from '../../support/recordedDecisions.js';

const TEST_TIMEOUT_MS = 180_000;

let session: RecSession | undefined;
afterEach(async () => {
  await session?.dispose();
  session = undefined;
});

describe(`rec rules' suggestion on the real Gemini CLI ${AGENT_VERSION}`, () => {
  it('the covered command runs with no dialog; an uncovered one still asks', async () => {
    const covered = 'touch rules_covered.txt';
    const agg = new RulesAggregator();
    agg.add(madeSession(await recordedDecisions(GOLDEN.gemini), 'approved-thrice', [covered, covered, covered]));
    const gemini = agg.report().agents[0]!;
    expect(gemini.allow.map((r) => r.match)).toEqual([{ kind: 'command', words: ['touch', 'rules_covered.txt'], exact: true }]);

    session = await startRec({ bare: true, policies: ruleFileText(gemini) });
    const s = session;
    await waitReady(s);
    await s.driver.line(promptFor('rules-covered'));
    await s.driver.waitScreen(SCREEN.final, 'final');
    expect(existsSync(join(s.env.workDir, 'rules_covered.txt'))).toBe(true);
    expect(s.proc.output).not.toMatch(/Allow execution of/);

    await s.driver.line(promptFor('rules-uncovered'));
    await s.driver.waitScreen(SCREEN.shellDialog, 'dialog');
    await press(s.driver, KEYS.esc);
    await s.driver.waitScreen(SCREEN.cancelled, 'cancelled');
    expect(existsSync(join(s.env.workDir, 'rules_uncovered.txt'))).toBe(false);
    await s.quit();
  }, TEST_TIMEOUT_MS);
});
