// The readable form of `rec stats`: small aligned tables, one per question.
import type { CountRow, StatsReport } from './aggregateStats.js';

/** Longest command shown in the table; the JSON keeps it whole. */
const MAX_COMMAND_CHARS = 70;

function table(title: string, header: string[], rows: string[][]): string {
  if (rows.length === 0) return `${title}\n  (none)\n`;
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string =>
    '  ' + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  return [title, line(header), ...rows.map(line)].join('\n') + '\n';
}

function counts(title: string, what: string, rows: CountRow[]): string {
  return table(title, [what, 'count'], rows.map((r) => [r.key, String(r.count)]));
}

function clip(s: string): string {
  return s.length > MAX_COMMAND_CHARS ? `${s.slice(0, MAX_COMMAND_CHARS - 1)}…` : s;
}

export function formatStatsTable(r: StatsReport): string {
  const parts: string[] = [];
  const agents = Object.entries(r.sessions_by_agent).map(([a, n]) => `${a} ${n}`).join(', ');
  parts.push(
    `${r.sessions} sessions${agents ? ` (${agents})` : ''}, ${r.calls} tool calls: ` +
      `${r.rejections.total} rejections, ${r.interruptions.total} interruptions, ${r.skipped.total} skipped, ` +
      `${r.approvals} approvals, ${r.unknown_fates} of unknown fate` +
      (r.diagnostics > 0 ? `, ${r.diagnostics} diagnostics` : '') +
      '\n',
  );
  parts.push(counts('Rejections per agent', 'agent', r.rejections.by_agent));
  parts.push(counts('Rejections per tool', 'tool', r.rejections.by_tool));
  parts.push(counts('Rejections per kind', 'kind', r.rejections.by_kind));
  parts.push(counts('Rejections per trigger', 'trigger', r.rejections.by_trigger));
  parts.push(counts('Rejections decided by', 'decided by', r.rejections.by_decided_by));
  parts.push(
    table(
      'Rejection rate per tool',
      ['tool', 'calls', 'rejected', 'rate'],
      r.rejection_rate_by_tool.map((t) => [t.tool, String(t.calls), String(t.rejections), `${(t.rate * 100).toFixed(1)}%`]),
    ),
  );
  parts.push(counts('Most refused commands', 'command', r.most_refused_commands.map((c) => ({ key: clip(c.key), count: c.count }))));
  parts.push(counts('Interruptions per agent', 'agent', r.interruptions.by_agent));
  parts.push(counts('Interruptions per tool', 'tool', r.interruptions.by_tool));
  parts.push(counts('Interruptions per kind', 'kind', r.interruptions.by_kind));
  parts.push(counts('Interruptions per trigger', 'trigger', r.interruptions.by_trigger));
  parts.push(
    table(
      `Calls rejected yet run: ${r.rejected_yet_ran.length}`,
      ['agent', 'tool', 'command', 'call_id'],
      r.rejected_yet_ran.map((x) => [x.agent, x.tool, clip(x.command ?? ''), x.call_id ?? '']),
    ),
  );
  const p = r.skipped.per_rejection;
  parts.push(
    table(
      `Siblings skipped per rejection: mean ${p.mean.toFixed(2)}, max ${p.max}, ${p.rejections_with_siblings} rejections with siblings`,
      ['siblings', 'rejections'],
      p.histogram.map((h) => [h.key, String(h.count)]),
    ),
  );
  return parts.join('\n');
}
