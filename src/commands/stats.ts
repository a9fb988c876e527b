// `rec stats`: rejections and interruptions per agent, tool, kind and trigger; rejection rate per
// tool; the most refused commands; calls rejected yet run; siblings skipped per rejection.
import { exitStatus, runSelection } from '../merge/mergeRun.js';
import { OutputGuard } from '../merge/outputGuard.js';
import { parseSelectionArgs, type SelectionArgs } from '../merge/selectionArgs.js';
import { StatsAggregator } from '../stats/aggregateStats.js';
import { formatStatsTable } from '../stats/statsTable.js';
import { UsageError, type CommandIO } from './commandIO.js';

export const STATS_USAGE = `usage: rec stats [SESSION_FILE|DIR ...] [--run ID] [--agent codex|gemini|claude] [--since WHEN]
                 [--json] [--top N] [--db PATH] [--jobs N] [--no-progress]

Figures over the same sessions \`rec merge\` would read (see rec merge --help for the selection).
  --json             the figures as one JSON document
  --top N            how many of the most refused commands to list (default 10)
  --no-progress      no progress bar (it appears on a terminal when reading takes a few seconds)
`;

export async function statsCommand(args: string[], io: CommandIO): Promise<number> {
  let parsed: SelectionArgs;
  try {
    parsed = parseSelectionArgs(args, { json: true, top: true });
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`rec stats: ${err.message}\n${STATS_USAGE}`);
      return 2;
    }
    throw err;
  }
  if (parsed.help) {
    io.stdout.write(STATS_USAGE);
    return 0;
  }
  const agg = new StatsAggregator(parsed.top);
  // The figures are written at the end; a reader gone before that (`rec stats | true`) stops the reading.
  const out = new OutputGuard(io.stdout, io.stderr, 'stats');
  const summary = await runSelection('stats', parsed, io, 'stats', (r) => {
    if (r.stats) agg.add(r.stats);
  }, { signal: out.signal });
  if (!out.closed) {
    const report = agg.report();
    await out.write(parsed.json ? `${JSON.stringify(report, null, 2)}\n` : formatStatsTable(report));
  }
  if (out.failure !== null) return 1;
  if (out.closed) return 0;
  return exitStatus(summary);
}
