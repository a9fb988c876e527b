// The agents rec knows, as a table: one row per agent module (src/agents/<name>/module.ts). Adding an
// agent is its folder and its row here; every list of agents in rec (argv, help, merge's discovery,
// the order agents are asked about a file) is read from this table, and the tests check theirs
// against it. The order of the rows is the order agents are listed in (help, `rec merge`), never
// who wins a file: agentFromRecord gives an ambiguous answer when two rows are sure of one record.
import { OTHER_AGENT } from '../core/agentNames.js';
import type { AgentModule } from './agentModule.js';
import { claudeModule } from './claude/module.js';
import { codexModule } from './codex/module.js';
import { copilotModule } from './copilot/module.js';
import { geminiModule } from './gemini/module.js';

export const AGENT_MODULES: readonly AgentModule[] = [codexModule, geminiModule, claudeModule, copilotModule];

/** The registered names, in table order. */
export const AGENT_NAMES: readonly string[] = AGENT_MODULES.map((m) => m.name);

const BY_NAME: ReadonlyMap<string, AgentModule> = new Map(AGENT_MODULES.map((m) => [m.name, m]));
if (BY_NAME.size !== AGENT_MODULES.length || BY_NAME.has(OTHER_AGENT)) {
  throw new Error(`agents/registry.ts: names must be unique and not '${OTHER_AGENT}' (${AGENT_NAMES.join(', ')})`);
}

/** The row of a name, or undefined when no agent has it (a name read from argv or a sidecar row). */
export function findAgentModule(name: string): AgentModule | undefined {
  return BY_NAME.get(name);
}

/** The row of a name already known to be registered; any other name is a bug in rec. */
export function agentModule(name: string): AgentModule {
  const m = BY_NAME.get(name);
  if (!m) throw new Error(`no agent '${name}' in agents/registry.ts`);
  return m;
}

/** The stdout answer `rec hook` gives an agent named on its command line (unknown names get nothing). */
export function hookStdoutFor(agent: string | undefined): string {
  return (agent !== undefined && BY_NAME.get(agent)?.hookStdout) || '';
}

/**
 * Which agent wrote a record, from its shape: the one row sure of it, else the one row that finds it
 * likely. Two rows equally sure (or, with none sure, equally likely) is `ambiguous`, whatever the
 * order of the rows: such a record decides nothing, and a file is read by the agent its next
 * deciding record names. Null when no row claims it.
 */
export type RecordAttribution = { readonly agent: string } | { readonly ambiguous: readonly string[] } | null;

export function attributeRecord(record: Readonly<Record<string, unknown>>, rows: readonly AgentModule[] = AGENT_MODULES): RecordAttribution {
  const sure: string[] = [];
  const likely: string[] = [];
  for (const m of rows) {
    const says = m.recordSaysAgent(record);
    if (says === 'sure') sure.push(m.name);
    else if (says === 'likely') likely.push(m.name);
  }
  const claims = sure.length > 0 ? sure : likely;
  if (claims.length === 0) return null;
  return claims.length === 1 ? { agent: claims[0]! } : { ambiguous: claims };
}
