// One agent's suggested rules as the text of the file the agent reads them from: the lines
// `--format` prints and `--write` appends.
import type { AgentRules, SuggestedRule } from './ruleTypes.js';

function entries(a: AgentRules): SuggestedRule[] {
  return [...a.deny_or_ask, ...a.allow].filter((r) => r.entry !== null);
}

/** Claude's entries by list: `{ allow: […], ask: […], deny: […] }`, empty lists left out. */
export function claudePermissions(a: AgentRules): Record<string, string[]> {
  const lists: Record<string, string[]> = {};
  for (const r of entries(a)) (lists[r.decision] ??= []).push(r.entry!);
  return lists;
}

/** The rules in the agent's file format; empty when there are none. */
export function ruleFileText(a: AgentRules): string {
  const rules = entries(a);
  if (rules.length === 0) return '';
  if (a.agent === 'claude') return `${JSON.stringify({ permissions: claudePermissions(a) }, null, 2)}\n`;
  if (a.agent === 'codex') {
    // MCP approvals belong in config.toml, not in a .rules file: they are shown commented out.
    return rules.map((r) => (r.match.kind === 'mcp' ? `# in config.toml:\n${r.entry!.replace(/^/gm, '# ')}` : r.entry!)).join('\n') + '\n';
  }
  return rules.map((r) => r.entry!).join('\n\n') + '\n';
}
