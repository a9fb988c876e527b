// The agents rec knows, as a table: one row per agent module (src/agents/<name>/module.ts). A new
// agent adds its folder, its row here and its name to core/agentNames.ts; nothing else names it.
import type { KnownAgent } from '../core/agentNames.js';
import type { AgentModule } from './agentModule.js';
import { claudeModule } from './claude/module.js';
import { codexModule } from './codex/module.js';
import { geminiModule } from './gemini/module.js';

export const AGENT_MODULES: Readonly<Record<KnownAgent, AgentModule>> = {
  codex: codexModule,
  gemini: geminiModule,
  claude: claudeModule,
};

export function agentModule(agent: KnownAgent): AgentModule {
  return AGENT_MODULES[agent];
}

/** The stdout answer `rec hook` gives an agent named on its command line (unknown names get nothing). */
export function hookStdoutFor(agent: string | undefined): string {
  return agent !== undefined && Object.hasOwn(AGENT_MODULES, agent) ? AGENT_MODULES[agent as KnownAgent].hookStdout : '';
}
