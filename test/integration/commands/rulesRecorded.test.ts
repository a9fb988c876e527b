// `rec rules`, the built CLI (bin/rec.js), over the folders of sessions recorded from the real
// agent CLIs (test/fixtures/<agent>/<version>/recorded), with the sidecar `rec codex` writes for
// the recording of plain commands approved at prompts: rules come out for every agent. Claude's
// and Gemini's come from refusals, which their files keep; Codex's allow rule needs the sidecar,
// since its rollout cannot tell a command approved at a prompt from one that ran unasked.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { RulesReport } from '../../../src/rules/ruleTypes.js';
import { replayRecorded } from '../../support/codex/recordedRun.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Generous: the machine is shared with other test runs; nothing waits on time here. */
const TEST_TIMEOUT_MS = 240_000;

const home = mkdtempSync(join(tmpdir(), 'rec-rules-recorded-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** Every recorded folder of every agent and version. */
function recordedFolders(): string[] {
  const fixtures = join(ROOT, 'test/fixtures');
  return ['claude', 'codex', 'gemini'].flatMap((agent) => readdirSync(join(fixtures, agent)).map((v) => join(fixtures, agent, v, 'recorded')));
}

/** `rec rules ARGS` with an empty home: no rule files of the user's own are read. */
async function recRules(args: readonly string[]): Promise<{ stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_DATA_HOME: join(home, 'data') };
  delete env.CODEX_HOME;
  return promisify(execFile)(process.execPath, [join(ROOT, 'bin/rec.js'), 'rules', ...args], { cwd: home, env, maxBuffer: 64 << 20 });
}

describe('rec rules on the recorded fixtures of all three agents', () => {
  it("prints rules for each agent; Codex's approved plain commands give a prefix_rule", async () => {
    let report: RulesReport | undefined;
    let codexFile = '';
    // The replay's sidecar is the one rec codex writes for the recording; the rules are read from it while it exists.
    await replayRecorded('npm-test-approve-y', {
      afterJourney: async ({ dbPath }) => {
        report = JSON.parse((await recRules(['--json', '--db', dbPath, ...recordedFolders()])).stdout) as RulesReport;
        codexFile = (await recRules(['--format', 'codex', '--db', dbPath, ...recordedFolders()])).stdout;
      },
    });
    const agents = report!.agents;
    expect(agents.map((a) => a.agent)).toEqual(['claude', 'codex', 'gemini']);
    for (const a of agents) expect([a.agent, a.allow.length + a.deny_or_ask.length > 0]).toEqual([a.agent, true]);

    const codex = agents[1]!;
    expect(codex.sessions_without_sidecar).toBe(codex.sessions - 1);
    expect(codex.allow.map((r) => r.match)).toEqual([{ kind: 'command', words: ['npm', 'test'], exact: false }]);
    expect(codex.allow[0]!.evidence.covers.map((c) => c.text).sort()).toEqual(['npm test', 'npm test -- --grep parser', 'npm test -- a.test.js']);
    expect(codexFile).toContain('prefix_rule(\n    pattern = ["npm", "test"],\n    decision = "allow",\n');
  }, TEST_TIMEOUT_MS);
});
