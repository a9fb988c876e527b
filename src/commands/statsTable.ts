// The readable form of `rec stats`: a short summary first, then one small table per question that
// has an answer (every table with --all). Tables fit the terminal; the JSON keeps everything whole.
import { cell, formatTable, plural, type Column } from './formatTable.js';
import type { CountRow, StatsReport } from '../stats/aggregateStats.js';

export interface StatsTableOptions {
  /** Show empty tables too. */
  readonly all?: boolean;
  /** Display columns available (Infinity: piped, nothing is cut). */
  readonly width?: number;
}

interface Section {
  readonly title: string;
  readonly columns: readonly Column[];
  readonly rows: string[][];
}

const INDENT = '  ';

function counts(title: string, what: string, rows: readonly CountRow[]): Section {
  return { title, columns: [{ header: what, shrink: true }, { header: 'count', align: 'right' }], rows: rows.map((r) => [cell(r.key), String(r.count)]) };
}

export function formatStatsTable(r: StatsReport, opts: StatsTableOptions = {}): string {
  const width = opts.width ?? Number.POSITIVE_INFINITY;
  const p = r.skipped.per_rejection;
  const sections: Section[] = [
    counts('Rejections per agent', 'agent', r.rejections.by_agent),
    counts('Rejections per tool', 'tool', r.rejections.by_tool),
    counts('Rejections per kind', 'kind', r.rejections.by_kind),
    counts('Rejections per trigger', 'trigger', r.rejections.by_trigger),
    counts('Rejections decided by', 'decided by', r.rejections.by_decided_by),
    {
      title: 'Rejection rate per tool',
      columns: [{ header: 'tool', shrink: true }, { header: 'calls', align: 'right' }, { header: 'rejected', align: 'right' }, { header: 'rate', align: 'right' }],
      // A table of 0.0% says nothing: it counts as empty until something was rejected.
      rows: r.rejections.total === 0 ? [] : r.rejection_rate_by_tool.map((t) => [cell(t.tool), String(t.calls), String(t.rejections), `${(t.rate * 100).toFixed(1)}%`]),
    },
    counts('Most refused commands', 'command', r.most_refused_commands),
    counts('Interruptions per agent', 'agent', r.interruptions.by_agent),
    counts('Interruptions per tool', 'tool', r.interruptions.by_tool),
    counts('Interruptions per kind', 'kind', r.interruptions.by_kind),
    counts('Interruptions per trigger', 'trigger', r.interruptions.by_trigger),
    counts('Decisions rec missed, per agent (rec doctor)', 'agent', r.misses.by_agent),
    {
      title: `Calls rejected yet run: ${r.rejected_yet_ran.length}`,
      columns: [{ header: 'agent' }, { header: 'tool', shrink: true }, { header: 'command', shrink: true }, { header: 'call_id' }],
      rows: r.rejected_yet_ran.map((x) => [cell(x.agent), cell(x.tool), cell(x.command), cell(x.call_id)]),
    },
    {
      title: `Siblings skipped per rejection: mean ${p.mean.toFixed(2)}, max ${p.max}, ${plural(p.rejections_with_siblings, 'rejection')} with siblings`,
      columns: [{ header: 'siblings', align: 'right' }, { header: 'rejections', align: 'right' }],
      // Only worth a table once some rejection had siblings.
      rows: p.rejections_with_siblings === 0 ? [] : p.histogram.map((h) => [cell(h.key), String(h.count)]),
    },
  ];
  const shown = opts.all ? sections : sections.filter((s) => s.rows.length > 0);
  const parts = [summary(r, width)];
  for (const s of shown) {
    parts.push(s.rows.length === 0 ? `${s.title}\n${INDENT}(none)\n` : `${s.title}\n${formatTable(s.columns, s.rows, width, INDENT)}`);
  }
  const hidden = sections.length - shown.length;
  if (hidden > 0) parts.push(`(${plural(hidden, 'empty table')} left out; --all shows every table)\n`);
  return parts.join('\n');
}

/** Two sentences: what was read, and what became of the tool calls. */
function summary(r: StatsReport, width: number): string {
  const agents = Object.entries(r.sessions_by_agent).map(([a, n]) => `${cell(a)} ${n}`).join(', ');
  const read = `${plural(r.sessions, 'session')}${agents ? ` (${agents})` : ''}, ${plural(r.calls, 'tool call')}` + (r.diagnostics > 0 ? `, ${plural(r.diagnostics, 'diagnostic')}.` : '.');
  const fates =
    `${plural(r.rejections.total, 'rejection')}, ${plural(r.interruptions.total, 'interruption')}, ${r.skipped.total} skipped, ` +
    `${plural(r.approvals, 'approval')}, ${r.unknown_fates} of unknown fate.`;
  const missed = r.misses.total > 0 ? ` rec missed ${plural(r.misses.total, 'decision')} the agents' files show.` : '';
  return wrap(`${read} ${fates}${missed}`, width) + '\n';
}

function wrap(text: string, width: number): string {
  if (!Number.isFinite(width)) return text;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.join('\n');
}
