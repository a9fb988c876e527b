// The rules suggested from what the user did. A group becomes an allow rule when the user approved
// it at least `min` times and never refused it, and nothing in the safety list forbids it; a group
// the user refused repeatedly becomes a deny rule (or an ask rule when they also approved it).
import type { SessionDecisions } from '../merge/sessionDecisions.js';
import { agentEntry, GUARDED_PATH, prefixOnly, targetOf } from './agentFormats.js';
import { CallGroups, type Group, type Occurrence } from './groupCalls.js';
import { covers, matchOf, subjectText, widestText, wordsOf } from './ruleMatch.js';
import type { AgentRules, Evidence, RuleDecision, RuleMatch, RulesReport, SuggestedRule, Withheld } from './ruleTypes.js';
import { commandDanger, prefixDanger } from './safety.js';
import type { Subject } from './subjects.js';

/** Approvals a group needs before rec suggests allowing it, unless told (--min). */
export const DEFAULT_MIN = 3;
/** Refusals that make a group's refusal a habit worth a deny or ask rule. */
export const REPEATED_REFUSALS = 2;
/** Covered commands given to the agent's format as examples (Codex's `match`). */
const MAX_EXAMPLES = 3;

const isApproval = (o: Occurrence): boolean => o.outcome === 'approved';
const isRefusal = (o: Occurrence): boolean => o.outcome === 'refused';

export class RulesAggregator {
  private readonly _byAgent = new Map<string, CallGroups>();

  constructor(private readonly _min: number = DEFAULT_MIN) {}

  add(s: SessionDecisions): void {
    let g = this._byAgent.get(s.agent);
    if (g === undefined) this._byAgent.set(s.agent, (g = new CallGroups()));
    g.add(s);
  }

  /** Every call of the agent's sessions, as rules see it. */
  occurrences(agent: string): Occurrence[] {
    return [...(this._byAgent.get(agent)?.groups.values() ?? [])].flatMap((g) => g.items);
  }

  report(): RulesReport {
    const agents = [...this._byAgent.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([agent, g]) => this._agentRules(agent, g));
    return { min: this._min, repeated_refusals: REPEATED_REFUSALS, agents };
  }

  private _agentRules(agent: string, g: CallGroups): AgentRules {
    const cwd = g.cwds.size === 1 ? [...g.cwds][0]! : null;
    const out: AgentRules = {
      agent,
      project: cwd,
      sessions: g.sessions,
      sessions_without_sidecar: g.sessionsWithoutSidecar,
      target: targetOf(agent),
      allow: [],
      deny_or_ask: [],
      withheld: [],
      existing: [],
      rule_files: [],
      notes: [],
    };
    const refused = g.refused();
    for (const group of g.groups.values()) {
      const allow = this._allowRule(agent, group, refused, cwd);
      if (allow !== null) sortInto(allow, out.allow, out.withheld);
      const stop = this._stopRule(agent, group, cwd);
      if (stop !== null) sortInto(stop, out.deny_or_ask, out.withheld);
    }
    const bySaved = (a: SuggestedRule, b: SuggestedRule): number => b.evidence.prompts_saved - a.evidence.prompts_saved;
    out.allow.sort(bySaved);
    out.deny_or_ask.sort(bySaved);
    if (g.sessionsWithoutSidecar > 0) {
      out.notes.push(
        `${g.sessionsWithoutSidecar} of ${g.sessions} sessions were not recorded by rec: what was approved at a prompt there ` +
          'cannot be told from what ran unasked, so only their refusals count',
      );
    }
    if (g.cwds.size > 1) out.notes.push(`the sessions ran in ${g.cwds.size} folders: edit rules are per project, run rec rules on one project's sessions for them`);
    return out;
  }

  private _allowRule(agent: string, group: Group, refused: readonly Occurrence[], cwd: string | null): SuggestedRule | Withheld | null {
    const approved = group.items.filter(isApproval);
    if (approved.length < this._min) return null;
    const refusals = group.items.filter(isRefusal);
    const held = (reason: string): Withheld => withheld(agent, group, reason);
    if (refusals.length > 0) return held(`refused ${refusals.length} time${refusals.length === 1 ? '' : 's'}: rec never allows what was refused`);
    if (group.items.some((o) => o.subject.kind === 'edit' && GUARDED_PATH.test(o.subject.path))) {
      return held("edits of the agent's settings, git's folder or secrets are never allowed by a rule");
    }
    const first = approved[0]!.subject;
    if (first.kind === 'command' && !first.plain) return held('a redirection, substitution or subshell: not generalised (the agents prompt for such commands)');
    const m = matchOf(approved.map((o) => o.subject));
    if (m === null) return held('no rule short of the whole tool covers these calls');
    const danger = commandMatchDanger(m, agent, approved.map((o) => o.subject));
    if (danger !== null) return held(danger);
    const clash = refused.find((o) => covers(m, o.subject, agent));
    if (clash !== undefined) return held(`would also allow \`${subjectText(clash.subject)}\`, which was refused`);
    return this._rule(agent, 'allow', m, group, cwd);
  }

  private _stopRule(agent: string, group: Group, cwd: string | null): SuggestedRule | Withheld | null {
    const refusals = group.items.filter(isRefusal);
    if (refusals.length < REPEATED_REFUSALS) return null;
    const first = refusals[0]!.subject;
    if (first.kind === 'command' && !first.plain) return null;
    const m = matchOf(refusals.map((o) => o.subject));
    if (m === null) return withheld(agent, group, 'the refused calls share no rule short of the whole tool');
    // A call the rule would stop that was approved, or ran with no decision recorded (perhaps
    // approved where rec did not watch), makes it an ask rule: a deny would block it unasked.
    const allowedOnce = group.items.some((o) => o.outcome !== 'refused' && covers(m, o.subject, agent));
    return this._rule(agent, allowedOnce ? 'ask' : 'deny', m, group, cwd);
  }

  private _rule(agent: string, decision: RuleDecision, m: RuleMatch, group: Group, cwd: string | null): SuggestedRule {
    const covered = group.items.filter((o) => covers(m, o.subject, agent));
    const evidence = evidenceOf(covered, decision);
    const examples = m.kind === 'command' ? evidence.covers.slice(0, MAX_EXAMPLES).map((c) => wordsOfText(covered, c.text)) : [];
    const justification =
      decision === 'allow'
        ? `rec: approved ${counted(evidence.approvals, 'time')} in ${counted(evidence.sessions, 'session')}, never refused`
        : `rec: refused ${counted(evidence.refusals, 'time')}${evidence.reasons.length > 0 ? `: ${evidence.reasons[0]}` : ''}`;
    const tools = [...new Set(covered.map((o) => o.tool))];
    const e = agentEntry(agent, m, { decision, tools, examples, justification, cwd });
    return { agent, decision, match: m, tools, widest: widestText(m, agent), entry: e.entry, no_entry_reason: e.reason, evidence };
  }
}

/** `1 session`, `2 sessions`: the justification is read by people, in the agent's own file. */
function counted(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function sortInto(x: SuggestedRule | Withheld, rules: SuggestedRule[], held: Withheld[]): void {
  if ('match' in x) rules.push(x);
  else held.push(x);
}

function withheld(agent: string, group: Group, reason: string): Withheld {
  const first = group.items[0]!.subject;
  return {
    agent,
    kind: group.kind,
    subject: subjectText(first),
    approvals: group.items.filter(isApproval).length,
    refusals: group.items.filter(isRefusal).length,
    reason,
  };
}

/** The safety list over a command match: each approved command, then the prefix the agent would read. */
function commandMatchDanger(m: RuleMatch, agent: string, subjects: readonly Subject[]): string | null {
  if (m.kind !== 'command') return null;
  for (const s of subjects) if (s.kind === 'command') {
    const d = commandDanger(wordsOf(s));
    if (d !== null) return d;
  }
  return m.exact && !prefixOnly(agent) ? null : prefixDanger(m.words);
}

function wordsOfText(items: readonly Occurrence[], text: string): readonly string[] {
  const o = items.find((x) => subjectText(x.subject) === text);
  return o !== undefined && o.subject.kind === 'command' ? wordsOf(o.subject) : [];
}

function evidenceOf(items: readonly Occurrence[], decision: RuleDecision): Evidence {
  const counts = new Map<string, number>();
  for (const o of items) counts.set(subjectText(o.subject), (counts.get(subjectText(o.subject)) ?? 0) + 1);
  const times = items.map((o) => o.timestamp).filter((t): t is string => t !== null).sort();
  const approvals = items.filter(isApproval).length;
  const refusals = items.filter(isRefusal).length;
  return {
    prompts_saved: decision === 'allow' ? approvals : refusals,
    approvals,
    refusals,
    ran_unprompted: items.filter((o) => o.outcome === 'ran' || o.outcome === 'auto').length,
    sessions: new Set(items.map((o) => o.session)).size,
    first_seen: times[0] ?? null,
    last_seen: times.at(-1) ?? null,
    covers: [...counts.entries()].map(([text, count]) => ({ text, count })).sort((a, b) => b.count - a.count || a.text.localeCompare(b.text)),
    reasons: [...new Set(items.filter(isRefusal).map((o) => o.reason).filter((r): r is string => r !== null && r.trim() !== ''))],
  };
}
