// The readable form of `rec rules`: per agent, each suggested rule in the agent's own format with
// its evidence, then what was held back and why, then what the existing rules say. Every line
// fits the terminal; `--json` keeps everything whole.
import type { AgentRules, RulesReport, SuggestedRule, Withheld } from '../rules/ruleTypes.js';
import { localTime, plural, truncate } from './formatTable.js';
import { escapeControls } from './terminalText.js';

const PAD = '    ';
/** Covered commands listed per rule before `…and N more`. */
const MAX_COVERS = 5;

function lines(out: string[], width: number, indent: string, text: string): void {
  for (const line of text.split('\n')) out.push(truncate(`${indent}${escapeControls(line)}`, width));
}

function ruleLines(out: string[], r: SuggestedRule, width: number): void {
  out.push(truncate(`  ${r.decision}: ${r.widest}`, width));
  if (r.entry !== null) for (const l of r.entry.split('\n')) out.push(truncate(`${PAD}${escapeControls(l)}`, width));
  else lines(out, width, PAD, `(no entry: ${r.no_entry_reason})`);
  const e = r.evidence;
  const what = r.decision === 'allow' ? `saves ${plural(e.prompts_saved, 'prompt')}` : `refused ${plural(e.refusals, 'time')}`;
  const asked = e.approvals > 0 && r.decision !== 'allow' ? `, approved ${plural(e.approvals, 'time')}` : '';
  const unasked = e.ran_unprompted > 0 ? `, ${e.ran_unprompted} more ran unasked` : '';
  lines(out, width, PAD, `${what}${asked}${unasked} in ${plural(e.sessions, 'session')}, last ${localTime(e.last_seen)}`);
  const shown = e.covers.slice(0, MAX_COVERS).map((c) => `${c.text} (${c.count})`);
  if (e.covers.length > MAX_COVERS) shown.push(`…and ${e.covers.length - MAX_COVERS} more`);
  for (const [i, c] of shown.entries()) lines(out, width, i === 0 ? `${PAD}covers: ` : `${PAD}        `, c);
  for (const reason of e.reasons) lines(out, width, `${PAD}reason: `, reason);
}

function heldLine(out: string[], w: Withheld, width: number): void {
  lines(out, width, '  ', `${w.subject} (${plural(w.approvals, 'approval')}, ${plural(w.refusals, 'refusal')})`);
  lines(out, width, PAD, w.reason);
}

function agentLines(a: AgentRules, min: number, width: number): string[] {
  const out: string[] = [];
  const unrecorded = a.sessions_without_sidecar > 0 ? `, ${a.sessions_without_sidecar} not recorded by rec` : '';
  out.push(truncate(`${a.agent}: ${plural(a.sessions, 'session')}${unrecorded}`, width));
  lines(out, width, '  rules go in ', a.target);
  if (a.allow.length === 0 && a.deny_or_ask.length === 0) out.push(truncate(`  no rule to suggest (allow needs ${min} approvals and no refusal)`, width));
  for (const r of [...a.allow, ...a.deny_or_ask]) ruleLines(out, r, width);
  if (a.withheld.length > 0) out.push(truncate('  held back:', width));
  for (const w of a.withheld) heldLine(out, w, width);
  if (a.existing.length > 0) out.push(truncate('  existing rules:', width));
  for (const f of a.existing) lines(out, width, PAD, `${f.finding === 'conflict' ? 'conflict' : 'never needed'}: ${f.rule} (${f.file}): ${f.detail}`);
  for (const f of a.rule_files) if (f.error !== null) lines(out, width, '  ', `could not read ${f.file}: ${f.error}`);
  for (const n of a.notes) lines(out, width, '  note: ', n);
  return out;
}

export function formatRulesReport(r: RulesReport, width = Number.POSITIVE_INFINITY): string {
  if (r.agents.length === 0) return 'no sessions read: no rule to suggest\n';
  return r.agents.map((a) => agentLines(a, r.min, width).join('\n')).join('\n\n') + '\n';
}
