// The row shapes every agent's e2e tests compare: each sidecar row cut down to the fields the issue
// names for its type, and builders for the expected rows from the agent's own call (its session
// file's call id, tool name and input).
import type { EventRow } from './sidecarRows.js';

/** A tool call as the agent's own session file has it. */
export interface CallRef {
  readonly callId: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
}

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

function callFields(call: CallRef): { call_id: string; tool_name: string; tool_input: unknown } {
  return { call_id: call.callId, tool_name: call.name, tool_input: call.args };
}

export function promptRow(kind: string, call: CallRef): PromptView {
  return { type: 'prompt', kind, ...callFields(call) };
}

export function approvalRow(
  kind: string,
  call: CallRef,
  o: { trigger: string; option_label: string; scope: string; ran: 'yes' | 'no' | 'unknown' },
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
    ran: o.ran,
  };
}

export function rejectionRow(
  kind: string,
  call: CallRef,
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

export function skippedRow(call: CallRef, rejected: CallRef, kind = 'command'): DecisionView {
  return {
    type: 'skipped',
    kind,
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

export function toolInterruptionRow(call: CallRef, o: { trigger: string; option_label: string | null }): InterruptionView {
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
