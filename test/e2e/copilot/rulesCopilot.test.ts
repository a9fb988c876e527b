// The approval `rec rules` suggests for GitHub Copilot CLI, written by `--write`'s planner into the
// isolated ~/.copilot/permissions-config.json of the REAL Copilot CLI: the command it covers runs
// with no prompt, and another command still prompts. The rule comes from sessions in which `mkdir`
// was approved three times with other arguments each time (no word but the program shared): Copilot saves a command approval for a
// whole program, so that is the only command rule rec may write for it (src/agents/copilot/rules.ts).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copilotPermissionRules, PERMISSIONS_FILE } from '../../../src/agents/copilot/rules.js';
import { KEY, SCREEN } from '../../../src/agents/copilot/bench/recordedScenarios.js';
import { press } from '../../../src/lab/driver.js';
import type { DecidedCall, SessionDecisions } from '../../../src/merge/sessionDecisions.js';
import { RulesAggregator } from '../../../src/rules/suggestRules.js';
import { writtenRules } from '../../../src/rules/ruleFile.js';
import { COPILOT_SCENARIOS, RULES_COVERED_DIR, RULES_UNCOVERED_FILE } from '../../../src/agents/copilot/bench/mockScenarios.js';
import { startMessagesServer, type MessagesServer } from '../../../src/lab/mock/anthropicMessages/server.js';
import { AGENT_VERSION, createEnv, type AgentEnv } from '../../support/copilot/env.js';
import { missingPart, startRec, waitReady, type RecSession } from '../../support/copilot/recSession.js';

/** A Copilot start (its JavaScript unpacked afresh), two turns and the quit, on two loaded cores. */
const TEST_TIMEOUT_MS = 180_000;

const missing = missingPart();
if (missing) throw new Error(`the Copilot e2e suite cannot run: ${missing}`);

let session: RecSession | undefined;
let world: { env: AgentEnv; server: MessagesServer } | undefined;
afterEach(async () => {
  await session?.dispose();
  session = undefined;
  await world?.server.close();
  await world?.env.dispose();
  world = undefined;
});

/** A recorded Copilot session in `cwd` whose shell calls were approved at a prompt. */
function approvedSession(cwd: string, commands: readonly string[]): SessionDecisions {
  const call = (command: string, i: number): DecidedCall => ({
    outcome: 'approved',
    tool: 'bash',
    call_id: `toolu_${i}`,
    command,
    paths: [],
    url: null,
    decided_by: 'user',
    trigger: 'digit',
    scope: 'once',
    reason: null,
    timestamp: `2026-11-2${i}T10:00:00.000Z`,
  });
  return { agent: 'copilot', session_id: 'made', file: null, cwd, recorded: true, calls: commands.map(call) };
}

describe(`rec rules' suggestion on the real GitHub Copilot CLI ${AGENT_VERSION}`, () => {
  it('the saved approval rec writes lets the covered command run with no prompt; an uncovered one still prompts', async () => {
    const server = await startMessagesServer({ scenarios: COPILOT_SCENARIOS });
    const env = createEnv({ baseUrl: server.baseUrl, token: server.token });
    world = { env, server };
    const agg = new RulesAggregator();
    agg.add(approvedSession(env.workDir, ['mkdir -p build', 'mkdir ./out', 'mkdir -v dist/js']));
    const copilot = agg.report().agents[0]!;
    expect(copilot.allow.map((r) => r.entry)).toEqual(['{"kind":"commands","commandIdentifiers":["mkdir"]}']);
    const plan = copilotPermissionRules.planWrite(null, writtenRules(copilot), env.workDir);
    if (!plan.ok) throw new Error(plan.error);
    // Copilot reads its saved approvals at start.
    writeFileSync(join(env.copilotHome, PERMISSIONS_FILE), plan.after);
    session = await startRec({ world });
    const s = session;
    await waitReady(s);

    await s.driver.line('SCENARIO rulescovered');
    await s.driver.waitScreen(SCREEN.final, 'final');
    expect(existsSync(join(s.env.workDir, RULES_COVERED_DIR))).toBe(true);
    expect(s.proc.output).not.toMatch(/Do you want to run this command\?/);

    await s.driver.line('SCENARIO rulesuncovered');
    await s.driver.waitScreen(SCREEN.shell, 'prompt');
    await press(s.driver, KEY.esc);
    await s.driver.waitScreen(SCREEN.cancelled, 'rejected');
    expect(existsSync(join(s.env.workDir, RULES_UNCOVERED_FILE))).toBe(false);
    expect((await s.quit()).exitCode).toBe(0);
    // Copilot kept the approval rec wrote, under the same location.
    expect(JSON.parse(readFileSync(join(s.env.copilotHome, PERMISSIONS_FILE), 'utf8'))).toMatchObject({
      locations: { [s.env.workDir]: { tool_approvals: [{ kind: 'commands', commandIdentifiers: ['mkdir'] }] } },
    });
  }, TEST_TIMEOUT_MS);
});
