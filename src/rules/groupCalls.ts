// Calls grouped the way rules are written: commands by their program and subcommand, edits by the
// project folder they fall in, fetches by host, MCP calls by server and tool. A rule is then
// made from one group, never from two.
import type { DecisionOutcome, SessionDecisions } from '../merge/sessionDecisions.js';
import type { RuleKind } from './ruleTypes.js';
import { subjectsOf, type Subject } from './subjects.js';

export interface Occurrence {
  readonly subject: Subject;
  readonly outcome: DecisionOutcome;
  readonly session: string;
  readonly timestamp: string | null;
  readonly reason: string | null;
  readonly tool: string;
  readonly cwd: string | null;
}

export interface Group {
  readonly kind: RuleKind;
  readonly key: string;
  readonly items: Occurrence[];
}

/** A second word that names a subcommand (`git status`, `npm run`), not a file or an option. */
const SUBCOMMAND = /^[a-z][a-z0-9:_-]*$/i;

function groupKey(s: Subject): string {
  switch (s.kind) {
    case 'command': {
      if (!s.plain) return `x\0${s.text}`;
      const w = s.words;
      return `c\0${w[0]}${w[1] !== undefined && SUBCOMMAND.test(w[1]) ? ` ${w[1]}` : ''}`;
    }
    case 'edit': {
      const slash = s.path.indexOf('/', s.inProject ? 0 : 1);
      const top = s.inProject ? (slash < 0 ? s.path : s.path.slice(0, slash)) : s.path.slice(0, s.path.lastIndexOf('/'));
      return `e\0${s.inProject ? '' : '/'}${top}`;
    }
    case 'fetch':
      return `f\0${s.host}`;
    case 'mcp':
      return `m\0${s.server}\0${s.tool}`;
  }
}

/** The occurrences of one agent's sessions, grouped; in first-seen order. */
export class CallGroups {
  readonly groups = new Map<string, Group>();
  sessions = 0;
  sessionsWithoutSidecar = 0;
  readonly cwds = new Set<string>();

  add(s: SessionDecisions): void {
    this.sessions++;
    if (!s.recorded) this.sessionsWithoutSidecar++;
    if (s.cwd !== null) this.cwds.add(s.cwd);
    const session = s.session_id ?? s.file ?? `#${this.sessions}`;
    for (const c of s.calls) {
      for (const subject of subjectsOf(c, s.cwd)) {
        const key = groupKey(subject);
        let g = this.groups.get(key);
        if (g === undefined) this.groups.set(key, (g = { kind: subject.kind, key, items: [] }));
        g.items.push({ subject, outcome: c.outcome, session, timestamp: c.timestamp, reason: c.reason, tool: c.tool, cwd: s.cwd });
      }
    }
  }

  /** Every refused occurrence of the agent, in any group. */
  refused(): Occurrence[] {
    return [...this.groups.values()].flatMap((g) => g.items.filter((o) => o.outcome === 'refused'));
  }
}
