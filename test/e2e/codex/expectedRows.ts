// The row shapes the codex e2e tests compare: each sidecar row cut down to the fields the issue names
// for its type, and builders for the expected rows from the rollout's own call (call_id, tool input).
import type { EventRow, RolloutCall } from './sidecarRows.js';

export interface PromptView {
  type: 'prompt';
  kind: string | null;
  call_id: string | null;
  tool_name: string | null;
  tool_input: unknown;
}

export interface DecisionView {
  type: string;
  kind: string | null;
  trigger: string | null;
  option_label: string | null;
  scope: string | null;
  call_id: string | null;
  tool_name: string | null;
  tool_input: unknown;
  reason: string | null;
  reason_source: string | null;
  related_call_id: string | null;
  ran: string | null;
}

export interface InterruptionView {
  type: 'interruption';
  kind: string | null;
  trigger: string | null;
  option_label: string | null;
  call_id: string | null;
  related_call_id: string | null;
  partial_output: unknown;
}

export type RowView = PromptView | DecisionView | InterruptionView;

export function view(row: EventRow): RowView {
  if (row.type === 'prompt') {
    return { type: 'prompt', kind: row.kind, call_id: row.call_id, tool_name: row.tool_name, tool_input: row.tool_input };
  }
  if (row.type === 'interruption') {
    return {
      type: 'interruption',
      kind: row.kind,
      trigger: row.trigger,
      option_label: row.option_label,
      call_id: row.call_id,
      related_call_id: row.related_call_id,
      partial_output: row.partial_output,
    };
  }
  return {
    type: row.type,
    kind: row.kind,
    trigger: row.trigger,
    option_label: row.option_label,
    scope: row.scope,
    call_id: row.call_id,
    tool_name: row.tool_name,
    tool_input: row.tool_input,
    reason: row.reason,
    reason_source: row.reason_source,
    related_call_id: row.related_call_id,
    ran: row.ran,
  };
}

function callFields(call: RolloutCall): { call_id: string; tool_name: string; tool_input: unknown } {
  return { call_id: call.callId, tool_name: call.name, tool_input: call.args };
}

export function promptRow(kind: string, call: RolloutCall): PromptView {
  return { type: 'prompt', kind, ...callFields(call) };
}

export const OPTION = {
  yes: 'Yes, proceed (y)',
  no: 'No, and tell Codex what to do differently (esc)',
  /** Option 2 of the exec prompt: the command itself is part of the label. */
  always: (cmd: string) => `Yes, and don't ask again for commands that start with \`${cmd}\` (p)`,
} as const;

/**
 * `ran` of an approval as rec must record it: `yes` only when the rollout says the call ran (rec has
 * no other evidence without hooks: an approved call interrupted, or one of a batch another call's
 * rejection aborted, is written "aborted by user" like a call that never ran), else `unknown`.
 */
export function approvedRan(call: RolloutCall): 'yes' | 'unknown' {
  return call.ranPerRollout ? 'yes' : 'unknown';
}

export function approvalRow(
  kind: string,
  call: RolloutCall,
  o: { trigger: string; option_label: string; scope: string },
): DecisionView {
  return {
    type: 'approval',
    kind,
    trigger: o.trigger,
    option_label: o.option_label,
    scope: o.scope,
    ...callFields(call),
    reason: null,
    reason_source: null,
    related_call_id: null,
    ran: approvedRan(call),
  };
}

export function rejectionRow(
  kind: string,
  call: RolloutCall,
  o: { trigger: string; option_label: string | null; reason?: string },
): DecisionView {
  return {
    type: 'rejection',
    kind,
    trigger: o.trigger,
    option_label: o.option_label,
    scope: null,
    ...callFields(call),
    reason: o.reason ?? null,
    reason_source: o.reason === undefined ? 'none' : 'next_message',
    related_call_id: null,
    ran: 'no',
  };
}

export function skippedRow(call: RolloutCall, rejected: RolloutCall): DecisionView {
  return {
    type: 'skipped',
    kind: 'command',
    trigger: null,
    option_label: null,
    scope: null,
    ...callFields(call),
    reason: null,
    reason_source: null,
    related_call_id: rejected.callId,
    ran: 'no',
  };
}

/** "Run in background" in the task menu: the TUI leaves, the turn goes on in Codex's daemon. */
export function detachedRow(): InterruptionView {
  return {
    type: 'interruption',
    kind: 'detached',
    trigger: 'ctrl_c',
    option_label: 'Run in background',
    call_id: null,
    related_call_id: null,
    partial_output: null,
  };
}

export function toolInterruptionRow(call: RolloutCall, o: { trigger: string; option_label: string | null }): InterruptionView {
  return {
    type: 'interruption',
    kind: 'tool',
    trigger: o.trigger,
    option_label: o.option_label,
    call_id: call.callId,
    related_call_id: call.callId,
    partial_output: null,
  };
}
