// The rules Codex's "always" answers write, read back from a real rules file; and which command a
// network prompt's host names.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { networkApprovalRule, prefixApprovalRule } from '../../../../src/agents/codex/approvalRules.js';
import { namesHost } from '../../../../src/agents/codex/callMatcher.js';
import { LATEST_CODEX_STRINGS } from '../../../../src/agents/codex/strings/index.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'rec-codex-rules-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function rulesFile(text: string): NodeJS.ProcessEnv {
  mkdirSync(join(home, 'rules'));
  writeFileSync(join(home, 'rules', 'default.rules'), text);
  return { CODEX_HOME: home };
}

describe('the rule an "always" answer wrote', () => {
  const WRAPPED = 'prefix_rule(pattern=["/bin/bash", "-lc", "echo hello > a.txt && cat a.txt"], decision="allow")';
  const WORDS = 'prefix_rule(pattern=["npm", "test"], decision="allow")';
  const NET = 'network_rule(host="three.example.com", protocol="http", decision="allow", justification="Allow http access to three.example.com")';

  it('a prefix rule by the prefix the option showed: its words, or the script of a shell-wrapped pattern', () => {
    const env = rulesFile(`${WORDS}\n${WRAPPED}\n${NET}\n`);
    expect(prefixApprovalRule(env, 'npm test', LATEST_CODEX_STRINGS)).toBe(WORDS);
    expect(prefixApprovalRule(env, 'echo hello > a.txt && cat a.txt', LATEST_CODEX_STRINGS)).toBe(WRAPPED);
    expect(prefixApprovalRule(env, 'npm', LATEST_CODEX_STRINGS)).toBeUndefined();
  });

  it('a prefix rule that does not allow is not the answer\'s', () => {
    const env = rulesFile('prefix_rule(pattern=["npm", "test"], decision="forbidden")\n');
    expect(prefixApprovalRule(env, 'npm test', LATEST_CODEX_STRINGS)).toBeUndefined();
  });

  it('a network rule by its host, whole and allowing', () => {
    const env = rulesFile(`${WORDS}\nnetwork_rule(host="example.com", protocol="http", decision="deny")\n${NET}\n`);
    expect(networkApprovalRule(env, 'three.example.com')).toBe(NET);
    expect(networkApprovalRule(env, 'example.com')).toBeUndefined();
    expect(networkApprovalRule(env, 'e.example.com')).toBeUndefined();
  });

  it('no rules file: no rule', () => {
    expect(prefixApprovalRule({ CODEX_HOME: home }, 'npm test', LATEST_CODEX_STRINGS)).toBeUndefined();
    expect(networkApprovalRule({ CODEX_HOME: home }, 'three.example.com')).toBeUndefined();
  });
});

describe('a command names the host a network prompt asks about', () => {
  it.each([
    ['curl -sS http://one.example.com/', true],
    ['curl https://ONE.example.com:8443/x', true],
    ['git clone one.example.com:repo.git', true],
    ['curl http://one.example.com.evil.test/', false],
    ['curl http://xone.example.com/', false],
    ['curl http://one.example.community/', false],
    ['npm install', false],
  ])('%s: %s', (command, names) => {
    expect(namesHost(command, 'one.example.com')).toBe(names);
  });
});
