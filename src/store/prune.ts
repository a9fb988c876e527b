// Deleting recorded runs: a run goes with its events and its agent records, in one transaction,
// and only when it is not still recording; then the space is given back to the file system.
import { statSync } from 'node:fs';
import { isRunLive } from './run.js';
import type { SidecarDb } from './sidecarDb.js';
import { classifyError, SidecarError } from './sidecarError.js';

/** Which runs to prune: those started before a time, or one run by its full id. */
export type PruneSelection = { readonly before: Date } | { readonly runId: string };

/** A run as prune reports it. */
export interface PrunedRun {
  readonly id: string;
  readonly agent: string;
  readonly started_at: string;
  readonly events: number;
  readonly agent_records: number;
}

export type PruneResult =
  | { readonly ok: true; readonly runs: readonly PrunedRun[] }
  /** Nothing was deleted: these runs of the selection are still recording. */
  | { readonly ok: false; readonly live: ReadonlyArray<{ readonly id: string; readonly pid: number }> };

interface RunRow {
  id: string;
  agent: string;
  started_at: string;
  ended_at: string | null;
  pid: number | null;
  events: number;
  agent_records: number;
}

/**
 * Deletes the selected runs with their events and agent records, or with `dryRun` only says which
 * would go. The selection, the liveness check and the deletes share one write transaction, so a
 * run that starts meanwhile can neither be half-deleted nor slip in.
 */
export function pruneRuns(db: SidecarDb, selection: PruneSelection, options: { dryRun: boolean }): PruneResult {
  const conn = db.connection;
  const select = conn.prepare(
    `SELECT r.id, r.agent, r.started_at, r.ended_at, r.pid,
            (SELECT count(*) FROM events e WHERE e.run_id = r.id) AS events,
            (SELECT count(*) FROM agent_records a WHERE a.run_id = r.id) AS agent_records
       FROM runs r WHERE ${'before' in selection ? 'r.started_at < ?' : 'r.id = ?'}
      ORDER BY r.started_at, r.rowid`,
  );
  const param = 'before' in selection ? selection.before.toISOString() : selection.runId;
  const run = (): PruneResult => {
    const rows = select.all(param) as RunRow[];
    const live = rows.filter(isRunLive).map((r) => ({ id: r.id, pid: r.pid! }));
    if (live.length > 0) return { ok: false, live };
    if (!options.dryRun) {
      const deletes = ['DELETE FROM agent_records WHERE run_id = ?', 'DELETE FROM events WHERE run_id = ?', 'DELETE FROM export_cursors WHERE run_id = ?', 'DELETE FROM runs WHERE id = ?'].map(
        (sql) => conn.prepare(sql),
      );
      for (const r of rows) for (const statement of deletes) statement.run(r.id);
    }
    return { ok: true, runs: rows.map(({ id, agent, started_at, events, agent_records }) => ({ id, agent, started_at, events, agent_records })) };
  };
  return guarded(db, 'prune runs', () => (options.dryRun ? conn.transaction(run)() : conn.transaction(run).immediate()));
}

export type ReclaimResult =
  | { readonly reclaimed: true; readonly bytesBefore: number; readonly bytesAfter: number }
  /** Not attempted: VACUUM would hold every writer off while it copies the file. */
  | { readonly reclaimed: false; readonly bytes: number; readonly liveRunId: string };

/**
 * Gives the space of deleted rows back: VACUUM rewrites the file without its free pages, and a
 * truncating checkpoint empties the write-ahead log that VACUUM went through. Skipped while any
 * run records into this file, since its inserts would wait on VACUUM past their busy timeout and
 * fail; the free pages are reused by new rows meanwhile, and the next prune reclaims them.
 */
export function reclaimSpace(db: SidecarDb): ReclaimResult {
  const conn = db.connection;
  const bytesBefore = fileBytes(db.path);
  const open = guarded(db, 'find live runs', () =>
    conn.prepare('SELECT id, ended_at, pid FROM runs WHERE ended_at IS NULL AND pid IS NOT NULL').all(),
  ) as Array<{ id: string; ended_at: null; pid: number }>;
  const live = open.find(isRunLive);
  if (live !== undefined) return { reclaimed: false, bytes: bytesBefore, liveRunId: live.id };
  guarded(db, 'vacuum', () => {
    conn.exec('VACUUM');
    conn.pragma('wal_checkpoint(TRUNCATE)');
  });
  return { reclaimed: true, bytesBefore, bytesAfter: fileBytes(db.path) };
}

/** The database with its write-ahead log: what the data takes on disk. */
export function fileBytes(path: string): number {
  let total = 0;
  for (const file of [path, `${path}-wal`]) {
    try {
      total += statSync(file).size;
    } catch {
      // ENOENT: no write-ahead log right now (SQLite removes it when the last connection closes).
    }
  }
  return total;
}

function guarded<T>(db: SidecarDb, what: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    const { code, problem } = classifyError(err);
    throw new SidecarError(`${what} in ${db.path} failed: ${problem}`, code, { cause: err });
  }
}
