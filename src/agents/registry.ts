// The adapters, loaded on demand so that `rec <agent>` loads only its own.
import type { AgentAdapter } from './agentAdapter.js';
import type { KnownAgent } from '../core/agentNames.js';
import { passiveAdapter } from './passiveAdapter.js';

export async function loadAdapter(agent: KnownAgent): Promise<AgentAdapter> {
  switch (agent) {
    case 'codex':
      return (await import('./codex/index.js')).codexAdapter;
    case 'gemini':
      return passiveAdapter({ name: 'gemini', binName: 'gemini', binEnvVar: 'REC_GEMINI_BIN', installHint: 'npm install -g @google/gemini-cli' });
    case 'claude':
      return passiveAdapter({ name: 'claude', binName: 'claude', binEnvVar: 'REC_CLAUDE_BIN', installHint: 'npm install -g @anthropic-ai/claude-code' });
  }
}
