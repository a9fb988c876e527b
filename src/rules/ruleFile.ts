// One agent's suggested rules as the text of the file the agent reads them from: the lines
// `--format` prints and `--write` appends, written by the agent's rule format.
import type { WrittenRule } from '../agents/common/ruleFormat.js';
import { rulesOf } from './agentFormats.js';
import type { AgentRules } from './ruleTypes.js';

/** The rules that have an entry in the agent's format, stops first. */
export function writtenRules(a: AgentRules): WrittenRule[] {
  return [...a.deny_or_ask, ...a.allow].flatMap((r) => (r.entry === null ? [] : [{ decision: r.decision, match: r.match, entry: r.entry }]));
}

/** The rules in the agent's file format; empty when there are none (or the agent has no format). */
export function ruleFileText(a: AgentRules): string {
  return rulesOf(a.agent)?.fileText(writtenRules(a), a.project) ?? '';
}
