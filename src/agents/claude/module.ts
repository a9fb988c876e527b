// Claude Code's row of the registry (docs/claude.md): where its transcripts live, which
// versions were measured, and how its reasons are given. The launch and recorder load through
// loadAdapter (adapter.ts); `rec merge` reads its transcripts (sessionReader.ts).
import { join } from 'node:path';
import { homedir } from 'node:os';
import type { AgentModule } from '../agentModule.js';
import { CLAUDE_VERSIONS } from './strings/index.js';

export const claudeModule: AgentModule = {
  name: 'claude',
  binName: 'claude',
  binEnvVar: 'REC_CLAUDE_BIN',
  packageName: '@anthropic-ai/claude-code',
  // Claude 2.1: exit 0 with empty stdout is a no-op for every event; printed text may reach the model.
  hookStdout: '',
  sessionRoots: (env) => [join(env['CLAUDE_CONFIG_DIR'] || join(env['HOME'] || homedir(), '.claude'), 'projects')],
  isSessionFile: (path) => path.endsWith('.jsonl'),
  // "No, and tell Claude what to do differently" takes the reason in the prompt itself.
  reasonPolicy: 'inline',
  verifiedVersions: CLAUDE_VERSIONS,
  loadAdapter: async () => (await import('./adapter.js')).claudeAdapter,
  pathSaysAgent: (p) => /\/\.claude\//.test(p) || /\/claude\//.test(p),
  recordSaysAgent: (record) =>
    'parentUuid' in record || 'uuid' in record || 'leafUuid' in record || ['mode', 'permission-mode', 'file-history-snapshot', 'summary'].includes(String(record['type']))
      ? 'sure'
      : null,
  wholeJsonFiles: false,
  loadReader: async () => {
    const [{ ClaudeTranscriptReader }, { subagentOf }] = await Promise.all([import('./sessionReader.js'), import('./subagent.js')]);
    return (file) => new ClaudeTranscriptReader(file, subagentOf(file));
  },
  // user message.content (a string) or its text blocks; assistant text blocks; tool_result.content.
  loadTools: async () => (await import('./tools.js')).CLAUDE_TOOLS,
  rawLiteralKeys: { userText: ['"content":"', '"text":"'], otherText: ['"text":"', '"content":"'], output: ['"content":"', '"text":"'] },
};
