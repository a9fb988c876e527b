// What `rec export` reads and where it keeps its place. Events are read a page at a time, per run,
// in (ts, id) order, through the events table's codec, so memory stays bounded whatever the
// sidecar holds; the cursor of a destination
// moves only after the destination acknowledged a batch, in one transaction per batch, so a crash
// or a failed send leaves it on the last event that was really delivered.
import type { RecEvent } from '../core/events.js';
import type { ExportLease } from './exportLease.js';
import { isRunLive } from './run.js';
import type { SidecarDb } from './sidecarDb.js';
import type { SqliteStatement } from './sqliteDriver.js';
import { EVENTS } from './tables.js';

/**
 * The fields export sends, read through the events table's one codec: the screen (`prompt`), the
 * agent's own record (`native`) and the evidence are the bulk of a row and are never sent, so they
 * are not read.
 */
const EXPORTED_COLUMNS = [
  'id', 'run_id', 'agent', 'agent_version', 'agent_session_id', 'ts', 'type', 'kind', 'call_id', 'tool_name', 'tool_input',
  'decided_by', 'trigger', 'option_label', 'scope', 'reason', 'reason_source', 'related_call_id', 'ran', 'partial_output',
  'agent_version_verified',
] as const satisfies readonly (keyof RecEvent)[];
const EXPORTED = EVENTS.pick(EXPORTED_COLUMNS);
export type ExportedEvent = Pick<RecEvent, (typeof EXPORTED_COLUMNS)[number]>;

const TS = EXPORTED.columns.indexOf('ts');
const ID = EXPORTED.columns.indexOf('id');

/** A run export still has events to send for, with where the destination's cursor stands in it. */
export interface ExportRun {
  readonly id: string;
  /** The run is over (ended, or its rec is gone): once its events are sent it is done for good. */
  readonly finished: boolean;
  readonly after: Position | null;
}

/** An event's place in a run's (ts, id) order. */
export interface Position {
  readonly ts: string;
  readonly id: string;
}

/**
 * A decision read back, or why the codec refused it (a type or value this rec does not know, as a
 * newer rec may write): either way its place, which the cursor moves past once the batch around
 * it is acknowledged.
 */
export type PageItem = { readonly position: Position; readonly event: ExportedEvent } | { readonly position: Position; readonly problem: string };

export interface ExportFilter {
  readonly runId?: string;
  readonly agent?: string;
  /** Only events at or after this time. */
  readonly since?: Date;
}

/** What one acknowledged batch moved: per run, the last event sent and whether the run is done. */
export interface CursorMove {
  readonly runId: string;
  readonly last: Position | null;
  readonly sent: number;
  /** Events passed over because this rec could not read them. */
  readonly skipped: number;
  readonly done: boolean;
}

export class ExportSource {
  /** Prepared once per shape of the query (with or without a cursor, with or without --since). */
  private readonly _pages = new Map<string, SqliteStatement>();
  private _upsert: SqliteStatement | undefined;

  constructor(
    private readonly _db: SidecarDb,
    readonly destination: string,
    /** The destination's lease (exportLease.ts): the cursor moves only while it is held. */
    private readonly _lease?: ExportLease,
  ) {}

  /**
   * The runs with something left to send to this destination, oldest first. Runs still recording
   * are left for a later export: their events may still change. Runs are few next to events, so
   * they are listed at once.
   */
  runs(filter: ExportFilter): ExportRun[] {
    const where = ['(c.done IS NULL OR c.done = 0)'];
    const params: unknown[] = [this.destination];
    if (filter.runId !== undefined) {
      where.push('r.id = ?');
      params.push(filter.runId);
    }
    if (filter.agent !== undefined) {
      where.push('r.agent = ?');
      params.push(filter.agent);
    }
    const rows = this._db.connection
      .prepare(
        `SELECT r.id, r.ended_at, r.pid, c.last_ts, c.last_id FROM runs r
           LEFT JOIN export_cursors c ON c.destination = ? AND c.run_id = r.id
          WHERE ${where.join(' AND ')} ORDER BY r.started_at, r.id`,
      )
      .all(...params) as Array<{ id: string; ended_at: string | null; pid: number | null; last_ts: string | null; last_id: string | null }>;
    return rows.map((r) => ({
      id: r.id,
      finished: !isRunLive(r),
      after: r.last_ts !== null && r.last_id !== null ? { ts: r.last_ts, id: r.last_id } : null,
    }));
  }

  /**
   * Up to `limit` decisions of a run after `after`, in (ts, id) order: keyset pagination on the
   * index (run_id, ts, id), so each page costs the same wherever the cursor stands. Rows are read
   * as arrays and decoded by the events codec. Prompts are not decisions.
   */
  page(runId: string, after: Position | null, limit: number, since?: Date): PageItem[] {
    const params: unknown[] = [runId];
    if (after !== null) params.push(after.ts, after.id);
    if (since !== undefined) params.push(since.toISOString());
    const rows = this._pageStatement(after !== null, since !== undefined).all(...params, limit) as unknown[][];
    return rows.map((values) => {
      const position = { ts: String(values[TS]), id: String(values[ID]) };
      const decoded = EXPORTED.decodeValues(values);
      return decoded.ok ? { position, event: decoded.value } : { position, problem: decoded.problem };
    });
  }

  private _pageStatement(hasAfter: boolean, hasSince: boolean): SqliteStatement {
    const key = `${hasAfter} ${hasSince}`;
    let statement = this._pages.get(key);
    if (statement === undefined) {
      const where = ['run_id = ?', "type <> 'prompt'"];
      // A row value: the index is walked from the cursor on, not from the run's start.
      if (hasAfter) where.push('(ts, id) > (?, ?)');
      if (hasSince) where.push('ts >= ?');
      statement = this._db.connection
        .prepare(`SELECT ${EXPORTED.columns.join(', ')} FROM events WHERE ${where.join(' AND ')} ORDER BY ts, id LIMIT ?`)
        .raw(true);
      this._pages.set(key, statement);
    }
    return statement;
  }

  /**
   * Moves the cursor after an acknowledged batch: all of it or none of it, and only while this
   * export still holds the destination's lease (renewed here). False when it no longer does.
   */
  advance(moves: readonly CursorMove[], now: Date = new Date()): boolean {
    const upsert = (this._upsert ??= this._db.connection.prepare(
      `INSERT INTO export_cursors (destination, run_id, last_ts, last_id, done, sent, skipped, updated_at)
       VALUES (@destination, @run_id, @last_ts, @last_id, @done, @sent, @skipped, @updated_at)
       ON CONFLICT (destination, run_id) DO UPDATE SET
         last_ts = coalesce(excluded.last_ts, last_ts), last_id = coalesce(excluded.last_id, last_id),
         done = excluded.done, sent = sent + excluded.sent, skipped = skipped + excluded.skipped,
         updated_at = excluded.updated_at`,
    ));
    return this._db.connection.transaction((): boolean => {
      if (this._lease !== undefined && !this._lease.renew(now)) return false;
      for (const m of moves) {
        upsert.run({
          destination: this.destination,
          run_id: m.runId,
          last_ts: m.last?.ts ?? null,
          last_id: m.last?.id ?? null,
          done: m.done ? 1 : 0,
          sent: m.sent,
          skipped: m.skipped,
          updated_at: now.toISOString(),
        });
      }
      return true;
    }).immediate();
  }
}
