// What Codex 0.169.0 writes to a command hook's stdin (samples/hooks-shell-*.jsonl; 0.171.0 the
// same, with an MCP tool's arguments as its tool_input: docs/codex-prompts.md). Every event carries
// session_id and transcript_path (the rollout); PreToolUse/PostToolUse carry the call id as
// tool_use_id. Only the fields used are declared.
import { z } from 'zod';

export const CodexHookPayload = z.looseObject({
  session_id: z.string().optional(),
  transcript_path: z.string().nullable().optional(),
  turn_id: z.string().optional(),
  hook_event_name: z.string().optional(),
  tool_name: z.string().optional(),
  tool_use_id: z.string().optional(),
  tool_input: z.looseObject({ command: z.string().optional(), description: z.string().optional() }).optional(),
  prompt: z.string().optional(),
});
export type CodexHookPayload = z.infer<typeof CodexHookPayload>;

