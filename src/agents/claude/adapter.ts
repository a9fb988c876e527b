// The Claude Code adapter: launch with a known session and rec's hooks, then record from screen,
// keys, transcript and hooks. Only the launch is loaded before Claude starts; the recorder, with its
// schemas and parsers, is loaded right after, so Claude appears as fast as it would bare.
import type { AgentAdapter } from '../agentModule.js';
import { prepareClaudeLaunch } from './launch.js';
import { claudeModule } from './module.js';

export const claudeAdapter: AgentAdapter = {
  module: claudeModule,
  prepareLaunch: (ctx) => prepareClaudeLaunch(ctx),
  createRecorder: async (ctx) => new (await import('./recorder.js')).ClaudeRecorder(ctx),
};
