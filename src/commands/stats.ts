// `rec stats`: rejections and interruptions per agent, tool, kind and trigger; rejection rate per
// tool; the most refused commands; calls rejected yet run; siblings skipped per rejection.
import { exitStatus } from '../merge/mergeRun.js';
import { OutputGuard } from '../merge/outputGuard.js';
import { StatsAggregator } from '../stats/aggregateStats.js';
import { formatStatsTable } from './statsTable.js';
import type { CommandIO } from './commandIO.js';
import { parseOrReport } from './commandKit.js';
import { STATS_SPEC } from './commandSpec.js';
import { toSelectionArgs, type SelectionArgs } from './selectionArgs.js';
import { runSelectionCommand } from './selectionRun.js';
import { outputWidth } from './terminalText.js';

export async function statsCommand(args: string[], io: CommandIO): Promise<number> {
  let parsed!: SelectionArgs;
  const status = parseOrReport(STATS_SPEC, args, io, (p) => (parsed = toSelectionArgs(p)));
  if (typeof status === 'number') return status;
  const agg = new StatsAggregator(parsed.top);
  // The figures are written at the end; a reader gone before that (`rec stats | true`) stops the reading.
  const out = new OutputGuard(io.stdout, io.stderr, 'stats');
  const outcome = await runSelectionCommand('stats', parsed, io, 'stats', (r) => {
    if (r.stats) agg.add(r.stats);
  }, { signal: out.signal, whereAll: 'rec stats --all prints every one' });
  if (!outcome.ok) return outcome.status;
  if (!out.closed) {
    const report = agg.report();
    await out.write(parsed.json ? `${JSON.stringify(report, null, 2)}\n` : formatStatsTable(report, { all: parsed.all, width: outputWidth(io.stdout) }));
  }
  if (out.failure !== null) return 1;
  if (out.closed) return 0;
  return exitStatus(outcome.summary);
}
