// Claude Code's row of the registry (../shared/agents/claude). Its recorder is not written yet
// (issue 14): `rec claude` runs as a recorded passthrough, and `rec merge` reads its transcripts.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { homeOf, type AgentModule } from '../agentModule.js';
import { passiveAdapter } from '../passiveAdapter.js';

export const claudeModule: AgentModule = {
  name: 'claude',
  binName: 'claude',
  binEnvVar: 'REC_CLAUDE_BIN',
  installHint: 'npm install -g @anthropic-ai/claude-code',
  sessionRoots: (env) => [join(env['CLAUDE_CONFIG_DIR'] || join(homeOf(env, homedir), '.claude'), 'projects')],
  isSessionFile: (path) => path.endsWith('.jsonl'),
  // "No, and tell Claude what to do differently" takes the reason in the prompt itself.
  reasonPolicy: 'inline',
  loadAdapter: async () => passiveAdapter(claudeModule),
};
