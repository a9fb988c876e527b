// The GitHub Copilot CLI adapter: launch, then record from screen, keys and events.jsonl. Only the
// launch is loaded before Copilot starts; the recorder, with its schemas and parsers, right after.
import type { AgentAdapter } from '../agentModule.js';
import { prepareCopilotLaunch } from './launch.js';
import { copilotModule } from './module.js';

export const copilotAdapter: AgentAdapter = {
  module: copilotModule,
  prepareLaunch: prepareCopilotLaunch,
  createRecorder: async (ctx) => new (await import('./recorder.js')).CopilotRecorder(ctx),
};
