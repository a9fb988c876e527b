// The Codex CLI adapter: launch with per-run hooks, record from screen, keys, rollout and hooks.
import type { AgentAdapter } from '../agentAdapter.js';
import { CodexRecorder } from './codexRecorder.js';
import { prepareCodexLaunch } from './launch.js';

export const codexAdapter: AgentAdapter = {
  name: 'codex',
  binName: 'codex',
  binEnvVar: 'REC_CODEX_BIN',
  installHint: 'npm install -g @openai/codex',
  prepareLaunch: prepareCodexLaunch,
  createRecorder: (ctx) => new CodexRecorder(ctx),
};

export { CodexRecorder } from './codexRecorder.js';
export { codexHookArgs, codexHookHash, codexHookStateKey } from './hookWiring.js';
