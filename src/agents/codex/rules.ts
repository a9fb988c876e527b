// Codex's permission rules: execpolicy `prefix_rule(…)` and `network_rule(…)` calls in
// $CODEX_HOME/rules/*.rules (Starlark), which match a command by prefix whatever is written; an MCP
// tool's approval is a config.toml table instead.
import { join } from 'node:path';
import { codexHome } from './home.js';
import {
  appendBlocks,
  filesIn,
  noEntry,
  someEntry,
  textReader,
  type Entry,
  type EntryContext,
  type ExistingRule,
  type PermissionRules,
  type RuleDecision,
  type RuleEnv,
  type RuleMatch,
  type WrittenRule,
} from '../common/ruleFormat.js';

const DECISION: Record<RuleDecision, string> = { allow: 'allow', ask: 'prompt', deny: 'forbidden' };

/** A Starlark string: JSON's escapes are Starlark's for printable text. */
function star(text: string): string {
  return JSON.stringify(text);
}

function entry(m: RuleMatch, { decision, examples, justification }: EntryContext): Entry {
  switch (m.kind) {
    case 'command': {
      // Codex checks each `match` example against the rule when it loads the file: a wrong rule
      // fails to load rather than allowing the wrong thing.
      const lines = [
        'prefix_rule(',
        `    pattern = [${m.words.map(star).join(', ')}],`,
        `    decision = ${star(DECISION[decision])},`,
        `    justification = ${star(justification)},`,
      ];
      if (examples.length > 0) lines.push(`    match = [${examples.map((e) => `[${e.map(star).join(', ')}]`).join(', ')}],`);
      lines.push(')');
      return someEntry(lines.join('\n'));
    }
    case 'edit':
      return noEntry('Codex has no rule for edits: its sandbox decides');
    case 'fetch':
      if (decision === 'ask') return noEntry('network_rule has no prompt decision');
      return someEntry(`network_rule(host=${star(m.host)}, protocol="https", decision=${star(decision)})`);
    case 'mcp':
      if (decision !== 'allow') return noEntry('Codex has no deny or ask for one MCP tool');
      // config.toml, not a .rules file; the key is in the 0.169.0 binary, its value unverified.
      return someEntry(`[mcp_servers.${m.server}.tools.${m.tool}]\napproval_mode = "approve"`);
  }
}

const DECISIONS: Record<string, RuleDecision> = { allow: 'allow', prompt: 'ask', forbidden: 'deny' };

/** `prefix_rule(pattern=[…], decision=…)` calls whose pattern is plain words (alternatives are skipped). */
export function codexRules(file: string, text: string): ExistingRule[] {
  const rules: ExistingRule[] = [];
  for (const m of text.matchAll(/prefix_rule\(([\s\S]*?)\)\s*(?:\n|$)/g)) {
    const body = m[1]!;
    const pattern = /pattern\s*=\s*(\[[^\][]*\])/.exec(body)?.[1];
    const decision = DECISIONS[/decision\s*=\s*"(\w+)"/.exec(body)?.[1] ?? 'allow'];
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

function fileText(rules: readonly WrittenRule[]): string {
  if (rules.length === 0) return '';
  // MCP approvals belong in config.toml, not in a .rules file: they are shown commented out.
  return rules.map((r) => (r.match.kind === 'mcp' ? `# in config.toml:\n${r.entry.replace(/^/gm, '# ')}` : r.entry)).join('\n') + '\n';
}

export const codexPermissionRules: PermissionRules = {
  prefixOnly: true,
  target: '$CODEX_HOME/rules/default.rules (~/.codex); MCP lines: config.toml',
  guardedFolders: ['.codex'],
  entry,
  ruleFiles: (_project, env) => filesIn(join(codexHome(env), 'rules'), '.rules').map((file) => ({ file, read: textReader(codexRules) })),
  personalFile: (_project, env) => join(codexHome(env), 'rules', 'default.rules'),
  fileText,
  planWrite: (before, rules) => ({ ok: true, after: appendBlocks(before, fileText(rules), /\n(?=prefix_rule\(|network_rule\(|# in config)/, '\n') }),
};
