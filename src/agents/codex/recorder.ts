// The Codex recorder: the shared recorder (agents/common/agentRecorder.ts) with Codex's profile.
import type { RecorderContext } from '../agentAdapter.js';
import { AgentRecorder, type AgentRecorderOptions } from '../common/agentRecorder.js';
import { CodexProfile, type CodexPromptView } from './profile.js';

export class CodexRecorder extends AgentRecorder<CodexPromptView> {
  constructor(ctx: RecorderContext, options: AgentRecorderOptions = {}) {
    super(ctx, new CodexProfile(ctx), options);
  }
}
