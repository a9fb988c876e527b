// The rows rec must write for GitHub Copilot CLI: the shared shapes (../expectedRows.ts) plus
// Copilot 1.0.102's option labels, its refusals (a reason is typed into the prompt: `inline`), and
// the checks every decision row must pass.
import { expect } from 'vitest';
import { OPTION as DOCTOR_OPTION } from '../../../src/agents/copilot/bench/conformance.js';
import { rejectionRow as sharedRejectionRow, type CallRef, type DecisionView, type InterruptionView } from '../expectedRows.js';
import type { EventRow } from '../sidecarRows.js';
import { RECORDED_CWD } from './recordedRun.js';

export { approvalRow, promptRow, skippedRow, toolInterruptionRow, view, type CallRef, type DecisionView, type InterruptionView, type RowView } from '../expectedRows.js';

/** The options as 1.0.102 words them (the shell prompt's Yes and "No, and tell…" are the ones rec doctor checks too). */
export const OPTION = {
  ...DOCTOR_OPTION,
  /** The path prompt's last option; Esc picks it too (its hotkey). */
  noEsc: 'No (Esc)',
  rememberPath: 'Yes, and remember this path for this session',
  /** Saved for the repo: the command's identifier (`node`). */
  commandInRepo: (identifier: string) => `Yes, and don't ask again for \`${identifier}\` in this repo (${RECORDED_CWD})`,
  filesInRepo: `Yes, and don't ask again for file operations when in this repo (${RECORDED_CWD})`,
  toolInRepo: (tool: string, server: string) => `Yes, and don't ask again for tool "${tool}" from "${server}" in this repo (${RECORDED_CWD})`,
  urlsPermanently: (origin: string) => `Yes, and approve all URLs from "${origin}" permanently`,
} as const;

/**
 * A refusal at a prompt. Copilot's reason is typed into the prompt's "No, and tell Copilot…" field
 * (reason_source `inline`), also when Esc then threw the text away (`typed`, reason null); a refusal
 * with nothing typed has none.
 */
export function rejectionRow(kind: string, call: CallRef, o: { trigger: string; option_label: string | null; reason?: string; typed?: boolean }): DecisionView {
  const row = sharedRejectionRow(kind, call, { trigger: o.trigger, option_label: o.option_label });
  const inline = o.reason !== undefined || o.typed === true;
  return { ...row, reason: o.reason ?? null, reason_source: inline ? 'inline' : 'none' };
}

/** A `--deny-tool` rule's refusal: no prompt, no key. */
export function ruleRejectionRow(call: CallRef): DecisionView {
  return rejectionRow('command', call, { trigger: 'rule', option_label: null });
}

/** A streamed answer cut by Esc Esc or Ctrl+C: what the screen showed of it at the key. */
export function responseInterruptionRow(trigger: string, partialOutput: string): InterruptionView {
  return { type: 'interruption', kind: 'response', trigger, option_label: null, call_id: null, related_call_id: null, partial_output: partialOutput };
}

/**
 * Every approval and rejection points at the prompt row of its own call (prompt_event_id): the last
 * one before it (the URL prompt, then the shell prompt of one call, are two); a rule's refusal has
 * none. Every decision is the user's, but a rule's refusal.
 */
export function expectDecisionsLinked(rows: readonly EventRow[]): void {
  rows.forEach((row, at) => {
    if (row.type === 'prompt') return;
    expect(row.decided_by, `decided_by of ${row.type} ${row.call_id ?? ''}`).toBe(row.trigger === 'rule' ? 'rule' : row.type === 'skipped' ? null : 'user');
    if ((row.type !== 'approval' && row.type !== 'rejection') || row.trigger === 'rule') return;
    const prompt = rows.slice(0, at).filter((r) => r.type === 'prompt' && r.call_id === row.call_id).at(-1);
    expect(prompt, `prompt row for ${row.type} of ${row.call_id}`).toBeDefined();
    expect(row.prompt_event_id).toBe(prompt!.id);
  });
}
