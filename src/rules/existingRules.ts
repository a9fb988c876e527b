// The agent's own rule files, read where rec can read them, and checked against what the user did:
// an allow rule that covers a refused command conflicts with it, a deny rule that covers an
// approved one too, and a rule no call of the sessions matched was never needed there. Only
// command rules are checked; a file that cannot be read is named with the reason.
import { readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Occurrence } from './groupCalls.js';
import { covers, subjectText } from './ruleMatch.js';
import type { AgentRules, RuleDecision, RuleMatch, RulesReport } from './ruleTypes.js';

export interface ExistingRule {
  file: string;
  text: string;
  decision: RuleDecision;
  match: RuleMatch;
}

interface Where {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}

type Read = { rules: ExistingRule[]; error: string | null };

function home(env: Where['env']): string {
  return env.HOME ?? homedir();
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** `Bash(npm test *)`, `Bash(npm run test:*)` (prefixes) or `Bash(git status)` (exact). */
export function claudeBashMatch(rule: string): RuleMatch | null {
  const m = /^Bash\((.+)\)$/.exec(rule.trim());
  if (m === null) return null;
  const body = m[1]!;
  const prefix = /(?: \*|:\*)$/.exec(body);
  const words = (prefix ? body.slice(0, prefix.index) : body).split(/\s+/).filter((w) => w !== '');
  return words.length === 0 || words.some((w) => w.includes('*')) ? null : { kind: 'command', words, exact: prefix === null };
}

function readClaude(file: string): Read {
  const text = readText(file);
  if (text === null) return { rules: [], error: null };
  const doc: unknown = JSON.parse(text);
  const perms = (doc as { permissions?: Record<string, unknown> } | null)?.permissions ?? {};
  const rules: ExistingRule[] = [];
  for (const decision of ['allow', 'ask', 'deny'] as const) {
    const list = perms[decision];
    if (!Array.isArray(list)) continue;
    for (const r of list) {
      const match = typeof r === 'string' ? claudeBashMatch(r) : null;
      if (match !== null) rules.push({ file, text: r as string, decision, match });
    }
  }
  return { rules, error: null };
}

const CODEX_DECISIONS: Record<string, RuleDecision> = { allow: 'allow', prompt: 'ask', forbidden: 'deny' };

/** `prefix_rule(pattern=[…], decision=…)` calls whose pattern is plain words (alternatives are skipped). */
export function codexRules(file: string, text: string): ExistingRule[] {
  const rules: ExistingRule[] = [];
  for (const m of text.matchAll(/prefix_rule\(([\s\S]*?)\)\s*(?:\n|$)/g)) {
    const body = m[1]!;
    const pattern = /pattern\s*=\s*(\[[^\][]*\])/.exec(body)?.[1];
    const decision = CODEX_DECISIONS[/decision\s*=\s*"(\w+)"/.exec(body)?.[1] ?? 'allow'];
    if (pattern === undefined || decision === undefined) continue;
    let words: unknown;
    try {
      words = JSON.parse(pattern);
    } catch {
      continue;
    }
    if (!Array.isArray(words) || words.length === 0 || !words.every((w) => typeof w === 'string')) continue;
    rules.push({ file, text: m[0].trim().replace(/\s+/g, ' '), decision, match: { kind: 'command', words: words as string[], exact: false } });
  }
  return rules;
}

const GEMINI_DECISIONS: Record<string, RuleDecision> = { allow: 'allow', ask_user: 'ask', deny: 'deny' };

/** `[[rule]]` tables of run_shell_command with a commandPrefix (a string or a list of them). */
export function geminiRules(file: string, text: string): ExistingRule[] {
  const rules: ExistingRule[] = [];
  for (const block of text.split(/^\s*\[\[rule\]\]\s*$/m).slice(1)) {
    const field = (k: string): string | undefined => new RegExp(`^\\s*${k}\\s*=\\s*(.+?)\\s*$`, 'm').exec(block.split(/^\s*\[/m)[0]!)?.[1];
    const decision = GEMINI_DECISIONS[JSON.parse(field('decision') ?? '""') as string];
    if (field('toolName') !== '"run_shell_command"' || decision === undefined) continue;
    let prefixes: unknown = JSON.parse(field('commandPrefix') ?? 'null');
    if (typeof prefixes === 'string') prefixes = [prefixes];
    if (!Array.isArray(prefixes)) continue;
    for (const p of prefixes) {
      if (typeof p !== 'string' || p.trim() === '') continue;
      rules.push({ file, text: `commandPrefix = ${JSON.stringify(p)}, decision = "${decision}"`, decision, match: { kind: 'command', words: p.trim().split(/\s+/), exact: false } });
    }
  }
  return rules;
}

function filesIn(dir: string, ext: string): string[] {
  try {
    return readdirSync(dir).filter((f) => f.endsWith(ext)).sort().map((f) => join(dir, f));
  } catch {
    return [];
  }
}

function ruleFiles(agent: string, project: string, where: Where): Array<{ file: string; read: (f: string) => Read }> {
  const text = (parse: (f: string, t: string) => ExistingRule[]) => (f: string): Read => {
    const t = readText(f);
    return { rules: t === null ? [] : parse(f, t), error: null };
  };
  if (agent === 'claude') {
    const user = where.env.CLAUDE_CONFIG_DIR ?? join(home(where.env), '.claude');
    return [join(project, '.claude', 'settings.local.json'), join(project, '.claude', 'settings.json'), join(user, 'settings.json')].map((file) => ({ file, read: readClaude }));
  }
  if (agent === 'codex') return filesIn(join(where.env.CODEX_HOME ?? join(home(where.env), '.codex'), 'rules'), '.rules').map((file) => ({ file, read: text(codexRules) }));
  if (agent === 'gemini') return filesIn(join(home(where.env), '.gemini', 'policies'), '.toml').map((file) => ({ file, read: text(geminiRules) }));
  return [];
}

function findings(a: AgentRules, rules: readonly ExistingRule[], calls: readonly Occurrence[]): void {
  for (const r of rules) {
    const hit = calls.filter((o) => covers(r.match, o.subject, a.agent));
    const refused = hit.find((o) => o.outcome === 'refused');
    const approved = hit.find((o) => o.outcome === 'approved');
    if (r.decision === 'allow' && refused !== undefined) {
      a.existing.push({ agent: a.agent, file: r.file, rule: r.text, decision: r.decision, finding: 'conflict', detail: `allows \`${subjectText(refused.subject)}\`, which was refused` });
    } else if (r.decision === 'deny' && approved !== undefined) {
      a.existing.push({ agent: a.agent, file: r.file, rule: r.text, decision: r.decision, finding: 'conflict', detail: `denies \`${subjectText(approved.subject)}\`, which was approved` });
    } else if (hit.length === 0) {
      a.existing.push({ agent: a.agent, file: r.file, rule: r.text, decision: r.decision, finding: 'never_needed', detail: 'no call of these sessions matched it' });
    }
  }
}

/** Fills each agent's `existing` and `rule_files` from the rule files found. */
export function checkExistingRules(report: RulesReport, calls: (agent: string) => Occurrence[], where: Where): void {
  for (const a of report.agents) {
    const rules: ExistingRule[] = [];
    for (const { file, read } of ruleFiles(a.agent, a.project ?? where.cwd, where)) {
      try {
        const r = read(file);
        rules.push(...r.rules);
        if (r.rules.length > 0) a.rule_files.push({ file, error: null });
      } catch (err) {
        a.rule_files.push({ file, error: err instanceof Error ? err.message.split('\n')[0]! : String(err) });
      }
    }
    findings(a, rules, calls(a.agent));
  }
}
