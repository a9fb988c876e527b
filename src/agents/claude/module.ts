// Claude Code's row of the registry (docs/claude.md): where its transcripts live, which
// versions were measured, and how its reasons are given. The launch and recorder load through
// loadAdapter (adapter.ts); `rec merge` reads its transcripts (sessionReader.ts).
import { join } from 'node:path';
import { claudeHome } from './home.js';
import type { AgentModule } from '../agentModule.js';
import { claudePermissionRules } from './rules.js';
import { CLAUDE_VERSIONS } from './strings/index.js';

/** Bookkeeping line types of 2.1.x that carry no parentUuid (sessionRecords.ts counts them). */
const BOOKKEEPING_TYPES: ReadonlySet<string> = new Set([
  'mode', 'permission-mode', 'atis-latch', 'file-history-snapshot', 'file-history-delta', 'api-request-shape', 'api-request-blob',
  'api-request', 'tools-used', 'cost-state', 'queue-operation', 'custom-title',
]);

export const claudeModule: AgentModule = {
  name: 'claude',
  displayName: 'Claude Code',
  binName: 'claude',
  binEnvVar: 'REC_CLAUDE_BIN',
  packageName: '@anthropic-ai/claude-code',
  // Claude 2.1: exit 0 with empty stdout is a no-op for every event; printed text may reach the model.
  hookStdout: '',
  home: claudeHome,
  sessionRoots: (env) => [join(claudeHome(env), 'projects')],
  isSessionFile: (path) => path.endsWith('.jsonl'),
  // "No, and tell Claude what to do differently" takes the reason in the prompt itself.
  reasonPolicy: 'inline',
  verifiedVersions: CLAUDE_VERSIONS,
  loadAdapter: async () => (await import('./adapter.js')).claudeAdapter,
  loadBench: async () => (await import('./bench/bench.js')).claudeBench,
  pathSaysAgent: (p) => /\/\.claude\//.test(p) || /\/claude\//.test(p),
  // Sure: a conversation record (parentUuid, null or not, beside the isSidechain flag) or a summary
  // or last-prompt naming its leafUuid. A bare `uuid` is not enough: any format may carry one.
  // The bookkeeping lines (mode, cost-state…) have types another agent could use: likely.
  recordSaysAgent: (record) => {
    const t = record['type'];
    if ('parentUuid' in record && typeof record['isSidechain'] === 'boolean') return 'sure';
    if (typeof record['leafUuid'] === 'string' && (t === 'summary' || t === 'last-prompt')) return 'sure';
    return typeof t === 'string' && BOOKKEEPING_TYPES.has(t) ? 'likely' : null;
  },
  wholeJsonFiles: false,
  loadReader: async () => {
    const [{ ClaudeTranscriptReader }, { subagentOf }] = await Promise.all([import('./sessionReader.js'), import('./subagent.js')]);
    return (file) => new ClaudeTranscriptReader(file, subagentOf(file));
  },
  // user message.content (a string) or its text blocks; assistant text blocks; tool_result.content.
  loadTools: async () => (await import('./tools.js')).CLAUDE_TOOLS,
  rawLiteralKeys: { userText: ['"content":"', '"text":"'], otherText: ['"text":"', '"content":"'], output: ['"content":"', '"text":"'] },
  permissionRules: claudePermissionRules,
};
