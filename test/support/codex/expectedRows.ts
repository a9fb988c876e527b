// The codex e2e tests' expected rows: the shared shapes (../shared/expectedRows.ts) plus Codex's
// option labels, its rule for `ran` on approvals, and its "Run in background" detach.
import {
  approvalRow as sharedApprovalRow,
  rejectionRow,
  type DecisionView,
  type InterruptionView,
} from '../expectedRows.js';
import type { RolloutCall } from './rolloutCalls.js';

export {
  promptRow,
  rejectionRow,
  skippedRow,
  toolInterruptionRow,
  view,
  type DecisionView,
  type InterruptionView,
  type RowView,
} from '../expectedRows.js';

export const OPTION = {
  yes: 'Yes, proceed (y)',
  no: 'No, and tell Codex what to do differently (esc)',
  /** Option 2 of the exec prompt: the command itself is part of the label. */
  always: (cmd: string) => `Yes, and don't ask again for commands that start with \`${cmd}\` (p)`,
} as const;

/** The network prompt's approving options (Codex 0.171.0); it refuses with OPTION.no. */
export const NETWORK_OPTION = {
  once: 'Yes, just this once (y)',
  session: 'Yes, and allow this host for this conversation (a)',
  always: 'Yes, and allow this host in the future (p)',
} as const;

/**
 * A refusal at the network prompt: Codex asks while the command runs, so the command ran (even when
 * Codex quits before the rollout's CommandExecution completes) and only its fetch was refused. The
 * next message is the reason, as after any refusal of Codex's "tell Codex what to do differently".
 */
export function networkRejectionRow(call: RolloutCall, trigger: string, reason?: string): DecisionView {
  return { ...rejectionRow('network', call, { trigger, option_label: OPTION.no, ...(reason !== undefined ? { reason } : {}) }), ran: 'yes' };
}

/**
 * `ran` of an approval as rec must record it: `yes` only when the rollout says the call ran (rec has
 * no other evidence without hooks: an approved call interrupted, or one of a batch another call's
 * rejection aborted, is written "aborted by user" like a call that never ran), else `unknown`.
 */
export function approvedRan(call: RolloutCall): 'yes' | 'unknown' {
  return call.ranPerRollout ? 'yes' : 'unknown';
}

/**
 * An approval at the network prompt: Codex asks while the command runs, so the call ran whatever the
 * rollout had time to say before Codex quit.
 */
export function networkApprovalRow(call: RolloutCall, o: { trigger: string; option_label: string; scope: string }): DecisionView {
  return sharedApprovalRow('network', call, { ...o, ran: 'yes' });
}

export function approvalRow(
  kind: string,
  call: RolloutCall,
  o: { trigger: string; option_label: string; scope: string },
): DecisionView {
  return sharedApprovalRow(kind, call, { ...o, ran: approvedRan(call) });
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
