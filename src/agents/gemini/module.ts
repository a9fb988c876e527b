// The Gemini CLI's row of the registry (../shared/agents/gemini). Its recorder is not written yet
// (issue 13): `rec gemini` runs as a recorded passthrough, and `rec merge` reads its sessions.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { homeOf, type AgentModule } from '../agentModule.js';
import { passiveAdapter } from '../passiveAdapter.js';

export const geminiModule: AgentModule = {
  name: 'gemini',
  binName: 'gemini',
  binEnvVar: 'REC_GEMINI_BIN',
  installHint: 'npm install -g @google/gemini-cli',
  sessionRoots: (env) => [join(homeOf(env, homedir), '.gemini', 'tmp')],
  isSessionFile: (path) => /\/chats\/session-[^/]*\.jsonl?$/.test(path),
  // Gemini's prompts have no place to type a reason; the user says it in the next message.
  reasonPolicy: 'next_message',
  loadAdapter: async () => passiveAdapter(geminiModule),
};
