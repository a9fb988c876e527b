// The GitHub Copilot CLI recorder: the shared recorder (agents/common/agentRecorder.ts) with
// Copilot's profile (profile.ts).
import type { RecorderContext } from '../agentAdapter.js';
import { AgentRecorder, type AgentRecorderOptions } from '../common/agentRecorder.js';
import type { CopilotPrompt } from './promptBox.js';
import { CopilotProfile } from './profile.js';

export class CopilotRecorder extends AgentRecorder<CopilotPrompt> {
  constructor(ctx: RecorderContext, options: AgentRecorderOptions = {}) {
    super(ctx, new CopilotProfile(ctx), options);
  }
}
