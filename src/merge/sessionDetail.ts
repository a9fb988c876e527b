// What one merged session contributes to `rec report` beyond its figures: when and where it ran, and
// each decision in order, with the prompt and its options, the key, the option, the reason and what
// became of the call. Kept
// compact (no messages, no tool inputs) so that thousands of sessions cross from a worker cheaply.
import type { MergedSession, PromptShown } from './mergedSession.js';
import { actionSummary, NONE } from './sessionStats.js';

/** Longest partial output kept per interruption: the page shows it behind a click, not the whole stream. */
export const MAX_PARTIAL_CHARS = 2000;

export interface DecisionStep {
  /** rejection, interruption, skipped, approval or unknown. */
  type: string;
  ts: string | null;
  tool: string;
  call_id: string | null;
  /** The command or the edited files. */
  what: string | null;
  /** The rejection or interruption kind, the approval's scope, a skipped call's refused sibling. */
  kind: string | null;
  trigger: string | null;
  /** Who decided a rejection or approval: `user`, or the rule, hook, config or reviewer that did. */
  decided_by: string | null;
  option: string | null;
  reason: string | null;
  reason_source: string | null;
  ran: string | null;
  partial: string | null;
  /** The prompt the decision answered, with the options it offered (the chosen one marked). */
  prompt: PromptShown | null;
}

export interface SessionDetail {
  agent: string;
  session_id: string | null;
  file: string | null;
  cwd: string | null;
  started_at: string | null;
  steps: DecisionStep[];
}

const blank = { kind: null, trigger: null, decided_by: null, option: null, reason: null, reason_source: null, ran: null, partial: null, prompt: null };

export function toSessionDetail(s: MergedSession): SessionDetail {
  const steps: DecisionStep[] = [];
  const base = (e: MergedSession['rejections'][number] | MergedSession['approvals'][number] | MergedSession['skipped'][number] | MergedSession['unknown'][number]) => ({
    ts: e.timestamp,
    tool: e.tool_name ?? NONE,
    call_id: e.call_id,
    what: actionSummary(e.action),
  });
  for (const r of s.rejections) {
    steps.push({ ...blank, type: 'rejection', ...base(r), kind: r.rejection_type, trigger: r.trigger, decided_by: r.decided_by, option: r.option_label, reason: r.reason, reason_source: r.reason_source, ran: r.ran, prompt: r.prompt });
  }
  for (const i of s.interruptions) {
    const partial = i.partial_output === null ? null : i.partial_output.slice(0, MAX_PARTIAL_CHARS);
    steps.push({ ...blank, type: 'interruption', ts: i.timestamp, tool: i.tool_name ?? '(turn)', call_id: i.call_id, what: actionSummary(i.action), kind: i.kind, trigger: i.trigger, partial, prompt: i.prompt });
  }
  for (const k of s.skipped) steps.push({ ...blank, type: 'skipped', ...base(k), kind: k.related_call_id });
  for (const a of s.approvals) steps.push({ ...blank, type: 'approval', ...base(a), kind: a.scope, trigger: a.trigger, decided_by: a.decided_by, option: a.option_label, prompt: a.prompt });
  for (const u of s.unknown) steps.push({ ...blank, type: 'unknown', ...base(u), kind: u.possible.join(' or ') });
  // In time order; entries without a time keep their place after the timed ones.
  steps.sort((a, b) => (a.ts ?? '\uffff').localeCompare(b.ts ?? '\uffff'));
  return {
    agent: s.session.agent,
    session_id: s.session.agent_session_id,
    file: s.session.files[0] ?? null,
    cwd: s.session.cwd,
    started_at: s.session.started_at,
    steps,
  };
}
