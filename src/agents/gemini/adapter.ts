// The Gemini CLI adapter: launch, then record from screen, keys, the chat file (and hooks when the
// system settings layer takes them). Only the launch is loaded before Gemini starts; the recorder,
// with its schemas and parsers, is loaded right after.
import type { AgentAdapter } from '../agentModule.js';
import { prepareGeminiLaunch } from './launch.js';
import { geminiModule } from './module.js';

export const geminiAdapter: AgentAdapter = {
  module: geminiModule,
  prepareLaunch: prepareGeminiLaunch,
  createRecorder: async (ctx) => new (await import('./recorder.js')).GeminiRecorder(ctx),
};
