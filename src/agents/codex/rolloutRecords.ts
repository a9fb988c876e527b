// The Codex rollout records the adapter reads ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl),
// as seen in 0.169.0. Only the fields used are declared; everything else passes through untouched
// (the record is copied verbatim into agent_records anyway).
import { z } from 'zod';

const TurnMeta = z.looseObject({ turn_id: z.string().optional() });

export const SessionMeta = z.looseObject({
  type: z.literal('session_meta'),
  payload: z.looseObject({
    id: z.string(),
    cwd: z.string().optional(),
    cli_version: z.string().optional(),
  }),
});

export const FunctionCall = z.looseObject({
  type: z.literal('function_call'),
  name: z.string(),
  arguments: z.string(),
  call_id: z.string(),
  internal_chat_message_metadata_passthrough: TurnMeta.optional(),
});
export type FunctionCall = z.infer<typeof FunctionCall>;

/** Freeform tools (apply_patch when the model has it) are `custom_tool_call`s with a raw `input`. */
export const CustomToolCall = z.looseObject({
  type: z.literal('custom_tool_call'),
  name: z.string(),
  input: z.string(),
  call_id: z.string(),
  internal_chat_message_metadata_passthrough: TurnMeta.optional(),
});

/** The call's input as the model sent it: a function call's JSON arguments parsed, a custom tool's raw input. */
export function toolInputOf(item: FunctionCall | z.infer<typeof CustomToolCall>): unknown {
  if (item.type === 'custom_tool_call') return item.input;
  try {
    return JSON.parse(item.arguments);
  } catch {
    // Arguments that are not JSON are kept as the raw string the model sent.
    return item.arguments;
  }
}

export const FunctionCallOutput = z.looseObject({
  type: z.enum(['function_call_output', 'custom_tool_call_output']),
  call_id: z.string(),
  output: z.unknown(),
});

export const MessageItem = z.looseObject({
  type: z.literal('message'),
  role: z.string(),
  content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
});

export const ResponseItem = z.looseObject({
  type: z.literal('response_item'),
  payload: z.discriminatedUnion('type', [FunctionCall, CustomToolCall, FunctionCallOutput, MessageItem]),
});

export const TaskStarted = z.looseObject({ type: z.literal('task_started'), turn_id: z.string().optional() });
export const TaskComplete = z.looseObject({ type: z.literal('task_complete'), turn_id: z.string().optional() });
export const TurnAborted = z.looseObject({
  type: z.literal('turn_aborted'),
  turn_id: z.string().optional(),
  reason: z.string().optional(),
});
export const ItemCompleted = z.looseObject({
  type: z.literal('item_completed'),
  turn_id: z.string().optional(),
  item: z.looseObject({
    type: z.string(),
    id: z.string().optional(),
    status: z.string().optional(),
    exit_code: z.number().nullable().optional(),
  }),
});

export const EventMsg = z.looseObject({
  type: z.literal('event_msg'),
  payload: z.discriminatedUnion('type', [TaskStarted, TaskComplete, TurnAborted, ItemCompleted]),
});

export const RolloutRecord = z.union([SessionMeta, ResponseItem, EventMsg]);
export type RolloutRecord = z.infer<typeof RolloutRecord>;

/** Parses one rollout line; undefined for records the adapter does not use (or cannot read). */
export function parseRolloutLine(text: string): RolloutRecord | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // A torn or foreign line: it is still copied to agent_records, it just carries no facts.
    return undefined;
  }
  const parsed = RolloutRecord.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

/** The text of an output as the model saw it (a string, or content items for multimodal output). */
export function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) {
    return output
      .map((item) => (item && typeof item === 'object' && 'text' in item ? String(item.text) : ''))
      .join('');
  }
  if (output && typeof output === 'object' && 'content' in output) return outputText(output.content);
  return JSON.stringify(output ?? '');
}
