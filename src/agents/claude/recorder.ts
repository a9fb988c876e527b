// The Claude Code recorder: the shared recorder (agents/common/agentRecorder.ts) with Claude's profile.
import type { RecorderContext } from '../agentAdapter.js';
import { AgentRecorder, type AgentRecorderOptions } from '../common/agentRecorder.js';
import { ClaudeProfile, type ClaudePromptView } from './profile.js';

/**
 * How long after a decisive key a prompt still drawn unchanged means Claude dropped the key. Claude
 * 2.1.330 may keep an approved prompt on screen for over a second before it redraws (docs/claude.md);
 * the shared default (IGNORED_KEY_SETTLE_MS, set for Codex) would take such an approval back.
 */
export const CLAUDE_IGNORED_KEY_SETTLE_MS = 3_000;

export class ClaudeRecorder extends AgentRecorder<ClaudePromptView> {
  constructor(ctx: RecorderContext, options: AgentRecorderOptions = {}) {
    super(ctx, new ClaudeProfile(ctx), { ignoredKeySettleMs: CLAUDE_IGNORED_KEY_SETTLE_MS, ...options });
  }
}
