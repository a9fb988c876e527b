// The conversation as every reader normalises it, the same shape for every agent: messages with
// their tool calls and results, and the action behind a call. merge/mergedSession.ts puts these
// into the merged session (and docs/merged-session.schema.json is generated from there).
import { z } from 'zod';
import { AgentName } from '../core/events.js';

/** The agent whose session file was read: a registry row's name (agents/registry.ts). */
export const MergeAgent = AgentName;
export type MergeAgent = z.infer<typeof MergeAgent>;

/** Where a record came from: the agent's file and its 1-based line (0 for a whole-file JSON). */
export const SourceRef = z.object({ file: z.string(), line: z.number().int() });
export type SourceRef = z.infer<typeof SourceRef>;

export const ToolCall = z.object({
  call_id: z.string(),
  tool_name: z.string(),
  tool_input: z.unknown(),
});
export type ToolCall = z.infer<typeof ToolCall>;

export const ToolResult = z.object({
  call_id: z.string(),
  output: z.string().nullable(),
  is_error: z.boolean(),
});
export type ToolResult = z.infer<typeof ToolResult>;

/** One message of the conversation, the same shape for every agent. */
export const Message = z.object({
  index: z.number().int(),
  role: z.enum(['user', 'assistant', 'system', 'tool', 'info']),
  text: z.string().nullable(),
  tool_calls: z.array(ToolCall),
  tool_results: z.array(ToolResult),
  timestamp: z.string().nullable(),
  /** The agent's own id for the message, when it has one. */
  native_id: z.string().nullable(),
  /** Written by the agent's harness, not by the person or the model (e.g. `<turn_aborted>`). */
  synthetic: z.boolean(),
  /** Gemini: the agent later rolled this message back out of its history (`$set` / `$rewindTo`). */
  rewound: z.boolean(),
  source: SourceRef,
});
export type Message = z.infer<typeof Message>;

/** The action a decision was about, inlined and normalised across agents. */
export const Action = z.discriminatedUnion('type', [
  z.object({ type: z.literal('command'), command: z.string() }),
  z.object({
    type: z.literal('edit'),
    edits: z.array(
      z.object({
        path: z.string(),
        operation: z.enum(['add', 'update', 'delete', 'write']),
        old_text: z.string().nullable(),
        new_text: z.string().nullable(),
      }),
    ),
  }),
  z.object({ type: z.literal('other') }),
]);
export type Action = z.infer<typeof Action>;

export const CallFate = z.enum(['ran', 'rejected', 'skipped', 'interrupted', 'unknown']);
export type CallFate = z.infer<typeof CallFate>;
