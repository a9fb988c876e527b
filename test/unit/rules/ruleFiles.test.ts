import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claudeBashMatch } from '../../../src/agents/claude/rules.js';
import { codexRules } from '../../../src/agents/codex/rules.js';
import { geminiRules } from '../../../src/agents/gemini/rules.js';
import { copilotLocation, copilotPermissionRules } from '../../../src/agents/copilot/rules.js';
import { parse } from 'jsonc-parser';
import { addToJsonList } from '../../../src/agents/common/jsonEdit.js';
import type { RuleMatch } from '../../../src/agents/common/ruleFormat.js';
import type { AgentRules, SuggestedRule } from '../../../src/rules/ruleTypes.js';
import { commitWrite, lineDiff, planWrite } from '../../../src/rules/writeRules.js';

const dir = mkdtempSync(join(tmpdir(), 'rec-rules-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('existing rules as each agent writes them', () => {
  it("Claude's Bash(…) forms: prefix with ` *` or `:*`, exact otherwise, wildcards inside skipped", () => {
    expect(claudeBashMatch('Bash(npm test *)')).toEqual({ kind: 'command', words: ['npm', 'test'], exact: false });
    expect(claudeBashMatch('Bash(npm run test:*)')).toEqual({ kind: 'command', words: ['npm', 'run', 'test'], exact: false });
    expect(claudeBashMatch('Bash(git status)')).toEqual({ kind: 'command', words: ['git', 'status'], exact: true });
    expect(claudeBashMatch('Bash(git * main)')).toBeNull();
    expect(claudeBashMatch('Edit(/src/**)')).toBeNull();
  });

  it("Codex's prefix_rule lines, as `p` writes them and as rec does", () => {
    const text = 'prefix_rule(pattern=["echo", "Hello, world!"], decision="allow")\nprefix_rule(\n    pattern = ["git", "push"],\n    decision = "forbidden",\n)\n';
    expect(codexRules('f', text).map((r) => [r.match, r.decision])).toEqual([
      [{ kind: 'command', words: ['echo', 'Hello, world!'], exact: false }, 'allow'],
      [{ kind: 'command', words: ['git', 'push'], exact: false }, 'deny'],
    ]);
  });

  it("Gemini's [[rule]] tables, commandPrefix as a string or a list", () => {
    const text = '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = [ "npm", "git status" ]\ndecision = "allow"\npriority = 950\n\n[[rule]]\ntoolName = "read_file"\ndecision = "allow"\n';
    expect(geminiRules('f', text).map((r) => r.match)).toEqual([
      { kind: 'command', words: ['npm'], exact: false },
      { kind: 'command', words: ['git', 'status'], exact: false },
    ]);
  });

  it("Gemini's [[rule]] tables in any TOML Gemini reads: literal strings, comments, a multi-line list", () => {
    const text = [
      '# my rules',
      '[[rule]]  # the first',
      "toolName = 'run_shell_command'",
      "decision = 'allow'   # a literal string",
      'commandPrefix = [',
      '  "npm test",  # the tests',
      "  'git log',",
      ']',
      'priority = 100',
      '',
      '[[rule]]',
      'toolName = "run_shell_command"',
      'commandPrefix = """rm -rf"""',
      'decision = "deny"',
    ].join('\n');
    expect(geminiRules('f', text).map((r) => [r.match.kind === 'command' ? r.match.words : null, r.decision])).toEqual([
      [['npm', 'test'], 'allow'],
      [['git', 'log'], 'allow'],
      [['rm', '-rf'], 'deny'],
    ]);
  });

  it('a Gemini policy file that is not TOML is an error (rec rules names the file), not an empty list', () => {
    expect(() => geminiRules('f', '[[rule]\ntoolName = "run_shell_command"\n')).toThrow();
  });
});


describe('adding rules to a JSON settings file', () => {
  it('keeps every other byte: formatting, key order, other settings', () => {
    const before = '{\n  "model": "x",\n  "permissions": {\n    "allow": [\n      "Bash(ls)"\n    ],\n    "defaultMode": "default"\n  }\n}\n';
    const after = addToJsonList(before, ['permissions', 'allow'], ['Bash(ls)', 'Bash(npm test *)']);
    expect(after).toBe('{\n  "model": "x",\n  "permissions": {\n    "allow": [\n      "Bash(ls)",\n      "Bash(npm test *)"\n    ],\n    "defaultMode": "default"\n  }\n}\n');
    const deny = addToJsonList(after, ['permissions', 'deny'], ['Bash(git push *)']);
    expect(deny.startsWith(after.slice(0, after.indexOf('"default"') + '"default"'.length))).toBe(true);
    expect(JSON.parse(deny)).toEqual({ model: 'x', permissions: { allow: ['Bash(ls)', 'Bash(npm test *)'], defaultMode: 'default', deny: ['Bash(git push *)'] } });
    expect(JSON.parse(addToJsonList('{"a": 1}', ['permissions', 'allow'], ['X']))).toEqual({ a: 1, permissions: { allow: ['X'] } });
  });

  it('keeps comments and trailing commas (JSON with comments), and indents as the file does (tabs)', () => {
    const before = '{\n\t// mine\n\t"permissions": {\n\t\t"allow": [\n\t\t\t"Bash(ls)", // kept\n\t\t],\n\t},\n}\n';
    const after = addToJsonList(before, ['permissions', 'allow'], ['Bash(make *)']);
    expect(after).toContain('\t// mine\n');
    expect(after).toContain('// kept');
    expect(after).toMatch(/\n\t\t\t"Bash\(make \*\)"/);
    expect(parse(after)).toEqual({ permissions: { allow: ['Bash(ls)', 'Bash(make *)'] } });
    expect(addToJsonList(after, ['permissions', 'allow'], ['Bash(make *)'])).toBe(after);
  });
});

function agentRules(agent: string, entries: string[], project: string): AgentRules {
  const rule = (entry: string): SuggestedRule => ({
    agent,
    decision: 'allow',
    match: { kind: 'command', words: ['npm', 'test'], exact: false },
    tools: [],
    widest: '',
    entry,
    no_entry_reason: null,
    evidence: { prompts_saved: 3, approvals: 3, refusals: 0, ran_unprompted: 0, sessions: 1, first_seen: null, last_seen: null, covers: [], reasons: [] },
  });
  return { agent, project, sessions: 1, sessions_without_sidecar: 0, target: '', allow: entries.map(rule), deny_or_ask: [], withheld: [], existing: [], rule_files: [], notes: [] };
}

describe('--write', () => {
  it("Claude: adds to .claude/settings.local.json, keeping the rest; the diff shows only the added line", () => {
    const project = join(dir, 'p1');
    const file = join(project, '.claude', 'settings.local.json');
    const a = agentRules('claude', ['Bash(npm test *)'], project);
    const fresh = planWrite(a, { env: { HOME: dir }, cwd: dir });
    if (!fresh.ok) throw new Error(fresh.error);
    commitWrite(fresh);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ permissions: { allow: ['Bash(npm test *)'] } });
    writeFileSync(file, '{\n\t"env": {"A": "1"},\n\t"permissions": {"allow": ["Bash(ls)"]}\n}');
    const plan = planWrite(a, { env: { HOME: dir }, cwd: dir });
    if (!plan.ok) throw new Error(plan.error);
    expect(plan.after).toBe('{\n\t"env": {"A": "1"},\n\t"permissions": {"allow": ["Bash(ls)","Bash(npm test *)"]}\n}');
    expect(lineDiff(file, plan.before, plan.after)).toContain('+\t"permissions": {"allow": ["Bash(ls)","Bash(npm test *)"]}');
  });

  it('leaves a file it cannot parse untouched, with a one-line error', () => {
    const project = join(dir, 'p2');
    const a = agentRules('claude', ['Bash(npm test *)'], project);
    const file = join(project, '.claude', 'settings.local.json');
    const fresh = planWrite(a, { env: {}, cwd: dir });
    if (!fresh.ok) throw new Error(fresh.error);
    commitWrite(fresh);
    writeFileSync(file, '{ "permissions": ');
    const plan = planWrite(a, { env: {}, cwd: dir });
    expect(plan).toMatchObject({ ok: false, file, error: expect.stringMatching(/^not valid JSON .*left untouched$/) });
    expect(readFileSync(file, 'utf8')).toBe('{ "permissions": ');
  });

  it('Codex: appends to $CODEX_HOME/rules/default.rules after the lines already there, and only once', () => {
    const home = join(dir, 'codex-home');
    const file = join(home, 'rules', 'default.rules');
    const rule = 'prefix_rule(pattern=["npm", "test"], decision="allow")';
    const a = agentRules('codex', [rule], dir);
    mkdirSync(join(home, 'rules'), { recursive: true });
    writeFileSync(file, 'prefix_rule(pattern=["ls"], decision="allow")');
    const plan = planWrite(a, { env: { CODEX_HOME: home }, cwd: dir });
    if (!plan.ok) throw new Error(plan.error);
    expect(plan.after).toBe(`prefix_rule(pattern=["ls"], decision="allow")\n\n${rule}\n`);
    commitWrite(plan);
    const again = planWrite(a, { env: { CODEX_HOME: home }, cwd: dir });
    expect(again).toMatchObject({ ok: true, after: readFileSync(file, 'utf8') });
  });

  it("Copilot: adds approvals to the tool_approvals of the project's location in ~/.copilot/permissions-config.json, keeping the rest, and only once", () => {
    const home = join(dir, 'copilot-home');
    const repo = join(dir, 'repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    mkdirSync(join(repo, 'sub'), { recursive: true });
    const file = join(home, 'permissions-config.json');
    const mcp = '{"kind":"mcp","serverName":"marker","toolName":"touch_marker"}';
    // Sessions in a folder of the repository: Copilot files them under the repository's root.
    const a = agentRules('copilot', [mcp], join(repo, 'sub'));
    mkdirSync(home, { recursive: true });
    writeFileSync(file, JSON.stringify({ locations: { '/elsewhere': { tool_approvals: [{ kind: 'write' }] }, [repo]: { tool_approvals: [{ kind: 'commands', commandIdentifiers: ['node', 'make fix'] }] } } }, null, 2));
    const plan = planWrite(a, { env: { COPILOT_HOME: home }, cwd: dir });
    if (!plan.ok) throw new Error(plan.error);
    expect(JSON.parse(plan.after)).toEqual({
      locations: {
        '/elsewhere': { tool_approvals: [{ kind: 'write' }] },
        [repo]: { tool_approvals: [{ kind: 'commands', commandIdentifiers: ['node', 'make fix'] }, { kind: 'mcp', serverName: 'marker', toolName: 'touch_marker' }] },
      },
    });
    expect(plan.after.startsWith(readFileSync(file, 'utf8').slice(0, readFileSync(file, 'utf8').indexOf('"node"')))).toBe(true);
    commitWrite(plan);
    expect(planWrite(a, { env: { COPILOT_HOME: home }, cwd: dir })).toMatchObject({ ok: true, after: readFileSync(file, 'utf8') });
    // The saved command approvals of the location read back as program-wide allow rules; other
    // locations' do not, nor an identifier with a space (Copilot never matches one).
    const [source] = copilotPermissionRules.ruleFiles(join(repo, 'sub'), { COPILOT_HOME: home });
    expect(source!.read(source!.file).map((r) => [r.match, r.decision])).toEqual([[{ kind: 'command', words: ['node'], exact: false }, 'allow']]);
    expect(copilotLocation(join(dir, 'p1'))).toBe(join(dir, 'p1'));
  });
});

describe("Copilot's saved approvals say no more than was approved", () => {
  const ctx = (decision: 'allow' | 'deny') => ({ decision, tools: [], examples: [], justification: '', cwd: null });
  it('a whole program with any arguments and an MCP tool are entries; a subcommand, an exact command, edits, fetches and refusals are not', () => {
    const { entry } = copilotPermissionRules;
    expect(entry({ kind: 'command', words: ['make'], exact: false }, ctx('allow'))).toEqual({ entry: '{"kind":"commands","commandIdentifiers":["make"]}', reason: null });
    expect(entry({ kind: 'mcp', server: 'marker', tool: 'touch_marker' }, ctx('allow')).entry).toBe('{"kind":"mcp","serverName":"marker","toolName":"touch_marker"}');
    const unsaid: RuleMatch[] = [
      { kind: 'command', words: ['npm', 'test'], exact: false },
      { kind: 'command', words: ['ls'], exact: true },
      { kind: 'edit', dir: 'src', file: null, in_project: true },
      { kind: 'fetch', host: 'docs.example.com' },
    ];
    for (const m of unsaid) {
      expect(entry(m, ctx('allow')), JSON.stringify(m)).toMatchObject({ entry: null, reason: expect.stringMatching(/^Copilot /) });
    }
    expect(entry({ kind: 'command', words: ['git', 'push'], exact: false }, ctx('deny')).reason).toMatch(/--deny-tool/);
  });
});
