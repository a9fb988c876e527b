// The one vocabulary of what rec records (written down for users in docs/events.md).
// The same names are used in SQL columns, in this zod schema and in JSON output.
import { z } from 'zod';
import { AGENT_NAME_PATTERN } from './agentNames.js';

/** A registry agent's name, or `other` for a run of `rec -- <command>` (core/agentNames.ts). */
export const AgentName = z.string().regex(AGENT_NAME_PATTERN);
export type AgentName = z.infer<typeof AgentName>;

/**
 * `miss` is a diagnostic, not a decision: the agent's own file shows a person's decision on a call
 * that rec saw no prompt or key for (a release that changed a prompt screen), so a blind spot is
 * never silent.
 */
export const EventType = z.enum(['prompt', 'approval', 'rejection', 'skipped', 'interruption', 'miss']);
export type EventType = z.infer<typeof EventType>;

/** Rejection kinds and interruption kinds share one column; which apply depends on `type`. */
export const REJECTION_KINDS = ['command', 'edit', 'option', 'permission', 'plan', 'network', 'mcp'] as const;
export const INTERRUPTION_KINDS = ['response', 'tool', 'subagent', 'prompt', 'system', 'detached'] as const;
export const EventKind = z.enum([...REJECTION_KINDS, ...INTERRUPTION_KINDS]);
export type EventKind = z.infer<typeof EventKind>;

export const DecidedBy = z.enum(['user', 'config', 'hook', 'rule', 'reviewer']);
export type DecidedBy = z.infer<typeof DecidedBy>;

/** `shift_tab`: Shift+Tab at a dialog where it stops the turn (Claude's auto mode "can't check": leave for accept edits mode and stop). */
export const Trigger = z.enum(['esc', 'ctrl_c', 'enter', 'digit', 'letter', 'tab', 'shift_tab', 'hook', 'rule', 'exit']);
export type Trigger = z.infer<typeof Trigger>;

export const Scope = z.enum(['once', 'session', 'always']);
export type Scope = z.infer<typeof Scope>;

/**
 * `reviewer`: the rationale a reviewer model gave for its own refusal; `hook`: the message a hook
 * gave with its own refusal. Neither is ever a person's words.
 */
export const ReasonSource = z.enum(['inline', 'next_message', 'reviewer', 'hook', 'none']);
export type ReasonSource = z.infer<typeof ReasonSource>;

export const Ran = z.enum(['yes', 'no', 'unknown']);
export type Ran = z.infer<typeof Ran>;

/**
 * Which witness told a run the agent's version: the npm package of the binary rec started
 * (`package`), the session file's own version field (`session_file`), or the banner (`banner`).
 */
export const AgentVersionSource = z.enum(['package', 'session_file', 'banner']);
export type AgentVersionSource = z.infer<typeof AgentVersionSource>;

export const Evidence = z.enum(['screen', 'keys', 'session_file', 'hook', 'telemetry']);
export type Evidence = z.infer<typeof Evidence>;

/** What an approval prompt showed: its title, the lines that describe the action, and the options. */
export const PromptInfo = z.object({
  title: z.string(),
  details: z.record(z.string(), z.string()).default({}),
  options: z.array(z.object({ label: z.string(), key: z.string().optional() })).default([]),
});
export type PromptInfo = z.infer<typeof PromptInfo>;

const isoTs = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, 'ISO 8601 UTC with milliseconds');

/** An event as stored and as printed by `rec events --json`. */
export const RecEvent = z.object({
  id: z.string(),
  run_id: z.string(),
  agent: AgentName,
  agent_version: z.string().nullable(),
  agent_session_id: z.string().nullable(),
  ts: isoTs,
  type: EventType,
  kind: EventKind.nullable(),
  call_id: z.string().nullable(),
  tool_name: z.string().nullable(),
  /** The action itself, inlined: a command string, or an object (file and edit, arguments). */
  tool_input: z.unknown().nullable(),
  decided_by: DecidedBy.nullable(),
  trigger: Trigger.nullable(),
  option_label: z.string().nullable(),
  scope: Scope.nullable(),
  reason: z.string().nullable(),
  reason_source: ReasonSource.nullable(),
  related_call_id: z.string().nullable(),
  ran: Ran.nullable(),
  partial_output: z.string().nullable(),
  prompt: PromptInfo.nullable(),
  native: z.unknown().nullable(),
  evidence: z.array(Evidence),
  /** The prompt event this decision answered, so a decision can always be traced to what was shown. */
  prompt_event_id: z.string().nullable(),
  /**
   * Whether rec was verified on that version of the agent (its screens and files measured): false
   * for a newer or other version, whose events may be less exact; null while no version is known.
   */
  agent_version_verified: z.boolean().nullable(),
});
export type RecEvent = z.infer<typeof RecEvent>;

/** What a recorder hands to the store: run-level fields and the id are filled in by the store. */
export const NewEvent = RecEvent.omit({ id: true, run_id: true, agent: true }).partial().required({
  type: true,
  ts: true,
});
export type NewEvent = z.infer<typeof NewEvent>;

/** Fields that may be learned after the event was written (call_id, outcome, reason). */
export const EventPatch = RecEvent.omit({ id: true, run_id: true, agent: true, type: true }).partial();
export type EventPatch = z.infer<typeof EventPatch>;
