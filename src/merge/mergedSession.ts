// The merged session: one JSON document per agent session, from the agent's own file joined with
// the sidecar by call_id (docs/events.md). docs/merged-session.schema.json
// is generated from these schemas by scripts/gen-schema.mjs.
import { z } from 'zod';
import { AGENT_NAMES } from '../agents/registry.js';
import { Diagnostic } from '../core/diagnostic.js';
import { DecidedBy, EventKind, ReasonSource, Ran, Scope, Trigger } from '../core/events.js';
import { Action, CallFate, Message } from '../readers/conversation.js';

// What the readers produce (the conversation) and the diagnostics are defined below merge, so
// that readers and store do not import merge; they are part of the merged session all the same.
export { Diagnostic } from '../core/diagnostic.js';
export { Action, MergeAgent, Message } from '../readers/conversation.js';

/**
 * Raised whenever an entry gains or loses a field: the published JSON Schema allows no other
 * properties, so a consumer validating version 1 would reject version 2's `prompt` (docs/merge.md).
 */
export const MERGED_SCHEMA_VERSION = 2;

export const EntrySource = z.enum(['native', 'sidecar']);
export type EntrySource = z.infer<typeof EntrySource>;

export const Disagreement = z.object({ field: z.string(), native: z.unknown(), sidecar: z.unknown() });
export type Disagreement = z.infer<typeof Disagreement>;

/** Fields shared by every entry of rejections[], interruptions[], skipped[], approvals[], unknown[]. */
const entryBase = {
  /** The message holding the tool call (or, for turn-level entries, the message recording it). */
  message_index: z.number().int().nullable(),
  call_id: z.string().nullable(),
  tool_name: z.string().nullable(),
  tool_input: z.unknown(),
  action: Action.nullable(),
  timestamp: z.string().nullable(),
  sources: z.array(EntrySource),
  /** What the agent's own file says about this call, verbatim where short. */
  native: z.unknown(),
  sidecar_event_ids: z.array(z.string()),
  /** Fields on which the file and the sidecar disagree; the sidecar's value is the one shown. */
  disagreements: z.array(Disagreement),
  /** Fields the sources used cannot tell (e.g. `trigger` from a file alone). */
  undetermined: z.array(z.string()),
};

/** One option the prompt offered: its text as shown, its key where the screen names one, and whether it was the one taken. */
export const PromptOption = z.object({ label: z.string(), key: z.string().nullable(), chosen: z.boolean() });
export type PromptOption = z.infer<typeof PromptOption>;

/**
 * The approval prompt a decision answered, as the sidecar's `prompt` event recorded it: null when
 * no prompt was recorded (a file alone, a rule's decision) or its event is gone.
 */
export const PromptShown = z.object({ event_id: z.string(), title: z.string(), options: z.array(PromptOption) });
export type PromptShown = z.infer<typeof PromptShown>;

export const Rejection = z.object({
  ...entryBase,
  rejection_type: EventKind.nullable(),
  decided_by: DecidedBy.nullable(),
  trigger: Trigger.nullable(),
  option_label: z.string().nullable(),
  reason: z.string().nullable(),
  reason_source: ReasonSource.nullable(),
  ran: Ran.nullable(),
  prompt: PromptShown.nullable(),
});
export type Rejection = z.infer<typeof Rejection>;

export const Interruption = z.object({
  ...entryBase,
  interrupted_message_index: z.number().int().nullable(),
  kind: EventKind.nullable(),
  trigger: Trigger.nullable(),
  partial_output: z.string().nullable(),
  related_call_id: z.string().nullable(),
  prompt: PromptShown.nullable(),
});
export type Interruption = z.infer<typeof Interruption>;

export const Skipped = z.object({
  ...entryBase,
  related_call_id: z.string().nullable(),
});
export type Skipped = z.infer<typeof Skipped>;

export const Approval = z.object({
  ...entryBase,
  decided_by: DecidedBy.nullable(),
  trigger: Trigger.nullable(),
  option_label: z.string().nullable(),
  scope: Scope.nullable(),
  prompt: PromptShown.nullable(),
});
export type Approval = z.infer<typeof Approval>;

/** A call whose fate the sources cannot settle (Codex "aborted by user" without a sidecar). */
export const Unknown = z.object({
  ...entryBase,
  possible: z.array(z.enum(['rejection', 'interruption', 'skipped', 'ran'])),
});
export type Unknown = z.infer<typeof Unknown>;


export const CallSummary = z.object({
  call_id: z.string(),
  tool_name: z.string(),
  message_index: z.number().int(),
  fate: CallFate,
});
export type CallSummary = z.infer<typeof CallSummary>;

/** The registry's names, as an enum: the published schema (docs/merged-session.schema.json) lists them. */
const SessionAgent = z.enum(AGENT_NAMES as [string, ...string[]]);

export const SessionInfo = z.object({
  agent: SessionAgent,
  agent_version: z.string().nullable(),
  agent_session_id: z.string().nullable(),
  cwd: z.string().nullable(),
  started_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  /** The files read for this session (the agent's file, or the sidecar when rebuilt). */
  files: z.array(z.string()),
  /** `file`: read from the agent's file; `agent_records`: rebuilt from the sidecar's copy. */
  source: z.enum(['file', 'agent_records']),
  /** The rec runs that saw this session. */
  run_ids: z.array(z.string()),
  /** Claude subagent transcripts: the agent id and the parent's Agent call. */
  subagent: z.object({ agent_id: z.string().nullable(), parent_call_id: z.string().nullable() }).nullable(),
});
export type SessionInfo = z.infer<typeof SessionInfo>;

export const MergedSession = z.object({
  schema_version: z.literal(MERGED_SCHEMA_VERSION),
  session: SessionInfo,
  messages: z.array(Message),
  calls: z.array(CallSummary),
  rejections: z.array(Rejection),
  interruptions: z.array(Interruption),
  skipped: z.array(Skipped),
  approvals: z.array(Approval),
  unknown: z.array(Unknown),
  /** How many records of each type the file held (unknown types included). */
  record_counts: z.record(z.string(), z.number().int()),
  /** Records of types this version of rec does not know, kept verbatim (the first few per session). */
  unknown_records: z.array(z.object({ type: z.string(), file: z.string(), line: z.number().int(), raw: z.string() })),
  diagnostics: z.array(Diagnostic),
});
export type MergedSession = z.infer<typeof MergedSession>;
