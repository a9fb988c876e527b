// The Codex CLI adapter: launch, then record from screen, keys, rollout (and hooks when enabled).
// Only the launch is loaded before Codex starts; the recorder, with its schemas and parsers, is
// loaded right after, so Codex appears as fast as it would bare.
import type { AgentAdapter } from '../agentModule.js';
import { prepareCodexLaunch } from './launch.js';
import { codexModule } from './module.js';

export const codexAdapter: AgentAdapter = {
  module: codexModule,
  prepareLaunch: prepareCodexLaunch,
  createRecorder: async (ctx) => new (await import('./recorder.js')).CodexRecorder(ctx),
};
