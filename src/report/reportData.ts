// The data `rec report` embeds in its page: the figures of `rec stats` (the same aggregator, so the
// same numbers), and what a page needs beyond them: decisions over time, rates per agent, the most
// refused commands with their reasons and sessions, interruptions with their partial output, and
// every session's decisions in order. Steps travel as arrays (STEP_FIELDS) to keep big reports small;
// the prompts they answered are listed once each (`prompts`) and named by index.
import type { DecisionStep, SessionDetail } from '../merge/sessionDetail.js';
import type { SessionStats } from '../merge/sessionStats.js';
import { compactSessions, type CompactSession, type ReportSession, type ReportStep } from './compactSessions.js';
import { StatsAggregator, type CountRow, type StatsReport } from '../stats/aggregateStats.js';

/** The order of a step's fields in the page's data. */
export const STEP_FIELDS = ['type', 'ts', 'tool', 'call_id', 'what', 'kind', 'trigger', 'option', 'reason', 'reason_source', 'ran', 'partial', 'decided_by'] as const;
type StepField = (typeof STEP_FIELDS)[number];
/** A prompt as the page lists it: its title and its options as [label, key or null]. */
export interface ReportPrompt {
  title: string;
  options: Array<[string, string | null]>;
}
/** Longest command, path list or reason kept per step; the page says when it was shortened. */
const MAX_TEXT = 500;
/** Reasons listed per refused command. */
const REASONS_PER_COMMAND = 5;
/** Sessions listed per refused command, and interruptions listed per kind. */
const LINKS_PER_ROW = 20;
/** Longer spans are counted per week (Monday to Sunday) rather than per day. */
const MAX_DAYS = 62;
const DAY_MS = 86_400_000;

export interface ReportData {
  generated_at: string;
  /** The time of the newest decision (or session start) the page covers; what the page shows, as it
   * names the data rather than the moment of writing, so the same sessions give the same page. */
  newest: string | null;
  /** The session the page opens on (`--run`), by its index in sessions. */
  open: number | null;
  stats: StatsReport;
  over_time: { unit: 'day' | 'week'; buckets: string[]; series: Array<{ agent: string; type: string; counts: number[] }>; undated: number };
  rate_by_agent: Array<{ agent: string; calls: number; rejections: number; rate: number }>;
  reason_source: CountRow[];
  refused: Array<{ what: string; count: number; reasons: string[]; sessions: number[] }>;
  interruptions: Array<{ kind: string; count: number; items: Array<{ session: number; tool: string; what: string | null; partial: string | null }> }>;
  /** The sessions, compacted (compactSessions.ts): their folders and files' folders index `paths`. */
  sessions: CompactSession[];
  paths: string[];
  prompts: ReportPrompt[];
}

const TYPES = ['rejection', 'interruption', 'skipped', 'approval', 'unknown'] as const;

function cut<T extends string | null>(s: T): T {
  return (s === null || s.length <= MAX_TEXT ? s : `${s.slice(0, MAX_TEXT)}…`) as T;
}

const FIELD_INDEX = Object.fromEntries(STEP_FIELDS.map((f, i) => [f, i])) as Record<StepField, number>;

/** A step's field, by name. */
function cell(step: ReportStep, field: StepField): string | null {
  const v = step[FIELD_INDEX[field]];
  return typeof v === 'string' ? v : null;
}

export class ReportBuilder {
  private readonly _stats: StatsAggregator;
  private readonly _sessions: ReportSession[] = [];
  private readonly _callsByAgent = new Map<string, number>();
  private readonly _prompts: ReportPrompt[] = [];
  /** Each distinct prompt's index in _prompts, by its JSON. */
  private readonly _promptIndex = new Map<string, number>();

  constructor(private readonly _top: number) {
    this._stats = new StatsAggregator(_top);
  }

  add(stats: SessionStats, detail: SessionDetail): void {
    this._stats.add(stats);
    const calls = Object.values(stats.calls_by_tool).reduce((a, b) => a + b, 0);
    this._callsByAgent.set(stats.agent, (this._callsByAgent.get(stats.agent) ?? 0) + calls);
    const counts: ReportSession['counts'] = [stats.rejections.length, stats.interruptions.length, stats.skipped, stats.approvals, stats.unknown];
    const steps = detail.steps.map((s) => {
      const step: ReportStep = STEP_FIELDS.map((f) => (f === 'what' || f === 'reason' ? cut(s[f]) : s[f]));
      if (s.prompt) {
        const chosen = s.prompt.options.findIndex((o) => o.chosen);
        step.push(this._promptOf(s.prompt), chosen < 0 ? null : chosen);
      }
      return step;
    });
    this._sessions.push({ agent: detail.agent, id: detail.session_id, file: detail.file, cwd: detail.cwd, started: detail.started_at, counts, steps });
  }

  build(now: Date, openFirst: boolean): ReportData {
    // Newest first, as a person looks for the session they just had.
    this._sessions.sort((a, b) => (b.started ?? '').localeCompare(a.started ?? ''));
    const stats = this._stats.report();
    const rejByAgent = new Map(stats.rejections.by_agent.map((r) => [r.key, r.count]));
    const rateByAgent = [...this._callsByAgent.keys()].sort().map((agent) => {
      const rejections = rejByAgent.get(agent) ?? 0;
      const calls = Math.max(this._callsByAgent.get(agent) ?? 0, rejections);
      return { agent, calls, rejections, rate: calls > 0 ? rejections / calls : 0 };
    });
    return {
      generated_at: now.toISOString(),
      newest: this._newest(),
      open: openFirst && this._sessions.length > 0 ? 0 : null,
      stats,
      over_time: this._overTime(),
      rate_by_agent: rateByAgent,
      reason_source: this._countSteps('rejection', (s) => cell(s, 'reason_source') ?? '(unknown)'),
      refused: this._refused(),
      interruptions: this._interruptions(),
      ...compactSessions(this._sessions),
      prompts: this._prompts,
    };
  }

  /** The index of a prompt in the list, added when it is new. */
  private _promptOf(prompt: NonNullable<DecisionStep['prompt']>): number {
    const shown: ReportPrompt = { title: cut(prompt.title), options: prompt.options.map((o) => [cut(o.label), o.key]) };
    const key = JSON.stringify(shown);
    let index = this._promptIndex.get(key);
    if (index === undefined) {
      index = this._prompts.push(shown) - 1;
      this._promptIndex.set(key, index);
    }
    return index;
  }

  private _newest(): string | null {
    let newest: { ms: number; text: string } | null = null;
    for (const s of this._sessions) {
      for (const text of [s.started, ...s.steps.map((st) => cell(st, 'ts'))]) {
        const ms = Date.parse(text ?? '');
        if (!Number.isNaN(ms) && (newest === null || ms > newest.ms)) newest = { ms, text: new Date(ms).toISOString() };
      }
    }
    return newest?.text ?? null;
  }

  private _countSteps(type: string, key: (step: ReportStep) => string): CountRow[] {
    const m = new Map<string, number>();
    for (const s of this._sessions) for (const st of s.steps) if (cell(st, 'type') === type) m.set(key(st), (m.get(key(st)) ?? 0) + 1);
    return [...m].map(([k, count]) => ({ key: k, count })).sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
  }

  private _overTime(): ReportData['over_time'] {
    const dated: Array<{ agent: string; type: string; ms: number }> = [];
    let undated = 0;
    for (const s of this._sessions) {
      for (const st of s.steps) {
        const ms = Date.parse(cell(st, 'ts') ?? s.started ?? '');
        if (Number.isNaN(ms)) undated++;
        else dated.push({ agent: s.agent, type: cell(st, 'type')!, ms });
      }
    }
    if (dated.length === 0) return { unit: 'day', buckets: [], series: [], undated };
    const first = Math.min(...dated.map((d) => d.ms));
    const last = Math.max(...dated.map((d) => d.ms));
    const unit = (last - first) / DAY_MS > MAX_DAYS ? 'week' : 'day';
    const bucketOf = (ms: number): number => {
      const day = Math.floor(ms / DAY_MS);
      // 1970-01-01 was a Thursday: day + 3 counts from a Monday.
      return unit === 'day' ? day : day - ((day + 3) % 7);
    };
    const start = bucketOf(first);
    const step = unit === 'day' ? 1 : 7;
    const buckets: string[] = [];
    for (let d = start; d <= bucketOf(last); d += step) buckets.push(new Date(d * DAY_MS).toISOString().slice(0, 10));
    const series = new Map<string, { agent: string; type: string; counts: number[] }>();
    for (const d of dated) {
      const k = `${d.agent}\u0000${d.type}`;
      if (!series.has(k)) series.set(k, { agent: d.agent, type: d.type, counts: buckets.map(() => 0) });
      series.get(k)!.counts[(bucketOf(d.ms) - start) / step]!++;
    }
    const order = (t: string) => TYPES.indexOf(t as (typeof TYPES)[number]);
    return { unit, buckets, series: [...series.values()].sort((a, b) => a.agent.localeCompare(b.agent) || order(a.type) - order(b.type)), undated };
  }

  private _refused(): ReportData['refused'] {
    const rows = new Map<string, { what: string; count: number; reasons: string[]; sessions: number[] }>();
    this._sessions.forEach((s, index) => {
      for (const st of s.steps) {
        const what = cell(st, 'what');
        if (cell(st, 'type') !== 'rejection' || what === null) continue;
        const row = rows.get(what) ?? { what, count: 0, reasons: [], sessions: [] };
        rows.set(what, row);
        row.count++;
        const reason = cell(st, 'reason');
        if (reason && row.reasons.length < REASONS_PER_COMMAND && !row.reasons.includes(reason)) row.reasons.push(reason);
        if (row.sessions.length < LINKS_PER_ROW && !row.sessions.includes(index)) row.sessions.push(index);
      }
    });
    return [...rows.values()].sort((a, b) => b.count - a.count || a.what.localeCompare(b.what)).slice(0, this._top);
  }

  private _interruptions(): ReportData['interruptions'] {
    const kinds = new Map<string, ReportData['interruptions'][number]>();
    this._sessions.forEach((s, index) => {
      for (const st of s.steps) {
        if (cell(st, 'type') !== 'interruption') continue;
        const kind = cell(st, 'kind') ?? '(unknown)';
        const row = kinds.get(kind) ?? { kind, count: 0, items: [] };
        kinds.set(kind, row);
        row.count++;
        if (row.items.length < LINKS_PER_ROW) row.items.push({ session: index, tool: cell(st, 'tool') ?? '', what: cell(st, 'what'), partial: cell(st, 'partial') });
      }
    });
    return [...kinds.values()].sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind));
  }
}
