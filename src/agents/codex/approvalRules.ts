// The rules Codex appends to $CODEX_HOME/rules/default.rules for its "always" answers (measured on
// 0.171.0, docs/codex-prompts.md): `prefix_rule(pattern=[…], decision="allow")` for "Yes, and don't
// ask again for commands that start with `…`" at the exec prompt, and `network_rule(host=…, …)` for
// "Yes, and allow this host in the future" at the network prompt. Read back so the approval's event
// can carry the rule text, as the MCP tool's config.toml table is (mcpRules.ts).
import { readFileSync } from 'node:fs';
import { codexPermissionRules, codexRules } from './rules.js';
import type { CodexStrings } from './strings/index.js';

function personalRules(env: NodeJS.ProcessEnv): { readonly file: string; readonly text: string } | undefined {
  const file = codexPermissionRules.personalFile('', env);
  try {
    return { file, text: readFileSync(file, 'utf8') };
  } catch {
    return undefined; // no rules file: no rule
  }
}

/**
 * The last allowing `prefix_rule(…)` of the personal rules file whose pattern is the prefix the
 * option showed: its words joined, or the script of a shell-wrapped pattern (Codex writes
 * `["/bin/bash", "-lc", "<command>"]` for a compound command).
 */
export function prefixApprovalRule(env: NodeJS.ProcessEnv, prefix: string, strings: CodexStrings): string | undefined {
  const rules = personalRules(env);
  if (!rules) return undefined;
  return codexRules(rules.file, rules.text)
    .filter((r) => r.decision === 'allow' && r.match.kind === 'command' && rulePrefix(r.match.words, strings) === prefix)
    .at(-1)?.text;
}

/** A prefix_rule's pattern as Codex shows the prefix: its words joined, or the script of a shell-wrapped pattern. */
export function rulePrefix(words: readonly string[], strings: CodexStrings): string {
  const wrapper = strings.shellWrapper;
  return words.length === 3 && wrapper.shell.test(words[0]!) && words[1] === wrapper.scriptFlag ? words[2]! : words.join(' ');
}

/** The last `network_rule(…)` line of the personal rules file that allows `host`, or undefined. */
export function networkApprovalRule(env: NodeJS.ProcessEnv, host: string): string | undefined {
  const rules = personalRules(env);
  if (!rules) return undefined;
  const text = rules.text;
  const hostArg = new RegExp(`\\bhost\\s*=\\s*${JSON.stringify(host).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'i');
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('network_rule(') && hostArg.test(line) && /\bdecision\s*=\s*"allow"/.test(line))
    .at(-1);
}
