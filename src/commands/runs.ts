// `rec runs`: the recorded runs, newest first — a table for people, JSON Lines for programs.
import { resolveDbPath } from '../store/dbPath.js';
import { shortId } from '../store/ids.js';
import type { Run } from '../store/run.js';
import { openSidecar, type SidecarDb } from '../store/sidecarDb.js';
import { UsageError, type CommandIO } from './commandIO.js';
import { parseFlags, parsePositiveInt } from './formatArgs.js';
import { cell, formatArgv, formatDuration, formatTable, localTime } from './formatTable.js';

export const RUNS_USAGE = 'usage: rec runs [--db PATH] [--json] [--limit N]';
/** Enough to see today's runs at a glance; --limit 0 shows all. */
export const DEFAULT_RUNS_LIMIT = 20;
const COMMAND_WIDTH = 60;

export async function runsCommand(args: string[], io: CommandIO): Promise<number> {
  let limit = DEFAULT_RUNS_LIMIT;
  let flags;
  try {
    flags = parseFlags(args, { db: 'string', json: 'boolean', limit: 'string' });
    if (typeof flags.limit === 'string') limit = parsePositiveInt('limit', flags.limit);
  } catch (err) {
    return reportUsage(err, 'runs', RUNS_USAGE, io);
  }
  const db = openForReading(flags.db as string | undefined, io);
  if (db === undefined) return 1;
  ignoreBrokenPipe(io);
  try {
    const runs = db.listRuns({ limit });
    if (flags.json === true) {
      if (runs.length > 0) io.stdout.write(runs.map((run) => JSON.stringify(run) + '\n').join(''));
    } else if (runs.length === 0) {
      io.stdout.write(`No runs recorded yet in ${db.path}.\n`);
    } else {
      const counts = db.countEvents(runs.map((r) => r.id));
      io.stdout.write(toRunsTable(runs, counts));
    }
    return 0;
  } finally {
    db.close();
  }
}

function toRunsTable(runs: readonly Run[], counts: ReadonlyMap<string, number>): string {
  const rows = runs.map((run) => [
    shortId(run.id),
    localTime(run.started_at),
    run.ended_at === null ? '-' : formatDuration(Date.parse(run.ended_at) - Date.parse(run.started_at)),
    run.agent,
    cell(run.agent_version, 16),
    formatExit(run),
    String(counts.get(run.id) ?? 0),
    run.failed_parts.length === 0 ? '-' : cell(run.failed_parts.map((p) => p.part).join(','), 24),
    cell(formatArgv(run.argv), COMMAND_WIDTH),
  ]);
  return formatTable(['ID', 'STARTED', 'DURATION', 'AGENT', 'VERSION', 'EXIT', 'EVENTS', 'FAILED', 'COMMAND'], rows);
}

function formatExit(run: Run): string {
  if (run.signal !== null) return `sig${run.signal}`;
  if (run.exit_code !== null) return String(run.exit_code);
  if (run.ended_at !== null) return '-';
  // No end recorded: still running, or rec itself was killed before it could write the end.
  return run.pid !== null && isAlive(run.pid) ? 'running' : '?';
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else; ESRCH: it is gone.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Opens the database for reading, or says in one line why not (missing, damaged…). */
export function openForReading(flag: string | undefined, io: CommandIO): SidecarDb | undefined {
  const path = resolveDbPath({ flag, env: io.env, cwd: io.cwd });
  const opened = openSidecar(path, { mustExist: true, readOnly: true });
  if (opened.ok) return opened.db;
  io.stderr.write(`rec: ${opened.error}\n`);
  return undefined;
}

/**
 * A reader that goes away early (`rec events --json | head -1`) makes stdout fail with EPIPE after
 * our write returned; without a listener Node would crash with a stack trace. The listener stays
 * for the life of the process, since the error arrives after the command returned.
 */
export function ignoreBrokenPipe(io: CommandIO): void {
  if (io.stdout.listeners('error').includes(onStdoutError)) return;
  io.stdout.on('error', onStdoutError);
}

function onStdoutError(err: NodeJS.ErrnoException): void {
  // EPIPE: the reader closed the pipe; there is no one left to tell. Anything else is a real problem.
  if (err.code === 'EPIPE') return;
  process.stderr.write(`rec: cannot write output: ${err.message}\n`);
}

/** A UsageError becomes one line plus the usage on stderr and status 2; anything else is a bug. */
export function reportUsage(err: unknown, command: string, usage: string, io: CommandIO): number {
  if (!(err instanceof UsageError)) throw err;
  io.stderr.write(`rec ${command}: ${err.message}\n${usage}\n`);
  return 2;
}
