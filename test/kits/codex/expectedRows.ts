// The codex e2e tests' expected rows: the shared shapes (../shared/expectedRows.ts) plus Codex's
// option labels, its rule for `ran` on approvals, and its "Run in background" detach.
import {
  approvalRow as sharedApprovalRow,
  type DecisionView,
  type InterruptionView,
} from '../shared/expectedRows.js';
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
} from '../shared/expectedRows.js';

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
