// The Gemini CLI's row of the registry (docs/gemini.md): where its chat files live, which
// versions were measured, and how its reasons are given. The launch and recorder load through
// loadAdapter (adapter.ts).
import { join } from 'node:path';
import type { AgentModule } from '../agentModule.js';
import { geminiPermissionRules } from './rules.js';
import { GEMINI_VERSIONS } from './strings/index.js';
import { geminiHome } from './home.js';

function isPlainObject(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export const geminiModule: AgentModule = {
  name: 'gemini',
  displayName: 'Gemini CLI',
  binName: 'gemini',
  binEnvVar: 'REC_GEMINI_BIN',
  packageName: '@google/gemini-cli',
  // Gemini 0.61 parses stdout "as JSON" on exit 0 and turns plain text into a systemMessage; its
  // documented no-op answer is `{}` (empty stdout is accepted too, but `{}` is the prescribed form).
  hookStdout: '{}\n',
  home: geminiHome,
  sessionRoots: (env) => [join(geminiHome(env), 'tmp')],
  isSessionFile: (path) => /\/chats\/session-[^/]*\.jsonl?$/.test(path),
  // Gemini's prompts have no place to type a reason; the user says it in the next message.
  reasonPolicy: 'next_message',
  verifiedVersions: GEMINI_VERSIONS,
  loadAdapter: async () => (await import('./adapter.js')).geminiAdapter,
  loadBench: async () => (await import('./bench/bench.js')).geminiBench,
  pathSaysAgent: (p) => /\/\.gemini\//.test(p) || /^session-.*\.jsonl?$/.test(p.slice(p.lastIndexOf('/') + 1)) || /\/gemini\//.test(p),
  // Sure: the `$set` / `$rewindTo` update lines, the header (projectHash with sessionId), and a
  // message whose type is 'gemini'. A 'user' or 'info' message with an id is a shape others share.
  recordSaysAgent: (record) => {
    const t = record['type'];
    if (isPlainObject(record['$set']) || '$rewindTo' in record) return 'sure';
    if (typeof record['projectHash'] === 'string' && typeof record['sessionId'] === 'string') return 'sure';
    if (typeof record['id'] !== 'string') return null;
    return t === 'gemini' ? 'sure' : t === 'user' || t === 'info' ? 'likely' : null;
  },
  wholeJsonFiles: true,
  loadReader: async () => {
    const { GeminiSessionReader } = await import('./sessionReader.js');
    return (file) => new GeminiSessionReader(file);
  },
  // user content[].text; gemini and info content (a string); functionResponse.response.output.
  loadTools: async () => (await import('./tools.js')).GEMINI_TOOLS,
  rawLiteralKeys: { userText: ['"text":"', '"content":"'], otherText: ['"content":"', '"text":"'], output: ['"output":"'] },
  permissionRules: geminiPermissionRules,
};
