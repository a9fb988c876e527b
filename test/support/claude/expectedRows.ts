// The rows `rec claude` must write, per docs/events.md: each sidecar row cut down to the fields
// the issue names, and builders for the expected rows from Claude Code's own transcript call (tool_use
// id, name, input). `native` keeps Claude Code's words for the call (the transcript fields that say
// what happened), so the merge can show both.
import { expect } from 'vitest';
import { OPTION as DOCTOR_OPTION } from '../../../src/agents/claude/bench/conformance.js';
import type { EventRow } from '../sidecarRows.js';
import type { TranscriptCall } from './transcriptCalls.js';

/** Claude Code 2.1.330's tool_result for a rejection at the prompt (No or Esc) and for an interrupted run. */
export const REJECT_STOP =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";

/** What a subagent is told when its call is refused at the prompt (it goes on; no interrupt line). */
export const SUBAGENT_DENIED =
  'Permission for this tool use was denied. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). Try a different approach or report the limitation to complete your task.';

export function rejectWithReason(reason: string): string {
  return `The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\n${reason}`;
}

/** Option labels as the prompt shows them, without the list number (Yes and No as rec doctor expects them too). */
export const OPTION = {
  ...DOCTOR_OPTION,
  always: (workDir: string) => `Yes, and always allow access to ${workDir} from this project`,
} as const;

export interface PromptView {
  type: 'prompt';
  kind: string | null;
  call_id: string | null;
  tool_name: string | null;
  tool_input: unknown;
}

export interface RowView {
  type: string;
  kind: string | null;
  call_id: string | null;
  tool_name: string | null;
  tool_input: unknown;
  decided_by: string | null;
  trigger: string | null;
  option_label: string | null;
  scope: string | null;
  reason: string | null;
  reason_source: string | null;
  related_call_id: string | null;
  ran: string | null;
  native: unknown;
}

export function view(row: EventRow): PromptView | RowView {
  const call = { call_id: row.call_id, tool_name: row.tool_name, tool_input: row.tool_input };
  if (row.type === 'prompt') return { type: 'prompt', kind: row.kind, ...call };
  return {
    type: row.type,
    kind: row.kind,
    ...call,
    decided_by: row.decided_by,
    trigger: row.trigger,
    option_label: row.option_label,
    scope: row.scope,
    reason: row.reason,
    reason_source: row.reason_source,
    related_call_id: row.related_call_id,
    ran: row.ran,
    native: row.native,
  };
}

const fields = (c: TranscriptCall) => ({ call_id: c.id, tool_name: c.name, tool_input: c.input });

const NONE = { decided_by: null, trigger: null, option_label: null, scope: null, reason: null, reason_source: null, related_call_id: null, ran: null };

export function promptRow(kind: string, c: TranscriptCall): PromptView {
  return { type: 'prompt', kind, ...fields(c) };
}

export function approvalRow(kind: string, c: TranscriptCall, o: { trigger: string; option_label: string; scope: string; ran?: string; native?: unknown }): RowView {
  return {
    type: 'approval',
    kind,
    ...fields(c),
    ...NONE,
    decided_by: 'user',
    trigger: o.trigger,
    option_label: o.option_label,
    scope: o.scope,
    ran: o.ran ?? 'yes',
    // What Claude Code's transcript says of the call: the accepting permissionDecision on its result
    // line, or, for a call cut while it ran, the "rejected" words it writes then (o.native).
    native: o.native ?? expect.objectContaining({ permissionDecision: expect.objectContaining({ decision: 'accept' }) }),
  };
}

/** A rejection at the prompt: No or Esc (REJECT_STOP), or No with a reason typed into the Tab field. */
export function rejectionRow(
  kind: string,
  c: TranscriptCall,
  o: { trigger: string; option_label: string | null; reason?: string; content?: string; reasonDiscarded?: boolean },
): RowView {
  const content = o.content ?? (o.reason === undefined ? REJECT_STOP : rejectWithReason(o.reason));
  return {
    type: 'rejection',
    kind,
    ...fields(c),
    ...NONE,
    decided_by: 'user',
    trigger: o.trigger,
    option_label: o.option_label,
    reason: o.reason ?? null,
    // A reason typed into the Tab field and thrown away with Esc: `inline` with no reason (docs/events.md).
    reason_source: o.reason !== undefined || o.reasonDiscarded ? 'inline' : 'none',
    ran: 'no',
    native: expect.objectContaining({ toolDenialKind: 'user-rejected', output: content }),
  };
}

/** A parallel sibling that was never prompted: Claude Code writes the same REJECT_STOP for it. */
export function skippedRow(kind: string, c: TranscriptCall, rejected: TranscriptCall): RowView {
  return {
    type: 'skipped',
    kind,
    ...fields(c),
    ...NONE,
    related_call_id: rejected.id,
    ran: 'no',
    native: expect.objectContaining({ toolDenialKind: 'user-rejected', output: REJECT_STOP }),
  };
}

/** What the transcript says of a running tool cut by Esc: "rejected" (REJECT_STOP, no toolDenialBeforeRun). */
export const CUT_WHILE_RUNNING = expect.objectContaining({ toolDenialKind: 'user-rejected', output: REJECT_STOP, turn_aborted: '[Request interrupted by user for tool use]' });

/** A running tool cut by Esc: the transcript says "rejected" (REJECT_STOP, no toolDenialBeforeRun); native keeps it. */
export function toolInterruptionRow(c: TranscriptCall, o: { trigger: string }): RowView {
  return {
    type: 'interruption',
    kind: 'tool',
    ...fields(c),
    ...NONE,
    decided_by: 'user',
    trigger: o.trigger,
    related_call_id: c.id,
    // As for Codex and Gemini: an interruption says what was cut, not whether it ran (its approval does).
    ran: null,
    native: CUT_WHILE_RUNNING,
  };
}

/** A streamed answer cut by Esc: turn-level, no call; native keeps Claude Code's isAbortedMidStream and interrupt text. */
export function responseInterruptionRow(o: { trigger: string }): RowView {
  return {
    type: 'interruption',
    kind: 'response',
    call_id: null,
    tool_name: null,
    tool_input: null,
    ...NONE,
    decided_by: 'user',
    trigger: o.trigger,
    native: expect.objectContaining({ turn_aborted: '[Request interrupted by user]' }),
  };
}

/** A call refused by a `permissions.deny` rule: no prompt, no key; kind `permission` (EVENTS.md: a tool blocked as such, by a rule). */
export function ruleRejectionRow(c: TranscriptCall): RowView {
  return {
    type: 'rejection',
    kind: 'permission',
    ...fields(c),
    ...NONE,
    decided_by: 'rule',
    trigger: 'rule',
    reason_source: 'none',
    ran: 'no',
    native: expect.objectContaining({ toolDenialKind: 'permission-rule', permissionDecision: expect.objectContaining({ decision: 'reject', source: 'config' }) }),
  };
}
