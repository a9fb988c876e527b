// The Codex CLI's row of the registry: where its rollouts live, which versions were measured, and
// how its reasons are given. The launch and recorder load through loadAdapter (index.ts).
import { homedir } from 'node:os';
import { join } from 'node:path';
import { homeOf, type AgentModule } from '../agentModule.js';

/** $CODEX_HOME, else ~/.codex; an empty CODEX_HOME counts as unset, as Codex itself reads it. */
export function codexHome(env: NodeJS.ProcessEnv): string {
  return env['CODEX_HOME'] || join(homeOf(env, homedir), '.codex');
}

export const codexModule: AgentModule = {
  name: 'codex',
  binName: 'codex',
  binEnvVar: 'REC_CODEX_BIN',
  installHint: 'npm install -g @openai/codex',
  sessionRoots: (env) => [join(codexHome(env), 'sessions')],
  isSessionFile: (path) => /^rollout-.*\.jsonl$/.test(path.slice(path.lastIndexOf('/') + 1)),
  // Codex's prompts have no place to type a reason ("No, and tell Codex what to do differently" ends the turn).
  reasonPolicy: 'next_message',
  loadAdapter: async () => (await import('./index.js')).codexAdapter,
};
