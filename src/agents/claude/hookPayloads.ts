// What Claude Code 2.1.330 writes to a command hook's stdin (docs/claude.md, "Hooks"). Every event
// carries session_id, transcript_path and hook_event_name; events from a subagent add agent_id.
// PreToolUse, PostToolUse and PostToolUseFailure carry the call id as tool_use_id; PermissionRequest
// carries none (matched to the PreToolUse before it); PostToolBatch lists its calls. Only the
// fields used are declared.
import { z } from 'zod';

export const ClaudeHookPayload = z.looseObject({
  session_id: z.string().optional(),
  transcript_path: z.string().optional(),
  hook_event_name: z.string().optional(),
  prompt_id: z.string().optional(),
  agent_id: z.string().optional(),
  tool_name: z.string().optional(),
  tool_input: z.unknown().optional(),
  tool_use_id: z.string().optional(),
  is_interrupt: z.boolean().optional(),
  prompt: z.string().optional(),
  reason: z.string().optional(),
  tool_calls: z
    .array(z.looseObject({ tool_name: z.string().optional(), tool_use_id: z.string(), tool_input: z.unknown().optional(), tool_response: z.unknown().optional() }))
    .optional(),
});
export type ClaudeHookPayload = z.infer<typeof ClaudeHookPayload>;
