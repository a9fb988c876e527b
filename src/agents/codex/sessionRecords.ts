// The Codex rollout ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl), as seen in 0.169.0: one
// schema for every reader of it — the live recorder, the rollout chooser and locator, and `rec
// merge`'s reader (readers/codexRollout.ts). Only the fields used are declared; everything else
// passes through untouched (the record is copied verbatim into agent_records anyway). The rules
// that read meaning out of a record (aborted output, harness messages, a call that ran) are here
// too, so the live side and merge cannot drift apart.
import { z } from 'zod';
import type { CodexStrings } from './strings/index.js';

const TurnMeta = z.looseObject({
  turn_id: z.string().optional(),
  /** Where each content item came from; `"harness"` marks text Codex itself wrote. */
  content_item_metadata: z.array(z.unknown()).optional(),
});

export const SessionMetaPayload = z.looseObject({
  id: z.string(),
  /** The session the thread belongs to: its own id for the user's session, the parent's for a subagent's. */
  session_id: z.string().optional(),
  /** Set on a subagent's thread (the auto-review's reviewer writes one), never on the user's session. */
  parent_thread_id: z.string().optional(),
  /** `user` for the user's session; `guardian_review` for the auto-review's reviewer. */
  thread_source: z.string().optional(),
  cwd: z.string().optional(),
  cli_version: z.string().optional(),
  timestamp: z.string().optional(),
});

/** A thread some other thread started (a subagent, the auto-review's reviewer): never the user's session. */
export function isSubagentThread(meta: z.infer<typeof SessionMetaPayload>): boolean {
  return meta.parent_thread_id !== undefined;
}

export const SessionMeta = z.looseObject({
  type: z.literal('session_meta'),
  payload: SessionMetaPayload,
});

/**
 * A tool call: `function_call` carries JSON `arguments`; freeform tools (apply_patch when the model
 * has it) are `custom_tool_call`s with a raw `input`.
 */
export const FunctionCall = z.looseObject({
  type: z.enum(['function_call', 'custom_tool_call']),
  name: z.string(),
  /** The tool namespace of the name, e.g. `mcp__marker` for an MCP server's tool (0.171.0). */
  namespace: z.string().optional(),
  arguments: z.string().optional(),
  input: z.unknown().optional(),
  call_id: z.string(),
  internal_chat_message_metadata_passthrough: TurnMeta.optional(),
});
export type FunctionCall = z.infer<typeof FunctionCall>;

export const LocalShellCall = z.looseObject({
  type: z.literal('local_shell_call'),
  call_id: z.string(),
  action: z.looseObject({ command: z.array(z.string()).optional() }).optional(),
});

export const FunctionCallOutput = z.looseObject({
  type: z.enum(['function_call_output', 'custom_tool_call_output']),
  call_id: z.string(),
  output: z.unknown(),
});

export const MessageItem = z.looseObject({
  type: z.literal('message'),
  id: z.string().optional(),
  role: z.string(),
  content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
  internal_chat_message_metadata_passthrough: TurnMeta.optional(),
});
export type MessageItem = z.infer<typeof MessageItem>;

export const ResponseItem = z.looseObject({
  type: z.literal('response_item'),
  payload: z.discriminatedUnion('type', [FunctionCall, LocalShellCall, FunctionCallOutput, MessageItem]),
});

/** A turn starts (0.169 writes `task_started`; `turn_started` is the newer name). */
export const TurnStarted = z.looseObject({ type: z.enum(['task_started', 'turn_started']), turn_id: z.string().optional() });
export const TaskComplete = z.looseObject({ type: z.enum(['task_complete', 'turn_complete']), turn_id: z.string().optional() });
export const TurnAborted = z.looseObject({
  type: z.literal('turn_aborted'),
  turn_id: z.string().optional(),
  reason: z.string().optional(),
});
export const ItemCompleted = z.looseObject({
  type: z.literal('item_completed'),
  turn_id: z.string().optional(),
  item: z.looseObject({ type: z.string(), id: z.string().optional(), status: z.string().optional() }),
});

/**
 * A turn's settings. `approvals_reviewer`: `user` when the user answers escalations at a prompt,
 * `auto_review` when Codex's reviewer model answers them and no prompt is drawn.
 */
export const TurnContext = z.looseObject({
  type: z.literal('turn_context'),
  payload: z.looseObject({ turn_id: z.string().optional(), approvals_reviewer: z.string().optional() }),
});

/** The value of `approvals_reviewer` under which Codex's reviewer, not the user, answers escalations. */
export const AUTO_REVIEWER = 'auto_review';

export const EventMsg = z.looseObject({
  type: z.literal('event_msg'),
  payload: z.discriminatedUnion('type', [TurnStarted, TaskComplete, TurnAborted, ItemCompleted]),
});

export const RolloutRecord = z.union([SessionMeta, ResponseItem, EventMsg, TurnContext]);
export type RolloutRecord = z.infer<typeof RolloutRecord>;

/** Parses one rollout line; undefined for records no reader uses (or a line that is not JSON). */
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

/** The call's tool name, its namespace joined in front (`mcp__marker` + `touch_marker` → `mcp__marker__touch_marker`). */
export function toolNameOf(item: { readonly name: string; readonly namespace?: string | undefined }): string {
  if (item.namespace === undefined || item.namespace === '') return item.name;
  return item.namespace.endsWith('__') ? `${item.namespace}${item.name}` : `${item.namespace}__${item.name}`;
}

/** The call's input as the model sent it: JSON arguments parsed (kept raw when not JSON), or the raw input. */
export function toolInputOf(item: Pick<FunctionCall, 'arguments' | 'input'>): unknown {
  if (item.arguments === undefined) return item.input;
  try {
    return JSON.parse(item.arguments);
  } catch {
    // Not JSON: the raw string is the input as the model sent it.
    return item.arguments;
  }
}

/**
 * The text of an output as the model saw it: a string, content items (multimodal output) joined, or
 * `{content}` of either form; other values as JSON; null when there is none.
 */
export function outputText(output: unknown): string | null {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) {
    let text = '';
    for (const item of output) if (item && typeof item === 'object' && typeof (item as { text?: unknown }).text === 'string') text += (item as { text: string }).text;
    return text;
  }
  if (output === undefined || output === null) return null;
  if (typeof output === 'object' && 'content' in output) {
    const content = (output as { content: unknown }).content;
    if (typeof content === 'string' || Array.isArray(content)) return outputText(content);
  }
  return JSON.stringify(output);
}

/**
 * Whether a call's output says the user cut it: the marker (`aborted by user`) alone on the output's
 * last line. Codex writes the same bytes for a rejection, an interruption and a batch sibling's
 * cancel; an MCP tool's form cancelled (Esc or Cancel) ends its output with its own marker. Looks
 * only at the end: a regex tries every position of a long output, a cost docs/merge.md measures on
 * `rec stats`.
 */
export function isAbortedOutput(output: string, strings: CodexStrings): boolean {
  if (endsWithLine(output, strings.abortedMarker)) return true;
  // The MCP error is a content item of its own after the "Wall time" item; outputText joins items
  // without a newline, so the marker follows that item's end directly.
  const mcp = strings.mcpCancelled;
  return mcp !== undefined && endsWithLine(output, mcp.marker, mcp.afterHeader);
}

/** The marker alone on the output's last line, or right after `header` (trailing whitespace ignored). */
function endsWithLine(output: string, marker: string, header?: string): boolean {
  let end = output.length;
  while (end > 0 && /\s/.test(output[end - 1]!)) end--;
  const start = end - marker.length;
  if (start < 0 || !output.startsWith(marker, start)) return false;
  if (start === 0 || output.charCodeAt(start - 1) === 0x0a) return true;
  return header !== undefined && output.startsWith(header, start - header.length);
}

/** The text of a message's content items, joined. */
export function messageText(item: Pick<MessageItem, 'content'>): string {
  let text = '';
  for (const c of item.content) if (c.text !== undefined) text += c.text;
  return text;
}

/**
 * A message Codex's harness wrote, not the person: a system message, text that is an XML-ish block
 * (`<turn_aborted>`, `<environment_context>`), or content Codex marks as the harness's.
 */
export function isHarnessMessage(item: Pick<MessageItem, 'role' | 'internal_chat_message_metadata_passthrough'>, text: string, strings: CodexStrings): boolean {
  if (item.role !== 'user' && item.role !== 'assistant') return true;
  if (strings.harnessText.test(text)) return true;
  const provenance = item.internal_chat_message_metadata_passthrough?.content_item_metadata;
  return provenance !== undefined && JSON.stringify(provenance).includes('"harness"');
}

/** Completed items that show their call ran (their id is the call_id); aborted calls have none. */
export const RAN_ITEM_TYPES: ReadonlySet<string> = new Set(['CommandExecution', 'FileChange']);

/** The call an item_completed shows ran, or undefined. */
export function ranCallOf(item: { readonly type: string; readonly id?: string | undefined }): string | undefined {
  return RAN_ITEM_TYPES.has(item.type) ? item.id : undefined;
}
