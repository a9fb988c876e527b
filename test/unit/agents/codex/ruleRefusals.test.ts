// A call a `forbidden` prefix_rule refused (Codex 0.171.0, docs/codex-auto-review.md §6a): Codex's
// words name the prefix, a hook could give the same words, and a forbidden rule of that prefix in the
// rules Codex reads (the user's, the project's) names the refuser. Rules files are real files.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harnessRefusalOf } from '../../../../src/agents/codex/harnessRefusal.js';
import { forbiddenPrefixOf, forbiddingRule } from '../../../../src/agents/codex/ruleRefusals.js';
import { codexStringsFor } from '../../../../src/agents/codex/strings/index.js';
import { RECORDED_BY_VERSION } from '../../../support/codex/recordedRun.js';
import { AgentReplay } from '../../../support/codex/sampleReplay.js';

const STRINGS = codexStringsFor('0.171.0');
/** The message the real Codex 0.171.0 gave the call `npm test` under a forbidden `npm test` rule (measured). */
const MEASURED = "`/bin/bash -lc 'npm test'` rejected: policy forbids commands starting with `npm test`";
const FORBID = 'prefix_rule(pattern=["npm", "test"], decision="forbidden")';
const DECISIONS = ['approval', 'rejection', 'skipped', 'interruption', 'miss'] as const;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rec-codex-rule-refusals-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function writeRules(folder: string, text: string): void {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'default.rules'), text);
}

describe("Codex's words for a rule's refusal", () => {
  it('name the prefix the rule forbids, on 0.171.0 only (measured there)', () => {
    expect(forbiddenPrefixOf(MEASURED, STRINGS)).toBe('npm test');
    expect(forbiddenPrefixOf('USER-HOOK: writes need a ticket', STRINGS)).toBeUndefined();
    expect(forbiddenPrefixOf(MEASURED, codexStringsFor('0.169.0'))).toBeUndefined();
  });

  it('are read out of the call output as Codex writes it', () => {
    const output = `exec_command failed: CreateProcess { message: "Rejected(\\"${MEASURED}\\")" }`;
    expect(forbiddenPrefixOf(harnessRefusalOf(output, STRINGS)!.message, STRINGS)).toBe('npm test');
  });
});

describe('the rule that forbade it', () => {
  it("is a forbidden prefix_rule of that prefix in the user's rules or the project's", () => {
    const home = join(dir, 'home');
    const project = join(dir, 'project');
    writeRules(join(home, 'rules'), 'prefix_rule(pattern=["npm", "test"], decision="allow")\nprefix_rule(pattern=["npm"], decision="forbidden")\n');
    expect(forbiddingRule({ CODEX_HOME: home }, project, 'npm test', STRINGS)).toBeUndefined();
    writeRules(join(project, '.codex', 'rules'), `${FORBID}\n`);
    expect(forbiddingRule({ CODEX_HOME: home }, project, 'npm test', STRINGS)).toBe(FORBID);
    expect(forbiddingRule({ CODEX_HOME: home }, project, 'npm', STRINGS)).toBe('prefix_rule(pattern=["npm"], decision="forbidden")');
    expect(forbiddingRule({ CODEX_HOME: join(dir, 'none') }, join(dir, 'none'), 'npm test', STRINGS)).toBeUndefined();
  });
});

describe('the recorder, given a call refused with those words', () => {
  const recorded = RECORDED_BY_VERSION.find((v) => v.version === '0.171.0')!.recorded;
  const meta = readFileSync(join(recorded, 'hook-deny-auto-review.rollout.jsonl'), 'utf8').split('\n')[0]!;
  const callId = 'call_rule_1';
  const rollout = [
    meta,
    JSON.stringify({ timestamp: '2026-11-28T23:39:00.000Z', type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"npm test"}', call_id: callId } }),
    JSON.stringify({ timestamp: '2026-11-28T23:39:00.100Z', type: 'response_item', payload: { type: 'function_call_output', call_id: callId, output: `exec_command failed: CreateProcess { message: "Rejected(\\"${MEASURED}\\")" }` } }),
  ];

  it("records the rule's rejection when such a rule is in the user's rules: not the user's, no trigger of theirs, not run", async () => {
    const r = new AgentReplay('rule-forbidden', { rollout });
    writeRules(join(r.home, 'rules'), `${FORBID}\n`);
    r.append();
    await r.exit();
    expect(r.sink.rows(...DECISIONS)).toEqual([
      expect.objectContaining({
        type: 'rejection',
        kind: 'command',
        decided_by: 'rule',
        trigger: 'rule',
        call_id: callId,
        ran: 'no',
        reason_source: 'none',
        native: expect.objectContaining({ permission_rule: FORBID, message: MEASURED }),
        evidence: ['session_file'],
      }),
    ]);
  });

  it('records nothing, and no miss, when no rule of that prefix forbids it (a hook may have given those words)', async () => {
    const r = new AgentReplay('rule-forbidden', { rollout });
    writeRules(join(r.home, 'rules'), 'prefix_rule(pattern=["npm", "test"], decision="prompt")\n');
    r.append();
    await r.exit();
    expect(r.sink.rows(...DECISIONS)).toEqual([]);
  });
});
