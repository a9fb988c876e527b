// The rules `rec rules` suggests for Codex, checked by the REAL Codex CLI's own policy engine
// (`codex execpolicy check`, offline): the suggested file loads (its `match` examples included),
// every command a rule covers gets `allow`, a deny rule gets `forbidden`, and commands the rules
// must not cover (the refused one, the dangerous ones held back, a sibling subcommand) do not.
// The rules are made from the recorded parallel approve/deny session, with other commands.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ruleFileText } from '../../../src/rules/ruleFile.js';
import type { AgentRules } from '../../../src/rules/ruleTypes.js';
import { RulesAggregator } from '../../../src/rules/suggestRules.js';
import { AGENT_BIN } from '../../support/codex/env.js';
import { GOLDEN, madeSession, recordedDecisions } from '../../support/recordedDecisions.js';

const dir = mkdtempSync(join(tmpdir(), 'rec-rules-execpolicy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const APPROVED = [
  'npm test',
  'npm test -- --grep parser',
  'git status',
  'git status --short',
  'npm test -- src/a.test.ts',
  'git status',
  'rm -rf dist',
  'rm -rf dist',
  'rm -rf dist',
  'python3 -c pass',
  'python3 -c pass',
  'python3 -c pass',
  'npm test && git diff --stat',
  'git diff --stat',
  'git diff --stat',
];
const REFUSED = [{ command: 'git push origin main', reason: 'open a pull request instead' }, { command: 'git push origin main', reason: 'no pushing' }];

/** Decision of `codex execpolicy check` for `argv` under `rules`; null when no rule matched. */
function check(rules: string, argv: readonly string[]): string | null {
  const out = execFileSync(AGENT_BIN, ['execpolicy', 'check', '--rules', rules, '--', ...argv], { encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'] });
  const r = JSON.parse(out) as { decision?: string; matchedRules: unknown[] };
  return r.decision ?? null;
}

describe('codex 0.169.0 execpolicy: the rules rec rules suggests', () => {
  let codex: AgentRules;
  let file: string;
  beforeAll(async () => {
    const base = await recordedDecisions(GOLDEN.codex);
    const agg = new RulesAggregator();
    agg.add(madeSession(base, 'a', APPROVED.slice(0, 8), REFUSED.slice(0, 1)));
    agg.add(madeSession(base, 'b', APPROVED.slice(8), REFUSED.slice(1)));
    codex = agg.report().agents[0]!;
    file = join(dir, 'suggested.rules');
    writeFileSync(file, ruleFileText(codex));
  });

  it('suggests allow rules for the groups approved three times, and a deny for the repeated refusal', () => {
    expect(codex.allow.map((r) => r.match)).toEqual([
      { kind: 'command', words: ['npm', 'test'], exact: false },
      { kind: 'command', words: ['git', 'status'], exact: false },
      { kind: 'command', words: ['git', 'diff', '--stat'], exact: true },
    ]);
    expect(codex.deny_or_ask.map((r) => [r.decision, r.match])).toEqual([['deny', { kind: 'command', words: ['git', 'push', 'origin', 'main'], exact: true }]]);
  });

  it('every covered command gets allow from the real Codex', () => {
    const covered = codex.allow.flatMap((r) => r.evidence.covers.map((c) => c.text));
    expect(covered.length).toBeGreaterThanOrEqual(6);
    for (const cmd of covered) expect([cmd, check(file, cmd.split(' '))]).toEqual([cmd, 'allow']);
  });

  it('the refused command is forbidden, and what no rule may cover gets no allow', () => {
    expect(check(file, ['git', 'push', 'origin', 'main'])).toBe('forbidden');
    for (const argv of [['rm', '-rf', 'dist'], ['python3', '-c', 'pass'], ['npm', 'publish'], ['git', 'diff'], ['git', 'push', '--force']]) {
      expect([argv.join(' '), check(file, argv)]).not.toEqual([argv.join(' '), 'allow']);
    }
  });

  it('a rule whose match example it does not cover makes Codex refuse the file: the examples are checked', () => {
    const bad = join(dir, 'bad.rules');
    writeFileSync(bad, 'prefix_rule(\n    pattern = ["npm", "test"],\n    decision = "allow",\n    match = [["npm", "publish"]],\n)\n');
    expect(() => check(bad, ['npm', 'test'])).toThrow();
  });
});
