// The allow rule `rec rules` suggests for Claude Code, written into the isolated user settings of
// the REAL Claude Code: the command it covers runs with no prompt, and another command still
// prompts. The rule is made from the recorded Bash session with the covered command approved
// three times.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RULES_COVERED_FILE, RULES_UNCOVERED_FILE } from '../../../src/lab/mock/anthropicMessages/scenarios.js';
import { AGENT_VERSION } from '../../support/claude/env.js';
import { missingPart, startRec, waitReady, type RecSession } from '../../support/claude/recSession.js';
import { KEY, SCREEN } from '../../../src/agents/claude/bench/recordedScenarios.js';
import { press } from '../../../src/lab/driver.js';
import { RulesAggregator } from '../../../src/rules/suggestRules.js';
import { GOLDEN, madeSession, recordedDecisions } from '../../support/recordedDecisions.js';

const TEST_TIMEOUT_MS = 180_000;

const missing = missingPart();
if (missing) throw new Error(`the Claude Code e2e suite cannot run: ${missing}`);

let session: RecSession | undefined;
afterEach(async () => {
  await session?.dispose();
  session = undefined;
});

describe(`rec rules' suggestion on the real Claude Code ${AGENT_VERSION}`, () => {
  it('the covered command runs with no prompt; an uncovered one still prompts', async () => {
    const covered = `touch ${RULES_COVERED_FILE}`;
    const agg = new RulesAggregator();
    agg.add(madeSession(await recordedDecisions(GOLDEN.claude), 'approved-thrice', [covered, covered, covered]));
    const claude = agg.report().agents[0]!;
    const allow = claude.allow.map((r) => r.entry);
    expect(allow).toEqual([`Bash(${covered})`]);

    session = await startRec({ bare: true, userSettings: { permissions: { defaultMode: 'default', allow } } });
    const s = session;
    await waitReady(s);
    await s.driver.line('SCENARIO rulescovered');
    await s.driver.waitScreen(SCREEN.final, 'final');
    expect(existsSync(join(s.env.workDir, RULES_COVERED_FILE))).toBe(true);
    expect(s.proc.output).not.toMatch(/Do you want to proceed\?/);

    await s.driver.line('SCENARIO rulesuncovered');
    await s.driver.waitScreen(SCREEN.bashPrompt, 'prompt');
    await press(s.driver, KEY.esc);
    await s.driver.waitScreen(SCREEN.interrupted, 'rejected');
    expect(existsSync(join(s.env.workDir, RULES_UNCOVERED_FILE))).toBe(false);
    expect((await s.quit()).exitCode).toBe(0);
  }, TEST_TIMEOUT_MS);
});
