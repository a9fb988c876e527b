// The Codex CLI's row of the registry: where its rollouts live, which versions were measured, and
// how its reasons are given. The launch and recorder load through loadAdapter (adapter.ts).
import { join } from 'node:path';
import type { AgentModule } from '../agentModule.js';
import { codexHome } from './home.js';
import { codexPermissionRules } from './rules.js';
import { CODEX_VERSIONS } from './strings/index.js';


/**
 * The rollout's line types (RolloutItem): a line of one of these with an object `payload` is Codex's.
 * Any `{type, payload}` line is only likely: other formats wrap records that way too.
 */
const ROLLOUT_TYPES: ReadonlySet<string> = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted', 'world_state', 'token_usage_record']);

export const codexModule: AgentModule = {
  name: 'codex',
  displayName: 'Codex',
  binName: 'codex',
  binEnvVar: 'REC_CODEX_BIN',
  packageName: '@openai/codex',
  // Codex 0.169 (Claude-style hooks.json): plain stdout from SessionStart/UserPromptSubmit hooks is
  // added to the model's context, so anything printed would leak into the conversation.
  hookStdout: '',
  home: codexHome,
  sessionRoots: (env) => [join(codexHome(env), 'sessions')],
  isSessionFile: (path) => /^rollout-.*\.jsonl$/.test(path.slice(path.lastIndexOf('/') + 1)),
  // Codex's prompts have no place to type a reason ("No, and tell Codex what to do differently" ends the turn).
  reasonPolicy: 'next_message',
  verifiedVersions: CODEX_VERSIONS,
  loadAdapter: async () => (await import('./adapter.js')).codexAdapter,
  loadBench: async () => (await import('./bench/bench.js')).codexBench,
  pathSaysAgent: (p) => /\/\.codex\//.test(p) || /^rollout-.*\.jsonl$/.test(p.slice(p.lastIndexOf('/') + 1)) || /\/codex\//.test(p),
  recordSaysAgent: (record) => {
    const payload = record['payload'];
    const type = record['type'];
    if (typeof payload !== 'object' || payload === null || typeof type !== 'string') return null;
    return ROLLOUT_TYPES.has(type) ? 'sure' : 'likely';
  },
  wholeJsonFiles: false,
  loadReader: async () => {
    const { CodexRolloutReader } = await import('./sessionReader.js');
    return (file) => new CodexRolloutReader(file);
  },
  // response_item message content[].text; function_call_output.output (a string, or {content}).
  loadTools: async () => (await import('./tools.js')).CODEX_TOOLS,
  rawLiteralKeys: { userText: ['"text":"'], otherText: ['"text":"'], output: ['"output":"', '"content":"'] },
  permissionRules: codexPermissionRules,
};
