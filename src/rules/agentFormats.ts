// Each suggestion in the agent's own format, as the pinned versions read it: Claude Code's
// permissions.allow / ask / deny strings, Codex's execpolicy `prefix_rule(…)` and `network_rule(…)`,
// and Gemini CLI's `[[rule]]` policy tables.
import type { RuleDecision, RuleMatch } from './ruleTypes.js';

export type Entry = { entry: string; reason: null } | { entry: null; reason: string };

/** Words Claude's `Bash(…)` pattern can hold as written: no quotes, globs or parentheses to escape. */
const BARE_WORD = /^[\w@%+=:,./-]+$/;

const none = (reason: string): Entry => ({ entry: null, reason });
const some = (entry: string): Entry => ({ entry, reason: null });

function claudeEntry(m: RuleMatch): Entry {
  switch (m.kind) {
    case 'command':
      if (!m.words.every((w) => BARE_WORD.test(w))) return none('a word holds quotes or special characters that a Bash(…) pattern would misread');
      return some(`Bash(${m.words.join(' ')}${m.exact ? '' : ' *'})`);
    case 'edit': {
      // `/x` is x in the folder of the settings file (the project); `//x` the absolute /x.
      return some(`Edit(/${m.file ?? `${m.dir}/**`})`);
    }
    case 'fetch':
      return some(`WebFetch(domain:${m.host})`);
    case 'mcp':
      return some(`mcp__${m.server}__${m.tool}`);
  }
}

const CODEX_DECISION: Record<RuleDecision, string> = { allow: 'allow', ask: 'prompt', deny: 'forbidden' };

/** A Starlark string: JSON's escapes are Starlark's for printable text. */
function star(text: string): string {
  return JSON.stringify(text);
}

function codexEntry(m: RuleMatch, decision: RuleDecision, examples: ReadonlyArray<readonly string[]>, justification: string): Entry {
  switch (m.kind) {
    case 'command': {
      // Codex checks each `match` example against the rule when it loads the file: a wrong rule
      // fails to load rather than allowing the wrong thing.
      const lines = [
        'prefix_rule(',
        `    pattern = [${m.words.map(star).join(', ')}],`,
        `    decision = ${star(CODEX_DECISION[decision])},`,
        `    justification = ${star(justification)},`,
      ];
      if (examples.length > 0) lines.push(`    match = [${examples.map((e) => `[${e.map(star).join(', ')}]`).join(', ')}],`);
      lines.push(')');
      return some(lines.join('\n'));
    }
    case 'edit':
      return none('Codex has no rule for edits: its sandbox decides');
    case 'fetch':
      if (decision === 'ask') return none('network_rule has no prompt decision');
      return some(`network_rule(host=${star(m.host)}, protocol="https", decision=${star(decision)})`);
    case 'mcp':
      if (decision !== 'allow') return none('Codex has no deny or ask for one MCP tool');
      // config.toml, not a .rules file; the key is in the 0.169.0 binary, its value unverified.
      return some(`[mcp_servers.${m.server}.tools.${m.tool}]\napproval_mode = "approve"`);
  }
}

const GEMINI_DECISION: Record<RuleDecision, string> = { allow: 'allow', ask: 'ask_user', deny: 'deny' };
/** Above an allow, a deny or ask wins; all below the 950 of Gemini's own "allow always" rules. */
const GEMINI_PRIORITY: Record<RuleDecision, number> = { allow: 100, ask: 200, deny: 300 };

function toml(text: string): string {
  return JSON.stringify(text);
}

function regexEscape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function geminiRule(fields: string[], decision: RuleDecision): string {
  return ['[[rule]]', ...fields, `decision = ${toml(GEMINI_DECISION[decision])}`, `priority = ${GEMINI_PRIORITY[decision]}`].join('\n');
}

function geminiEntry(m: RuleMatch, decision: RuleDecision, tools: readonly string[], cwd: string | null): Entry {
  switch (m.kind) {
    case 'command':
      return some(geminiRule([`toolName = "run_shell_command"`, `commandPrefix = ${toml(m.words.join(' '))}`], decision));
    case 'edit': {
      // argsPattern is a regex over the call's arguments as JSON; file_path may be absolute.
      const base = m.in_project && cwd !== null ? `(${regexEscape(`${cwd}/`)})?` : '';
      const path = m.file !== null ? `${regexEscape(m.file)}"` : `${regexEscape(`${m.dir}/`)}[^"]*"`;
      const pattern = `"file_path":"${base}${path}`;
      return some(tools.map((t) => geminiRule([`toolName = ${toml(t)}`, `argsPattern = ${toml(pattern)}`], decision)).join('\n\n'));
    }
    case 'fetch':
      return none('Gemini CLI has no domain syntax for web_fetch (its one argument is a prompt)');
    case 'mcp':
      return some(geminiRule([`mcpName = ${toml(m.server)}`, `toolName = ${toml(m.tool)}`], decision));
  }
}

export interface EntryContext {
  decision: RuleDecision;
  tools: readonly string[];
  /** Commands the rule covers, as words: Codex's `match` examples. */
  examples: ReadonlyArray<readonly string[]>;
  justification: string;
  cwd: string | null;
}

export function agentEntry(agent: string, m: RuleMatch, ctx: EntryContext): Entry {
  if (agent === 'claude') return claudeEntry(m);
  if (agent === 'codex') return codexEntry(m, ctx.decision, ctx.examples, ctx.justification);
  if (agent === 'gemini') return geminiEntry(m, ctx.decision, ctx.tools, ctx.cwd);
  return none(`rec does not know the rule format of ${agent}`);
}

/** Where each agent reads the rules rec suggests (the file `--write` appends to). */
export function targetOf(agent: string): string {
  if (agent === 'claude') return '.claude/settings.local.json in the project: permissions.allow, ask, deny';
  if (agent === 'codex') return '$CODEX_HOME/rules/default.rules (~/.codex); MCP lines: config.toml';
  if (agent === 'gemini') return '~/.gemini/policies/rec-rules.toml';
  return '(unknown)';
}
