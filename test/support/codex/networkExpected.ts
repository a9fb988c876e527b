// What rec must make of the network prompt's two key scripts (promptScenarios.ts): the same facts
// for the replays of their recordings and for the live runs under `rec codex`.
import { networkCommand } from '../../../src/lab/mock/openaiResponses/scenarios.js';
import { NETWORK_OPTION, networkApprovalRow, networkRejectionRow, promptRow, type RowView } from './expectedRows.js';
import type { RolloutCall } from './rolloutCalls.js';

export interface NetworkExpected {
  /** The `net` scenario's commands, turn after turn (a turn a refusal ends has no more calls). */
  readonly commands: readonly string[];
  readonly rows: readonly RowView[];
  /** `rec merge`'s fate of each call. */
  readonly fates: readonly string[];
  /** The refusals as `rec merge` gives them: call id, trigger, reason. */
  readonly rejections: ReadonlyArray<readonly [string, string, string | null]>;
  /** The approvals as `rec merge` gives them: call id, scope. */
  readonly approvals: ReadonlyArray<readonly [string, string]>;
}

function commands(perTurn: readonly number[]): string[] {
  return perTurn.flatMap((n) => Array.from({ length: n }, (_, i) => networkCommand(i + 1)));
}

/** net-keys: y, a (the host's second fetch is not asked), Esc; then n; then 4, a turn each. */
export function netKeysExpected(calls: readonly RolloutCall[]): NetworkExpected {
  const [once, session, , esc, n, four] = calls as [RolloutCall, RolloutCall, RolloutCall, RolloutCall, RolloutCall, RolloutCall];
  return {
    commands: commands([4, 1, 1]),
    rows: [
      promptRow('network', once),
      networkApprovalRow(once, { trigger: 'letter', option_label: NETWORK_OPTION.once, scope: 'once' }),
      promptRow('network', session),
      networkApprovalRow(session, { trigger: 'letter', option_label: NETWORK_OPTION.session, scope: 'session' }),
      promptRow('network', esc),
      networkRejectionRow(esc, 'esc', 'SCN=net second turn'),
      promptRow('network', n),
      networkRejectionRow(n, 'letter', 'SCN=net third turn'),
      promptRow('network', four),
      networkRejectionRow(four, 'digit'),
    ],
    fates: ['ran', 'ran', 'ran', 'rejected', 'rejected', 'rejected'],
    rejections: [[esc.callId, 'esc', 'SCN=net second turn'], [n.callId, 'letter', 'SCN=net third turn'], [four.callId, 'digit', null]],
    approvals: [[once.callId, 'once'], [session.callId, 'session']],
  };
}

/** net-always: p, a, p; then a turn that fetches every host unasked. */
export function netAlwaysExpected(calls: readonly RolloutCall[]): NetworkExpected {
  const [one, two, , three] = calls as [RolloutCall, RolloutCall, RolloutCall, RolloutCall];
  return {
    commands: commands([4, 4]),
    rows: [
      promptRow('network', one),
      networkApprovalRow(one, { trigger: 'letter', option_label: NETWORK_OPTION.always, scope: 'always' }),
      promptRow('network', two),
      networkApprovalRow(two, { trigger: 'letter', option_label: NETWORK_OPTION.session, scope: 'session' }),
      promptRow('network', three),
      networkApprovalRow(three, { trigger: 'letter', option_label: NETWORK_OPTION.always, scope: 'always' }),
    ],
    fates: Array(8).fill('ran'),
    rejections: [],
    approvals: [[one.callId, 'always'], [two.callId, 'session'], [three.callId, 'always']],
  };
}
