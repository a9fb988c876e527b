// `rec runs`: the recorded runs, newest first — a table for people, JSON Lines for programs.
import { shortId } from '../store/ids.js';
import { isRunLive, type Run } from '../store/run.js';
import type { CommandIO } from './commandIO.js';
import { ignoreBrokenPipe, parseOrReport, reportSkippedRows } from './commandKit.js';
import { RUNS_SPEC } from './commandSpec.js';
import { cell, formatArgv, formatDuration, formatTable, localTime, type Column } from './formatTable.js';
import { parseCount } from './optionValues.js';
import { openForReading } from './runRef.js';
import { outputWidth } from './terminalText.js';

/** Enough to see today's runs at a glance; --limit 0 shows all. */
export const DEFAULT_RUNS_LIMIT = 20;

export async function runsCommand(args: string[], io: CommandIO): Promise<number> {
  let limit = DEFAULT_RUNS_LIMIT;
  const parsed = parseOrReport(RUNS_SPEC, args, io, (p) => {
    if (typeof p.values.limit === 'string') limit = parseCount('limit', p.values.limit, 0);
  });
  if (typeof parsed === 'number') return parsed;
  const db = openForReading(parsed.values.db as string | undefined, 'runs', io);
  if (db === undefined) return 1;
  ignoreBrokenPipe(io);
  try {
    const runs = db.listRuns({ limit });
    if (parsed.values.json === true) {
      if (runs.length > 0) io.stdout.write(runs.map((run) => JSON.stringify(run) + '\n').join(''));
    } else if (runs.length === 0) {
      io.stdout.write(`No runs recorded yet in ${cell(db.path)}.\n`);
    } else {
      const counts = db.countEvents(runs.map((r) => r.id));
      io.stdout.write(toRunsTable(runs, counts, outputWidth(io.stdout)));
    }
    return reportSkippedRows(db, 'runs', io);
  } finally {
    db.close();
  }
}

const RUN_COLUMNS: readonly Column[] = [
  { header: 'ID' },
  { header: 'STARTED' },
  { header: 'DURATION', dropOrder: 2 },
  { header: 'AGENT' },
  { header: 'VERSION', dropOrder: 1 },
  { header: 'EXIT' },
  { header: 'EVENTS', align: 'right' },
  { header: 'FAILED', shrink: true, dropOrder: 3 },
  { header: 'COMMAND', shrink: true },
];

function toRunsTable(runs: readonly Run[], counts: ReadonlyMap<string, number>, width: number): string {
  const rows = runs.map((run) => [
    shortId(run.id),
    localTime(run.started_at),
    run.ended_at === null ? '-' : formatDuration(Date.parse(run.ended_at) - Date.parse(run.started_at)),
    cell(run.agent),
    cell(run.agent_version),
    formatExit(run),
    String(counts.get(run.id) ?? 0),
    run.failed_parts.length === 0 ? '-' : cell(run.failed_parts.map((p) => p.part).join(',')),
    cell(formatArgv(run.argv)),
  ]);
  return formatTable(RUN_COLUMNS, rows, width);
}

function formatExit(run: Run): string {
  if (run.signal !== null) return `sig${run.signal}`;
  if (run.exit_code !== null) return String(run.exit_code);
  if (run.ended_at !== null) return '-';
  // No end recorded: still running, or rec itself was killed before it could write the end.
  return isRunLive(run) ? 'running' : '?';
}
