// The sidecar store: synchronous, prepared statements over better-sqlite3. An insert is committed
// when the call returns (autocommit in WAL mode), which is what lets the run loop write the event
// for a decisive key before forwarding the key to the agent.
import type { SqliteDatabase, SqliteStatement } from './sqliteDriver.js';
import { EventPatch, NewEvent, type AgentName, type EventType, type RecEvent } from '../core/events.js';
import type { AgentRecordInput, RunPatch } from '../core/sink.js';
import { newId } from './ids.js';
import { IN_MEMORY, openDatabase, type OpenFailure, type OpenOptions } from './openDatabase.js';
import { NewRun, RunFinish, type Run } from './run.js';
import type { TableCodec } from './rowCodec.js';
import { AGENT_RECORDS, EVENTS, RUNS, type AgentRecordRow } from './tables.js';
import { AgentRecordInputSchema, dropUndefined, RunContextSchema, RunPatchSchema, validate } from './validate.js';
import { classifyError, SidecarError } from './sidecarError.js';
import { doctorVerifiedVersions, insertDoctorRun, type NewDoctorRun } from './doctorRuns.js';

export { type OpenFailure, type OpenOptions } from './openDatabase.js';

export type OpenSidecarResult = { readonly ok: true; readonly db: SidecarDb } | OpenFailure;

/** Opens (creating if needed) the database at `path`. Never throws for expected failures. */
export function openSidecar(path: string, options: OpenOptions = {}): OpenSidecarResult {
  const opened = openDatabase(path, options);
  if (!opened.ok) return opened;
  try {
    return { ok: true, db: new SidecarDb(opened.db, path) };
  } catch (err) {
    // Preparing our statements fails when the file's schema is not ours (e.g. another program's
    // database that happens to have a user_version): report it like any other unusable file.
    opened.db.close();
    const { problem } = classifyError(err);
    return { ok: false, code: 'corrupt', error: `rec database ${path}: is not a rec database (${problem})` };
  }
}

/** A private in-memory store with the same schema, for unit tests of code that writes or reads it. */
export function openInMemorySidecar(): SidecarDb {
  const opened = openSidecar(IN_MEMORY);
  if (!opened.ok) throw new Error(opened.error); // cannot happen short of running out of memory
  return opened.db;
}

/** The run-level fields an event inherits from its run. */
export interface EventRunContext {
  run_id: string;
  agent: AgentName;
  agent_version?: string | null;
  agent_version_verified?: boolean | null;
  agent_session_id?: string | null;
}

export interface RunFilter {
  /** At most this many runs, newest first; 0 or undefined for all. */
  limit?: number;
  agent?: AgentName;
  since?: Date;
}

export interface EventFilter {
  /** A full run id or a unique prefix of one (an ambiguous prefix throws SidecarError 'ambiguous'). */
  runId?: string;
  agent?: AgentName;
  type?: EventType;
  since?: Date;
  limit?: number;
}

export type ResolveRunIdResult =
  | { ok: true; id: string }
  | { ok: false; reason: 'none' | 'ambiguous'; matches: string[] };

/** A row a read skipped because it does not decode (a damaged file, or a newer rec's vocabulary). */
export interface SkippedRow {
  readonly table: string;
  readonly id: string;
  /** One line: the field and what is wrong with it. */
  readonly problem: string;
}

const RUN_COLUMNS = RUNS.columns;
const EVENT_COLUMNS = EVENTS.columns;
/** Every column but the id, which SQLite assigns. */
const AGENT_RECORD_COLUMNS = AGENT_RECORDS.columns.filter((c) => c !== 'id');

export class SidecarDb {
  private readonly _insertRun: SqliteStatement;
  private readonly _finishRun: SqliteStatement;
  private readonly _insertEvent: SqliteStatement;
  private readonly _insertAgentRecord: SqliteStatement;
  private readonly _updateStatements = new Map<string, SqliteStatement>();
  private readonly _skipped: SkippedRow[] = [];

  constructor(
    /** The connection, for read-only SQL by merge/stats and tests. Writes go through the methods. */
    readonly connection: SqliteDatabase,
    /** The database file, for messages. */
    readonly path: string,
  ) {
    this._insertRun = connection.prepare(
      `INSERT INTO runs (${RUN_COLUMNS.join(', ')}) VALUES (${RUN_COLUMNS.map((c) => '@' + c).join(', ')})`,
    );
    this._finishRun = connection.prepare(
      'UPDATE runs SET ended_at = @ended_at, exit_code = @exit_code, signal = @signal, failed_parts = @failed_parts WHERE id = @id',
    );
    this._insertEvent = connection.prepare(
      `INSERT INTO events (${EVENT_COLUMNS.join(', ')}) VALUES (${EVENT_COLUMNS.map((c) => '@' + c).join(', ')})`,
    );
    this._insertAgentRecord = connection.prepare(
      `INSERT OR IGNORE INTO agent_records (${AGENT_RECORD_COLUMNS.join(', ')}) VALUES (${AGENT_RECORD_COLUMNS.map((c) => '@' + c).join(', ')})`,
    );
  }

  /** Records the start of a run and returns its id (the given one, or a new one). */
  startRun(run: NewRun): string {
    const r = validate(NewRun, run, 'run');
    const id = r.id ?? newId();
    this._run('start run', () => this._insertRun.run(RUNS.encode({ ...r, id })));
    return id;
  }

  /** Sets what was learned about the run later (agent version, session id and file). */
  updateRun(id: string, patch: RunPatch): void {
    const p = validate(RunPatchSchema, patch, 'run patch');
    this.connection.transaction(() => {
      this._update('runs', id, p);
      // Events written before the agent's session was known (its first prompt can come before the
      // session file is found) get the run's agent facts too, so every event is joinable.
      for (const column of ['agent_version', 'agent_version_verified', 'agent_session_id'] as const) {
        const value = p[column];
        if (value === undefined || value === null) continue;
        this.connection
          .prepare(`update events set ${column} = ? where run_id = ? and ${column} is null`)
          .run(EVENTS.encodeColumn(column, value), id);
      }
    })();
  }

  finishRun(id: string, finish: RunFinish): void {
    const f = validate(RunFinish, finish, 'run end');
    this._run('finish run', () => {
      const row = RUNS.encode({ id, ...f });
      this._finishRun.run({ id, ended_at: row.ended_at, exit_code: row.exit_code, signal: row.signal, failed_parts: row.failed_parts });
    });
  }

  /** Validates and inserts an event; committed when this returns. Returns the event's id. */
  insertEvent(run: EventRunContext, event: NewEvent): string {
    const ctx = validate(RunContextSchema, run, 'run context');
    const e = validate(NewEvent, event, 'event');
    const full: RecEvent = {
      id: newId(),
      run_id: ctx.run_id,
      agent: ctx.agent,
      agent_version: null,
      agent_version_verified: null,
      agent_session_id: null,
      kind: null,
      call_id: null,
      tool_name: null,
      tool_input: null,
      decided_by: null,
      trigger: null,
      option_label: null,
      scope: null,
      reason: null,
      reason_source: null,
      related_call_id: null,
      ran: null,
      partial_output: null,
      prompt: null,
      native: null,
      evidence: [],
      prompt_event_id: null,
      ...dropUndefined(e),
    } as RecEvent;
    full.agent_version = e.agent_version ?? ctx.agent_version ?? null;
    full.agent_version_verified = e.agent_version_verified ?? ctx.agent_version_verified ?? null;
    full.agent_session_id = e.agent_session_id ?? ctx.agent_session_id ?? null;
    this._run('insert event', () => this._insertEvent.run(EVENTS.encode(full)));
    return full.id;
  }

  /** Adds details learned after the event was written. Returns false when no such event exists. */
  updateEvent(id: string, patch: EventPatch): boolean {
    const p = validate(EventPatch, patch, 'event patch');
    return this._update('events', id, p);
  }

  /**
   * Deletes an event of this run that turned out not to have happened (a decisive key the agent
   * ignored). Returns false when no such event exists.
   */
  deleteEvent(id: string): boolean {
    return this._run('delete event', () => this.connection.prepare('DELETE FROM events WHERE id = ?').run(id)).changes > 0;
  }

  /** Keeps a verbatim copy of one record of the agent's session file; a repeat is ignored. */
  insertAgentRecord(runId: string, agent: AgentName, record: AgentRecordInput): boolean {
    const r = validate(AgentRecordInputSchema, record, 'agent record');
    const row = AGENT_RECORDS.encode({ run_id: runId, agent, ...r, recorded_at: new Date().toISOString() });
    delete row.id;
    const info = this._run('insert agent record', () => this._insertAgentRecord.run(row));
    return info.changes > 0;
  }

  getRun(id: string): Run | undefined {
    const row = this._run('read run', () =>
      this.connection.prepare(`SELECT ${RUN_COLUMNS.join(', ')} FROM runs WHERE id = ?`).get(id),
    ) as Record<string, unknown> | undefined;
    return row === undefined ? undefined : this._decode(RUNS, row);
  }

  /** Finds the run a full id or a prefix names. */
  resolveRunId(idOrPrefix: string): ResolveRunIdResult {
    const rows = this._run('find run', () =>
      this.connection
        .prepare('SELECT id FROM runs WHERE substr(id, 1, ?) = ? ORDER BY started_at DESC LIMIT 11')
        .all(idOrPrefix.length, idOrPrefix),
    ) as Array<{ id: string }>;
    const exact = rows.find((r) => r.id === idOrPrefix);
    if (exact !== undefined) return { ok: true, id: exact.id };
    if (rows.length === 1) return { ok: true, id: rows[0]!.id };
    return { ok: false, reason: rows.length === 0 ? 'none' : 'ambiguous', matches: rows.map((r) => r.id) };
  }

  /** Runs, newest first. */
  listRuns(filter: RunFilter = {}): Run[] {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.agent !== undefined) (where.push('agent = ?'), params.push(filter.agent));
    if (filter.since !== undefined) (where.push('started_at >= ?'), params.push(filter.since.toISOString()));
    const sql =
      `SELECT ${RUN_COLUMNS.join(', ')} FROM runs${where.length > 0 ? ' WHERE ' + where.join(' AND ') : ''}` +
      ` ORDER BY started_at DESC, rowid DESC${filter.limit ? ' LIMIT ?' : ''}`;
    if (filter.limit) params.push(filter.limit);
    const rows = this._run('list runs', () => this.connection.prepare(sql).all(...params));
    return this._decodeAll(RUNS, rows);
  }

  /** Events in the order they happened (ts, then insertion order). */
  listEvents(filter: EventFilter = {}): RecEvent[] {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.runId !== undefined) {
      const resolved = this.resolveRunId(filter.runId);
      if (!resolved.ok && resolved.reason === 'ambiguous') {
        throw new SidecarError(`run id prefix '${filter.runId}' matches more than one run`, 'ambiguous');
      }
      // No matching run: match nothing, but keep the full id (events may name a run id verbatim).
      (where.push('run_id = ?'), params.push(resolved.ok ? resolved.id : filter.runId));
    }
    if (filter.agent !== undefined) (where.push('agent = ?'), params.push(filter.agent));
    if (filter.type !== undefined) (where.push('type = ?'), params.push(filter.type));
    if (filter.since !== undefined) (where.push('ts >= ?'), params.push(filter.since.toISOString()));
    const sql =
      `SELECT ${EVENT_COLUMNS.join(', ')} FROM events${where.length > 0 ? ' WHERE ' + where.join(' AND ') : ''}` +
      ` ORDER BY ts, rowid${filter.limit ? ' LIMIT ?' : ''}`;
    if (filter.limit) params.push(filter.limit);
    const rows = this._run('list events', () => this.connection.prepare(sql).all(...params));
    return this._decodeAll(EVENTS, rows);
  }

  /** How many events each of the given runs has. */
  countEvents(runIds: readonly string[]): Map<string, number> {
    const counts = new Map<string, number>();
    if (runIds.length === 0) return counts;
    const rows = this._run('count events', () =>
      this.connection
        .prepare(`SELECT run_id, count(*) AS n FROM events WHERE run_id IN (${runIds.map(() => '?').join(', ')}) GROUP BY run_id`)
        .all(...runIds),
    ) as Array<{ run_id: string; n: number }>;
    for (const row of rows) counts.set(row.run_id, row.n);
    return counts;
  }

  listAgentRecords(runId: string): AgentRecordRow[] {
    const rows = this._run('list agent records', () =>
      this.connection.prepare('SELECT * FROM agent_records WHERE run_id = ? ORDER BY source_file, byte_offset').all(runId),
    );
    return this._decodeAll(AGENT_RECORDS, rows);
  }

  /** Records what `rec doctor` found on an installed agent (store/doctorRuns.ts). */
  recordDoctorRun(run: NewDoctorRun): string {
    return this._run('record doctor run', () => insertDoctorRun(this.connection, run));
  }

  /** The versions of `agent` whose latest `rec doctor` run passed every scenario. */
  doctorVerifiedVersions(agent: AgentName): string[] {
    return this._run('read doctor runs', () => doctorVerifiedVersions(this.connection, agent));
  }

  /**
   * Rows the reads so far skipped because they do not decode. A command that listed rows says how
   * many were left out: its output is incomplete.
   */
  skippedRows(): readonly SkippedRow[] {
    return this._skipped;
  }

  close(): void {
    if (this.connection.open) this.connection.close();
  }

  /** UPDATE table SET <the patch's columns> WHERE id = ?; statements are cached per column set. */
  private _update(table: 'runs' | 'events', id: string, patch: Record<string, unknown>): boolean {
    const columns = Object.keys(patch).filter((k) => patch[k] !== undefined).sort();
    if (columns.length === 0) return this._exists(table, id);
    const key = `${table}:${columns.join(',')}`;
    let statement = this._updateStatements.get(key);
    if (statement === undefined) {
      // Column names come from the zod schemas' keys (unknown keys are stripped), never from input.
      statement = this.connection.prepare(
        `UPDATE ${table} SET ${columns.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`,
      );
      this._updateStatements.set(key, statement);
    }
    const codec: TableCodec<unknown> = table === 'runs' ? RUNS : EVENTS;
    const values: Record<string, unknown> = { id };
    for (const c of columns) values[c] = codec.encodeColumn(c, patch[c]);
    return this._run(`update ${table === 'runs' ? 'run' : 'event'}`, () => statement.run(values)).changes > 0;
  }

  private _exists(table: 'runs' | 'events', id: string): boolean {
    return this._run('read', () => this.connection.prepare(`SELECT 1 FROM ${table} WHERE id = ?`).get(id)) !== undefined;
  }

  private _decodeAll<T>(codec: TableCodec<T>, rows: unknown[]): T[] {
    const out: T[] = [];
    for (const row of rows) {
      const value = this._decode(codec, row as Record<string, unknown>);
      if (value !== undefined) out.push(value);
    }
    return out;
  }

  private _decode<T>(codec: TableCodec<T>, row: Record<string, unknown>): T | undefined {
    const decoded = codec.decode(row);
    if (decoded.ok) return decoded.value;
    this._skipped.push({ table: codec.table, id: String(row['id']), problem: decoded.problem });
    return undefined;
  }

  /** Runs one SQLite call and turns a failure into a SidecarError with a one-line message. */
  private _run<T>(what: string, fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      const { code, problem } = classifyError(err);
      throw new SidecarError(`${what} in ${this.path} failed: ${problem}`, code, { cause: err });
    }
  }
}
