// What a conformance scenario must record, and the check of what it did record: the sidecar rows
// one key script gives, field by field, with call ids checked against the calls the mock model
// itself asked for. Agent-free: each agent's lab folder lists its scenarios and expected rows.
import type { RecEvent } from '../core/events.js';

/** One row a scenario must give. A field left out is not checked; `null` must be null. */
export interface ExpectedRow {
  readonly type: RecEvent['type'];
  readonly kind: string;
  readonly trigger?: string | null;
  readonly option_label?: string | null;
  readonly scope?: string | null;
  readonly reason?: string | null;
  readonly reason_source?: string | null;
  /** The row names a call the mock model asked for (prompts, decisions, a tool's interruption). */
  readonly callFromModel?: boolean;
  /** An interruption of a streamed answer: its partial output is a non-empty prefix of this text. */
  readonly partialOf?: string;
}

/**
 * A refusal of a call the mock model asked for: no scope, and a reason only where one was given,
 * from where the agent takes it (`inline` in the dialog, or the `next_message`).
 */
export function rejectionRow(o: {
  readonly trigger: string;
  readonly optionLabel: string | null;
  readonly reason: string | null;
  readonly reasonSource: 'inline' | 'next_message';
  readonly kind?: string;
}): ExpectedRow {
  return {
    type: 'rejection',
    kind: o.kind ?? 'command',
    trigger: o.trigger,
    option_label: o.optionLabel,
    scope: null,
    reason: o.reason,
    reason_source: o.reason === null ? 'none' : o.reasonSource,
    callFromModel: true,
  };
}

export interface ConformanceScenario {
  /** The key script's name (the agent's recordedScenarios). */
  readonly script: string;
  /** The name the doctor's table shows. */
  readonly name: string;
  readonly expected: readonly ExpectedRow[];
}

export interface RowCheck {
  readonly pass: boolean;
  /** Short labels, one per row, for the table. */
  readonly expected: string[];
  readonly seen: string[];
  /** The first difference, in one line; null when it passed. */
  readonly problem: string | null;
}

/** A row's short label: type, kind (unless the usual `command`), trigger, scope, and a mark when it carries a reason. */
export function rowLabel(row: { type: string; kind?: string | null; trigger?: string | null; scope?: string | null; reason?: string | null }): string {
  const parts = [row.type, row.kind === 'command' ? null : row.kind, row.trigger, row.scope].filter((p): p is string => typeof p === 'string' && p !== '');
  return parts.join(' ') + (typeof row.reason === 'string' && row.reason !== '' ? ' +reason' : '');
}

const CHECKED_FIELDS = ['type', 'kind', 'trigger', 'option_label', 'scope', 'reason', 'reason_source'] as const;

/** Compares the rows a scenario recorded with the ones it must give; `issuedCallIds` are the mock model's calls. */
export function checkRows(expected: readonly ExpectedRow[], seen: readonly RecEvent[], issuedCallIds: readonly string[]): RowCheck {
  const labels = { expected: expected.map(rowLabel), seen: seen.map(rowLabel) };
  const fail = (problem: string): RowCheck => ({ pass: false, ...labels, problem });
  if (seen.length !== expected.length) return fail(`${seen.length} rows recorded, ${expected.length} expected`);
  for (const [i, want] of expected.entries()) {
    const got = seen[i]!;
    for (const field of CHECKED_FIELDS) {
      if (want[field] === undefined) continue;
      const value = (got as Record<string, unknown>)[field] ?? null;
      if (value !== want[field]) return fail(`row ${i + 1} (${got.type}): ${field} is ${JSON.stringify(value)}, expected ${JSON.stringify(want[field])}`);
    }
    if (want.callFromModel && (got.call_id === null || !issuedCallIds.includes(got.call_id))) {
      return fail(`row ${i + 1} (${got.type}): call_id ${JSON.stringify(got.call_id)} is none of the calls the mock model asked for`);
    }
    if (want.partialOf !== undefined && !isPrefixOf(got.partial_output, want.partialOf)) {
      return fail(`row ${i + 1} (${got.type}): partial_output is not a part of the streamed answer`);
    }
  }
  const skipped = seen.find((r) => r.type === 'skipped');
  const rejected = seen.find((r) => r.type === 'rejection');
  if (skipped && rejected && skipped.related_call_id !== rejected.call_id) {
    return fail('the skipped call does not name the rejected one (related_call_id)');
  }
  return { pass: true, ...labels, problem: null };
}

function isPrefixOf(partial: unknown, text: string): boolean {
  if (typeof partial !== 'string') return false;
  const squeezed = partial.replace(/\s+/g, ' ').trim();
  return squeezed !== '' && text.startsWith(squeezed);
}
