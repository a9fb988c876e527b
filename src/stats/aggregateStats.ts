// Adds up SessionStats into the figures `rec stats` prints: rejections and interruptions per
// agent, tool, kind and trigger; rejection rate per tool; the most refused commands; calls
// rejected yet run; siblings skipped per rejection.
import type { SessionStats } from '../merge/sessionStats.js';

export interface CountRow {
  key: string;
  count: number;
}

export interface StatsReport {
  sessions: number;
  sessions_by_agent: Record<string, number>;
  calls: number;
  rejections: {
    total: number;
    by_agent: CountRow[];
    by_tool: CountRow[];
    by_kind: CountRow[];
    by_trigger: CountRow[];
    by_decided_by: CountRow[];
  };
  interruptions: { total: number; by_agent: CountRow[]; by_tool: CountRow[]; by_kind: CountRow[]; by_trigger: CountRow[] };
  rejection_rate_by_tool: Array<{ tool: string; calls: number; rejections: number; rate: number }>;
  most_refused_commands: CountRow[];
  rejected_yet_ran: Array<{ agent: string; session_id: string | null; file: string | null; call_id: string | null; tool: string; command: string | null }>;
  skipped: { total: number; per_rejection: { rejections_with_siblings: number; max: number; mean: number; histogram: CountRow[] } };
  approvals: number;
  unknown_fates: number;
  diagnostics: number;
  /** Decisions the agents' files show that rec missed while it recorded (a changed prompt screen). */
  misses: { total: number; by_agent: CountRow[] };
}

class Counter {
  private readonly _m = new Map<string, number>();
  add(key: string, n = 1): void {
    this._m.set(key, (this._m.get(key) ?? 0) + n);
  }
  get(key: string): number {
    return this._m.get(key) ?? 0;
  }
  rows(limit = Number.POSITIVE_INFINITY): CountRow[] {
    return [...this._m.entries()]
      .map(([key, count]) => ({ key, count }))
      .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .slice(0, limit);
  }
  keys(): string[] {
    return [...this._m.keys()];
  }
}

export class StatsAggregator {
  private _sessions = 0;
  private readonly _sessionsByAgent = new Counter();
  private readonly _calls = new Counter();
  private readonly _rej = { agent: new Counter(), tool: new Counter(), kind: new Counter(), trigger: new Counter(), decided: new Counter() };
  private readonly _int = { agent: new Counter(), tool: new Counter(), kind: new Counter(), trigger: new Counter() };
  private readonly _commands = new Counter();
  private readonly _skippedHist = new Counter();
  private readonly _ranAnyway: StatsReport['rejected_yet_ran'] = [];
  private _rejections = 0;
  private _interruptions = 0;
  private _skipped = 0;
  private _siblingsSum = 0;
  private _siblingsMax = 0;
  private _withSiblings = 0;
  private _approvals = 0;
  private _unknown = 0;
  private _diagnostics = 0;
  private readonly _misses = new Counter();

  constructor(private readonly _top = 10) {}

  add(s: SessionStats): void {
    this._sessions++;
    this._sessionsByAgent.add(s.agent);
    for (const [tool, n] of Object.entries(s.calls_by_tool)) this._calls.add(tool, n);
    for (const r of s.rejections) {
      this._rejections++;
      this._rej.agent.add(s.agent);
      this._rej.tool.add(r.tool);
      this._rej.kind.add(r.kind);
      this._rej.trigger.add(r.trigger);
      this._rej.decided.add(r.decided_by);
      if (r.command !== null) this._commands.add(r.command);
      if (r.ran === 'yes') this._ranAnyway.push({ agent: s.agent, session_id: s.session_id, file: s.file, call_id: r.call_id, tool: r.tool, command: r.command });
      this._skippedHist.add(String(r.skipped));
      if (r.skipped > 0) this._withSiblings++;
      this._siblingsSum += r.skipped;
      this._siblingsMax = Math.max(this._siblingsMax, r.skipped);
    }
    for (const i of s.interruptions) {
      this._interruptions++;
      this._int.agent.add(s.agent);
      this._int.tool.add(i.tool);
      this._int.kind.add(i.kind);
      this._int.trigger.add(i.trigger);
    }
    this._skipped += s.skipped;
    this._approvals += s.approvals;
    this._unknown += s.unknown;
    this._diagnostics += s.diagnostics;
    if (s.misses > 0) this._misses.add(s.agent, s.misses);
  }

  report(): StatsReport {
    const tools = new Set([...this._calls.keys(), ...this._rej.tool.keys()]);
    const rates = [...tools]
      .map((tool) => {
        const rejections = this._rej.tool.get(tool);
        const calls = Math.max(this._calls.get(tool), rejections);
        return { tool, calls, rejections, rate: calls > 0 ? rejections / calls : 0 };
      })
      .sort((a, b) => b.rate - a.rate || b.calls - a.calls || (a.tool < b.tool ? -1 : 1));
    const histogram = this._skippedHist.rows().sort((a, b) => Number(a.key) - Number(b.key));
    return {
      sessions: this._sessions,
      sessions_by_agent: Object.fromEntries(this._sessionsByAgent.rows().map((r) => [r.key, r.count])),
      calls: this._calls.rows().reduce((n, r) => n + r.count, 0),
      rejections: {
        total: this._rejections,
        by_agent: this._rej.agent.rows(),
        by_tool: this._rej.tool.rows(),
        by_kind: this._rej.kind.rows(),
        by_trigger: this._rej.trigger.rows(),
        by_decided_by: this._rej.decided.rows(),
      },
      interruptions: {
        total: this._interruptions,
        by_agent: this._int.agent.rows(),
        by_tool: this._int.tool.rows(),
        by_kind: this._int.kind.rows(),
        by_trigger: this._int.trigger.rows(),
      },
      rejection_rate_by_tool: rates,
      most_refused_commands: this._commands.rows(this._top),
      rejected_yet_ran: this._ranAnyway,
      skipped: {
        total: this._skipped,
        per_rejection: {
          rejections_with_siblings: this._withSiblings,
          max: this._siblingsMax,
          mean: this._rejections > 0 ? this._siblingsSum / this._rejections : 0,
          histogram,
        },
      },
      approvals: this._approvals,
      unknown_fates: this._unknown,
      diagnostics: this._diagnostics,
      misses: { total: this._misses.rows().reduce((n, r) => n + r.count, 0), by_agent: this._misses.rows() },
    };
  }
}
