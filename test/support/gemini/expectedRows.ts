// The gemini e2e tests' expected rows: the shared shapes (../shared/expectedRows.ts) plus Gemini
// 0.61.0's option labels and reason strings, and the checks every decision row must pass.
import { expect } from 'vitest';
import type { EventRow } from '../sidecarRows.js';

export {
  approvalRow,
  promptRow,
  rejectionRow,
  skippedRow,
  toolInterruptionRow,
  view,
  type RowView,
} from '../expectedRows.js';

/** The dialog's options, verbatim: the ones rec doctor checks too. */
export { OPTION } from '../../../src/agents/gemini/bench/conformance.js';

/** What Gemini writes for a cancelled call (`functionResponse.response.error`) and the turn (`info`). */
export const NATIVE = {
  denied: '[Operation Cancelled] Reason: User denied execution.',
  siblingCancelled: '[Operation Cancelled] Reason: User cancelled operation',
  cancelledByUser: '[Operation Cancelled] Reason: Operation cancelled by user',
  requestCancelled: 'Request cancelled.',
} as const;

/**
 * Every approval and rejection points at the prompt row of its own call (prompt_event_id): the
 * last one before it (a call asked about again has a prompt per question).
 */
export function expectDecisionsLinked(rows: readonly EventRow[]): void {
  rows.forEach((row, at) => {
    if (row.type !== 'approval' && row.type !== 'rejection') return;
    const prompt = rows.slice(0, at).filter((r) => r.type === 'prompt' && r.call_id === row.call_id).at(-1);
    expect(prompt, `prompt row for ${row.type} of ${row.call_id}`).toBeDefined();
    expect(row.prompt_event_id).toBe(prompt!.id);
  });
}

/** The row's `native` holds each of Gemini's own strings (its shape is the recorder's). */
export function expectNative(row: EventRow | undefined, ...strings: string[]): void {
  expect(row).toBeDefined();
  const text = JSON.stringify(row!.native);
  for (const s of strings) expect(text, `native of ${row!.type} ${row!.call_id ?? ''}`).toContain(s);
}
