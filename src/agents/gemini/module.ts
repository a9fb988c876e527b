// The Gemini CLI's row of the registry (../shared/agents/gemini). Its recorder is not written yet
// (issue 13): `rec gemini` runs as a recorded passthrough, and `rec merge` reads its sessions.
import { join } from 'node:path';
import { homedir } from 'node:os';
import type { AgentModule } from '../agentModule.js';

export const geminiModule: AgentModule = {
  name: 'gemini',
  binName: 'gemini',
  binEnvVar: 'REC_GEMINI_BIN',
  installHint: 'npm install -g @google/gemini-cli',
  // Gemini 0.61 parses stdout "as JSON" on exit 0 and turns plain text into a systemMessage; its
  // documented no-op answer is `{}` (empty stdout is accepted too, but `{}` is the prescribed form).
  hookStdout: '{}\n',
  sessionRoots: (env) => [join(env['HOME'] || homedir(), '.gemini', 'tmp')],
  isSessionFile: (path) => /\/chats\/session-[^/]*\.jsonl?$/.test(path),
  // Gemini's prompts have no place to type a reason; the user says it in the next message.
  reasonPolicy: 'next_message',
  verifiedVersions: ['0.61.0'],
  loadAdapter: async () => (await import('../passiveAdapter.js')).passiveAdapter(geminiModule),
  pathSaysAgent: (p) => /\/\.gemini\//.test(p) || /^session-.*\.jsonl?$/.test(p.slice(p.lastIndexOf('/') + 1)) || /\/gemini\//.test(p),
  recordSaysAgent: (record) => {
    if ('$set' in record || '$rewindTo' in record || 'projectHash' in record) return 'sure';
    const t = record['type'];
    return typeof record['id'] === 'string' && (t === 'user' || t === 'gemini' || t === 'info') ? 'likely' : null;
  },
  wholeJsonFiles: true,
  loadReader: async () => {
    const { GeminiSessionReader } = await import('./sessionReader.js');
    return (file) => new GeminiSessionReader(file);
  },
  // user content[].text; gemini and info content (a string); functionResponse.response.output.
  loadTools: async () => (await import('./tools.js')).GEMINI_TOOLS,
  rawLiteralKeys: { userText: ['"text":"', '"content":"'], otherText: ['"content":"', '"text":"'], output: ['"output":"'] },
};
