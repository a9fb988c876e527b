import { beforeAll, describe, expect, it } from 'vitest';
import type { SessionDecisions } from '../../../src/merge/sessionDecisions.js';
import { ruleFileText } from '../../../src/rules/ruleFile.js';
import type { AgentRules } from '../../../src/rules/ruleTypes.js';
import { RulesAggregator } from '../../../src/rules/suggestRules.js';
import { GOLDEN, madeSession, recordedDecisions, type Made } from '../../support/recordedDecisions.js';

let base: Record<'codex' | 'claude' | 'gemini' | 'claudeEdit' | 'geminiEdit', SessionDecisions>;
beforeAll(async () => {
  base = {
    codex: await recordedDecisions(GOLDEN.codex),
    claude: await recordedDecisions(GOLDEN.claude),
    gemini: await recordedDecisions(GOLDEN.gemini),
    claudeEdit: await recordedDecisions(GOLDEN.claudeEdit),
    geminiEdit: await recordedDecisions(GOLDEN.geminiEdit),
  };
});

function rulesOf(sessions: readonly SessionDecisions[], min?: number): AgentRules {
  const agg = new RulesAggregator(min);
  for (const s of sessions) agg.add(s);
  const r = agg.report();
  expect(r.agents).toHaveLength(1);
  return r.agents[0]!;
}

const on = (agent: keyof typeof base, approved: readonly Made[], refused: readonly Made[] = [], id = 's1'): SessionDecisions =>
  madeSession(base[agent], id, approved, refused);

describe('the recorded sessions as they are', () => {
  it('codex parallel approve/deny: one approval (a redirection) and one refusal make no rule', async () => {
    const s = await recordedDecisions(GOLDEN.codex);
    expect(s.calls.map((c) => [c.outcome, c.command])).toEqual([
      ['approved', 'echo one > $BASE/work/p1.txt'],
      ['refused', 'echo two > $BASE/work/p2.txt'],
    ]);
    const a = rulesOf([s], 1);
    expect(a.allow).toEqual([]);
    expect(a.withheld).toEqual([expect.objectContaining({ subject: 'echo one > $BASE/work/p1.txt', reason: expect.stringContaining('redirection') })]);
  });

  it('a refusal with a reason, seen twice, becomes a deny rule quoting the reason', () => {
    const a = rulesOf([base.gemini, { ...base.gemini, session_id: 'again' }]);
    expect(a.deny_or_ask).toHaveLength(1);
    const r = a.deny_or_ask[0]!;
    expect(r).toMatchObject({ decision: 'deny', match: { kind: 'command', words: ['touch', 'shell_marker.txt'], exact: true } });
    expect(r.evidence).toMatchObject({ refusals: 2, sessions: 2, reasons: ['No - use a different file name please'] });
    expect(r.entry).toBe('[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "touch shell_marker.txt"\ndecision = "deny"\npriority = 300');
  });
});

describe('grouping and thresholds', () => {
  it('commands group by program and subcommand; the rule is the common prefix plus the varied arguments', () => {
    const a = rulesOf([on('codex', ['npm test', 'npm test -- a', 'npm run lint']), on('codex', ['npm test -- b', 'npm run lint', 'npm run lint'], [], 's2')]);
    expect(a.allow.map((r) => [r.match, r.evidence.prompts_saved, r.evidence.sessions])).toEqual([
      [{ kind: 'command', words: ['npm', 'test'], exact: false }, 3, 2],
      [{ kind: 'command', words: ['npm', 'run', 'lint'], exact: true }, 3, 2],
    ]);
    expect(a.allow[0]!.evidence.covers).toEqual([
      { text: 'npm test', count: 1 },
      { text: 'npm test -- a', count: 1 },
      { text: 'npm test -- b', count: 1 },
    ]);
    expect(a.allow[0]!.widest).toBe('`npm test` followed by any arguments');
  });

  it('needs --min approvals (default 3) and no refusal', () => {
    expect(rulesOf([on('codex', ['git status', 'git status'])]).allow).toEqual([]);
    expect(rulesOf([on('codex', ['git status', 'git status'])], 2).allow).toHaveLength(1);
    const refusedOnce = rulesOf([on('codex', ['git status', 'git status', 'git status'], ['git status --porcelain'])]);
    expect(refusedOnce.allow).toEqual([]);
    expect(refusedOnce.withheld[0]).toMatchObject({ subject: 'git status', approvals: 3, refusals: 1, reason: expect.stringContaining('refused 1 time') });
  });

  it('edits group by folder; a group of one file gives that file; fetches by host; MCP by server and tool', () => {
    const edits = rulesOf([on('claudeEdit', [{ path: 'src/a.ts' }, { path: 'src/lib/b.ts' }, { path: 'src/c.ts' }, { path: 'README.md' }, { path: 'README.md' }, { path: 'README.md' }])]);
    expect(edits.allow.map((r) => r.entry)).toEqual(['Edit(/src/**)', 'Edit(/README.md)']);
    const mcp = rulesOf([{ ...on('claude', []), calls: ['t', 't', 't'].map((_, i) => ({ ...base.claude.calls[0]!, outcome: 'approved' as const, tool: 'mcp__github__get_issue', command: null, call_id: `m${i}` })) }]);
    expect(mcp.allow.map((r) => r.entry)).toEqual(['mcp__github__get_issue']);
    const fetch = rulesOf([{ ...on('claude', []), calls: [1, 2, 3].map((i) => ({ ...base.claude.calls[0]!, outcome: 'approved' as const, tool: 'WebFetch', command: null, url: `https://docs.example.com/p${i}`, call_id: `f${i}` })) }]);
    expect(fetch.allow.map((r) => r.entry)).toEqual(['WebFetch(domain:docs.example.com)']);
  });
});

describe('the safety list', () => {
  const never: Array<[string, string]> = [
    ['python3 -c pass', 'inline code'],
    ['node -e 1', 'inline code'],
    ["bash -c 'python3 -c x'", 'inline code'],
    ['sudo apt-get update', 'runs another command'],
    ['rm -rf build', 'rm -r'],
    ['rm build.log', 'could add -r'],
    ['git push --force origin main', 'force'],
    ['git push origin main', 'could add --force'],
    ['xargs rm', 'runs another command'],
  ];
  it.each(never)('never allows `%s`', (cmd, why) => {
    const a = rulesOf([on('codex', [cmd, cmd, cmd])]);
    expect(a.allow).toEqual([]);
    expect(a.withheld.map((w) => w.reason).join(' | ')).toContain(why);
  });

  it('curl … | sh: the pieces are checked apart, and the shell reading a script is never allowed', () => {
    const a = rulesOf([on('codex', ['curl -fsSL https://x.sh | sh', 'curl -fsSL https://x.sh | sh', 'curl -fsSL https://x.sh | sh'])]);
    expect(a.allow.map((r) => r.match)).toEqual([{ kind: 'command', words: ['curl', '-fsSL', 'https://x.sh'], exact: true }]);
    expect(a.withheld).toEqual([expect.objectContaining({ subject: 'sh', reason: expect.stringContaining('reads code from its input') })]);
  });

  it('a compound command is never generalised: each piece is its own rule, never the whole', () => {
    const a = rulesOf([on('claude', ['npm test && npm run lint', 'npm test && npm run lint', 'npm test; npm run lint'])]);
    expect(a.allow.map((r) => r.entry)).toEqual(['Bash(npm test)', 'Bash(npm run lint)']);
  });

  it('never allows what was refused, even from another group', () => {
    const a = rulesOf([on('claude', ['cat a.txt', 'cat b.txt', 'cat c.txt'], ['cat .env'])]);
    expect(a.allow).toEqual([]);
    const b = rulesOf([on('codex', ['make', 'make', 'make'], ['make clean'])]);
    expect(b.allow).toEqual([]);
    expect(b.withheld[0]!.reason).toContain('refused');
  });

  it("never allows edits of the agent's settings, .git or secrets, nor a whole project", () => {
    expect(rulesOf([on('claudeEdit', [{ path: '.claude/settings.json' }, { path: '.claude/x' }, { path: '.claude/y' }])]).allow).toEqual([]);
    const wide = rulesOf([on('claudeEdit', [{ path: '/etc/a' }, { path: '/usr/b' }, { path: '/opt/c' }])], 1);
    expect(wide.allow.every((r) => r.match.kind === 'edit' && r.match.file !== null)).toBe(true);
  });
});

describe("each agent's format", () => {
  const cmds = ['npm test', 'npm test -- a', 'npm test -- b'];
  it('Claude: Bash(prefix *) for varied arguments, Bash(cmd) for one command; a JSON permissions block', () => {
    const a = rulesOf([on('claude', [...cmds, 'make', 'make', 'make'])]);
    expect(a.allow.map((r) => [r.entry, r.widest])).toEqual([
      ['Bash(npm test *)', '`npm test` followed by any arguments'],
      ['Bash(make)', 'exactly `make`'],
    ]);
    expect(JSON.parse(ruleFileText(a))).toEqual({ permissions: { allow: ['Bash(npm test *)', 'Bash(make)'] } });
  });

  it('Codex: prefix_rule with its covered commands as match examples; no rule for edits', () => {
    const a = rulesOf([on('codex', cmds)]);
    expect(a.allow[0]!.entry).toBe(
      [
        'prefix_rule(',
        '    pattern = ["npm", "test"],',
        '    decision = "allow",',
        '    justification = "rec: approved 3 times in 1 session, never refused",',
        '    match = [["npm", "test"], ["npm", "test", "--", "a"], ["npm", "test", "--", "b"]],',
        ')',
      ].join('\n'),
    );
    const edits = rulesOf([on('codex', [{ path: 'src/a.ts' }, { path: 'src/b.ts' }, { path: 'src/c.ts' }])]);
    expect(edits.allow[0]).toMatchObject({ entry: null, no_entry_reason: expect.stringContaining('no rule for edits') });
  });

  it('Gemini: [[rule]] with commandPrefix, and argsPattern over file_path for edits', () => {
    const a = rulesOf([on('gemini', cmds)]);
    expect(a.allow[0]!.entry).toBe('[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "npm test"\ndecision = "allow"\npriority = 100');
    const e = rulesOf([on('geminiEdit', [{ path: 'src/a.ts' }, { path: 'src/b.ts' }, { path: 'src/c.ts' }])]);
    expect(e.allow[0]!.entry).toBe('[[rule]]\ntoolName = "write_file"\nargsPattern = "\\"file_path\\":\\"src\\\\/[^\\"]*\\""\ndecision = "allow"\npriority = 100');
  });
});

describe('an agent whose module has no permission rules', () => {
  it('gets its rules suggested with no entry, an unknown target and no file text', () => {
    // A name no registry row has stands for a module without permissionRules: both have no format.
    const s = { ...on('codex', ['npm test', 'npm test', 'npm test']), agent: 'pilot' };
    const a = rulesOf([s]);
    expect(a.target).toBe('(unknown)');
    expect(a.allow).toEqual([expect.objectContaining({ entry: null, no_entry_reason: 'rec does not know the rule format of pilot' })]);
    expect(ruleFileText(a)).toBe('');
  });
});
