// The Codex recorder: the shared recorder (agents/common/agentRecorder.ts) with Codex's profile.
import type { RecorderContext } from '../agentAdapter.js';
import { AgentRecorder, IGNORED_KEY_SETTLE_MS, SESSION_POLL_MS, SESSION_SCAN_MS, type AgentRecorderOptions } from '../common/agentRecorder.js';
import { CodexProfile, type CodexPromptView } from './profile.js';

export { IGNORED_KEY_SETTLE_MS };
/** How often the rollout is read while Codex runs; keys also read it at once. */
export const ROLLOUT_POLL_MS = SESSION_POLL_MS;
/** How often $CODEX_HOME/sessions is scanned while this run's rollout is not confirmed yet. */
export const ROLLOUT_SCAN_MS = SESSION_SCAN_MS;

export type CodexRecorderOptions = AgentRecorderOptions;

export class CodexRecorder extends AgentRecorder<CodexPromptView> {
  constructor(ctx: RecorderContext, options: CodexRecorderOptions = {}) {
    super(ctx, new CodexProfile(ctx), options);
  }
}
