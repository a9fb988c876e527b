// The rule Codex writes for "Yes, and allow this host in the future" at its network prompt: a
// `network_rule(host = …, protocol = …, decision = "allow", …)` line appended to
// $CODEX_HOME/rules/default.rules (measured on 0.171.0, docs/codex-prompts.md). Read back so the
// approval's event can carry the rule text, as the MCP tool's config.toml table is (mcpRules.ts).
import { readFileSync } from 'node:fs';
import { codexPermissionRules } from './rules.js';

/** The last `network_rule(…)` line of the personal rules file that allows `host`, or undefined. */
export function networkApprovalRule(env: NodeJS.ProcessEnv, host: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(codexPermissionRules.personalFile('', env), 'utf8');
  } catch {
    return undefined; // no rules file: no rule
  }
  const hostArg = new RegExp(`\\bhost\\s*=\\s*${JSON.stringify(host).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'i');
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('network_rule(') && hostArg.test(line) && /\bdecision\s*=\s*"allow"/.test(line))
    .at(-1);
}
