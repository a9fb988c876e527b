// The Gemini CLI recorder: the shared recorder (agents/common/agentRecorder.ts) with Gemini's profile.
import type { RecorderContext } from '../agentAdapter.js';
import { AgentRecorder, type AgentRecorderOptions } from '../common/agentRecorder.js';
import { GeminiProfile, type GeminiPromptView } from './profile.js';

export class GeminiRecorder extends AgentRecorder<GeminiPromptView> {
  constructor(ctx: RecorderContext, options: AgentRecorderOptions = {}) {
    super(ctx, new GeminiProfile(ctx), options);
  }
}
