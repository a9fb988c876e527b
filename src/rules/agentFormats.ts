// Each suggestion in the agent's own format, as the pinned versions read it: the agent module's
// permissionRules write it (src/agents/<name>/rules.ts); an agent without them has no rule format.
import { AGENT_MODULES, findAgentModule } from '../agents/registry.js';
import { noEntry, type Entry, type EntryContext, type PermissionRules } from '../agents/common/ruleFormat.js';
import type { RuleMatch } from './ruleTypes.js';

export type { Entry, EntryContext } from '../agents/common/ruleFormat.js';

/** The agent's rule format, or undefined when rec knows none (or no such agent). */
export function rulesOf(agent: string): PermissionRules | undefined {
  return findAgentModule(agent)?.permissionRules;
}

export function agentEntry(agent: string, m: RuleMatch, ctx: EntryContext): Entry {
  return rulesOf(agent)?.entry(m, ctx) ?? noEntry(`rec does not know the rule format of ${agent}`);
}

/** Where each agent reads the rules rec suggests (the file `--write` appends to). */
export function targetOf(agent: string): string {
  return rulesOf(agent)?.target ?? '(unknown)';
}

/** Whether this agent's command rules always match by prefix (no exact form); so for an unknown format. */
export function prefixOnly(agent: string): boolean {
  return rulesOf(agent)?.prefixOnly ?? true;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * Files whose editing changes what an agent may do, or holds secrets: git's folder, ssh's, every
 * registered agent's settings folders (whichever agent edits them), and .env files.
 */
export const GUARDED_PATH: RegExp = new RegExp(
  `(^|/)(${['.git', ...AGENT_MODULES.flatMap((m) => m.permissionRules?.guardedFolders ?? []), '.ssh'].map(escape).join('|')})(/|$)|(^|/)\\.env[^/]*$`,
);
