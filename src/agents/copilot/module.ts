// GitHub Copilot CLI's row of the registry (docs/copilot.md): where its events.jsonl files live,
// which versions were measured, and how its reasons are given. The launch and recorder load
// through loadAdapter (adapter.ts).
import type { AgentModule } from '../agentModule.js';
import { copilotHome, copilotSessionRoots, isCopilotSessionFile, pathSaysCopilot } from './home.js';
import { recordSaysCopilot } from './recordTypes.js';
import { copilotPermissionRules } from './rules.js';
import { COPILOT_VERSIONS } from './strings/index.js';

export const copilotModule: AgentModule = {
  name: 'copilot',
  displayName: 'GitHub Copilot CLI',
  binName: 'copilot',
  binEnvVar: 'REC_COPILOT_BIN',
  packageName: '@github/copilot',
  // rec installs no hook of Copilot's (none carries a call id, docs/copilot.md §8); `rec hook` is
  // never run by it, and an observing hook that prints nothing is what Copilot expects anyway.
  hookStdout: '',
  home: copilotHome,
  sessionRoots: copilotSessionRoots,
  isSessionFile: isCopilotSessionFile,
  // "No, and tell Copilot what to do differently" opens a field at the prompt: the reason is typed there.
  reasonPolicy: 'inline',
  verifiedVersions: COPILOT_VERSIONS,
  loadAdapter: async () => (await import('./adapter.js')).copilotAdapter,
  loadBench: async () => (await import('./bench/bench.js')).copilotBench,
  pathSaysAgent: pathSaysCopilot,
  recordSaysAgent: recordSaysCopilot,
  wholeJsonFiles: false,
  loadReader: async () => {
    const { CopilotEventsReader } = await import('./sessionReader.js');
    return (file) => new CopilotEventsReader(file);
  },
  loadTools: async () => (await import('./tools.js')).COPILOT_TOOLS,
  // user.message and assistant.message data.content; tool.execution_complete result.content.
  rawLiteralKeys: { userText: ['"content":"'], otherText: ['"content":"'], output: ['"content":"'] },
  permissionRules: copilotPermissionRules,
};
