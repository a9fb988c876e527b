// What `rec export` reads and where it keeps its place. Events are read a page at a time, per run,
// in (ts, id) order, so memory stays bounded whatever the sidecar holds; the cursor of a destination
// moves only after the destination acknowledged a batch, in one transaction per batch, so a crash
// or a failed send leaves it on the last event that was really delivered.
import { z } from 'zod';
import { isRunLive } from './run.js';
import type { SidecarDb } from './sidecarDb.js';

/**
 * An event as export reads it: loose on purpose. Types and vocabularies a newer rec adds (a `miss`
 * diagnostic, a new trigger) are sent as they are rather than skipped, since export only copies
 * them; the timestamp and ids it orders by are checked.
 */
export const ExportEventRow = z.object({
  id: z.string(),
  run_id: z.string(),
  agent: z.string(),
  agent_version: z.string().nullable(),
  agent_session_id: z.string().nullable(),
  ts: z.string().refine((ts) => !Number.isNaN(Date.parse(ts)), 'a timestamp'),
  type: z.string(),
  kind: z.string().nullable(),
  call_id: z.string().nullable(),
  tool_name: z.string().nullable(),
  tool_input: z.string().nullable(),
  decided_by: z.string().nullable(),
  trigger: z.string().nullable(),
  option_label: z.string().nullable(),
  scope: z.string().nullable(),
  reason: z.string().nullable(),
  reason_source: z.string().nullable(),
  related_call_id: z.string().nullable(),
  ran: z.string().nullable(),
  partial_output: z.string().nullable(),
  agent_version_verified: z.number().int().nullable(),
});
export type ExportEventRow = z.infer<typeof ExportEventRow>;

const COLUMNS = Object.keys(ExportEventRow.shape).join(', ');

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

/** A decision read back, or why it could not be: either way its place, which the cursor moves past. */
export type PageItem = { readonly position: Position; readonly row: ExportEventRow } | { readonly position: Position; readonly problem: string };

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
  readonly done: boolean;
}

export class ExportSource {
  constructor(
    private readonly _db: SidecarDb,
    readonly destination: string,
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

  /** Up to `limit` decisions of a run after `after`, in (ts, id) order. Prompts are not decisions. */
  page(runId: string, after: Position | null, limit: number, since?: Date): PageItem[] {
    const where = ['run_id = ?', "type <> 'prompt'"];
    const params: unknown[] = [runId];
    if (after !== null) {
      // A row value: the index on (run_id, ts, id) is walked from the cursor on, not from the run's start.
      where.push('(ts, id) > (?, ?)');
      params.push(after.ts, after.id);
    }
    if (since !== undefined) {
      where.push('ts >= ?');
      params.push(since.toISOString());
    }
    const rows = this._db.connection
      .prepare(`SELECT ${COLUMNS} FROM events WHERE ${where.join(' AND ')} ORDER BY ts, id LIMIT ?`)
      .all(...params, limit) as Array<Record<string, unknown>>;
    return rows.map((raw) => {
      const position = { ts: String(raw.ts), id: String(raw.id) };
      const parsed = ExportEventRow.safeParse(raw);
      if (parsed.success) return { position, row: parsed.data };
      return { position, problem: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
    });
  }

  /** Moves the cursor after an acknowledged batch: all of it or none of it. */
  advance(moves: readonly CursorMove[], now: Date = new Date()): void {
    const upsert = this._db.connection.prepare(
      `INSERT INTO export_cursors (destination, run_id, last_ts, last_id, done, sent, updated_at)
       VALUES (@destination, @run_id, @last_ts, @last_id, @done, @sent, @updated_at)
       ON CONFLICT (destination, run_id) DO UPDATE SET
         last_ts = coalesce(excluded.last_ts, last_ts), last_id = coalesce(excluded.last_id, last_id),
         done = excluded.done, sent = sent + excluded.sent, updated_at = excluded.updated_at`,
    );
    this._db.connection.transaction(() => {
      for (const m of moves) {
        upsert.run({
          destination: this.destination,
          run_id: m.runId,
          last_ts: m.last?.ts ?? null,
          last_id: m.last?.id ?? null,
          done: m.done ? 1 : 0,
          sent: m.sent,
          updated_at: now.toISOString(),
        });
      }
    }).immediate();
  }
}
