// Read-only access to the sidecar database written by `rec <agent>` (tables runs, events,
// agent_records). Opened read-only; never migrated or written here. Rows are decoded by the tables'
// one codec each (tables.ts), as the writer encoded them: a row this version does not understand
// becomes a diagnostic, not a crash.
import { existsSync } from 'node:fs';
import { Database, type SqliteDatabase, type SqliteStatement } from './sqliteDriver.js';
import type { AgentName, PromptInfo, RecEvent } from '../core/events.js';
import { doctorVerifiedVersions } from './doctorRuns.js';
import type { Diagnostic } from '../core/diagnostic.js';
import type { Run } from './run.js';
import type { TableCodec } from './rowCodec.js';
import { AGENT_RECORDS, EVENTS, RUNS, type AgentRecordRow } from './tables.js';

export type { AgentRecordRow } from './tables.js';

/** How long a read waits on a writer's lock: `rec <agent>` may be writing while we merge. */
export const SIDECAR_BUSY_TIMEOUT_MS = 5_000;

export type SidecarRun = Run;

/**
 * A session's events: those that name it, and those of its runs that name no session. Asked per
 * session through the indexes on agent_session_id and run_id, so that neither memory nor time
 * grows with the events of the sidecar's other sessions (a sidecar keeps every run ever recorded).
 */
const EVENTS_OF_SESSION = "SELECT * FROM events WHERE agent_session_id = ? AND type <> 'prompt'";
const EVENTS_OF_RUN = "SELECT * FROM events WHERE run_id = ? AND type <> 'prompt' AND (agent_session_id IS NULL OR agent_session_id = ?)";
/** A prompt a decision answered, by the decision's prompt_event_id (the primary key). */
const PROMPT_BY_ID = "SELECT * FROM events WHERE id = ? AND type = 'prompt'";

export class SidecarReader {
  /** What could not be read since the last takeDiagnostics(). */
  private _diagnostics: Diagnostic[] = [];
  private _runs: SidecarRun[] | null = null;
  private readonly _runsBySession = new Map<string, SidecarRun[]>();
  private readonly _runsByFile = new Map<string, SidecarRun[]>();
  private readonly _statements = new Map<string, SqliteStatement>();
  /** Rows already reported as invalid (table and id): a row read for two sessions is told once. */
  private readonly _reported = new Set<string>();
  /** Lost decisions told since the last takeDiagnostics(). */
  private readonly _pendingLost = new Set<string>();
  /** doctorVerifiedVersions by agent: asked once per reader. */
  private readonly _doctored = new Map<string, readonly string[]>();
  /** A query other than a session's decisions failed: the sidecar cannot be read at all. */
  private _unavailable = false;

  private constructor(
    private readonly _db: SqliteDatabase,
    readonly path: string,
  ) {}

  /** Opens the database read-only; a missing database is normal (merge works from files alone). */
  static open(path: string): { reader: SidecarReader | null; diagnostic: Diagnostic | null } {
    if (!existsSync(path)) return { reader: null, diagnostic: null };
    try {
      const db = new Database(path, { readonly: true, fileMustExist: true, timeout: SIDECAR_BUSY_TIMEOUT_MS });
      return { reader: new SidecarReader(db, path), diagnostic: null };
    } catch (err) {
      return {
        reader: null,
        diagnostic: {
          severity: 'warning',
          code: 'sidecar_unavailable',
          message: `sidecar ${path} cannot be opened (${(err as Error).message}); merging from the agents' files alone`,
          file: path,
          line: null,
        },
      };
    }
  }

  close(): void {
    this._db.close();
  }

  runs(): SidecarRun[] {
    if (this._runs) return this._runs;
    this._runs = [];
    for (const run of this._decoded(RUNS, this._all('SELECT * FROM runs'))) {
      this._runs.push(run);
      if (run.agent_session_id !== null) push(this._runsBySession, run.agent_session_id, run);
      if (run.agent_session_file !== null) push(this._runsByFile, run.agent_session_file, run);
    }
    return this._runs;
  }

  run(id: string): SidecarRun | undefined {
    return this.runs().find((r) => r.id === id);
  }

  /** Runs that saw this agent session (by its id or by its file), in the order of runs(). */
  runsForSession(sessionId: string | null, file: string | null): SidecarRun[] {
    const all = this.runs();
    const bySession = sessionId !== null ? (this._runsBySession.get(sessionId) ?? []) : [];
    const byFile = file !== null ? (this._runsByFile.get(file) ?? []) : [];
    if (byFile.length === 0) return [...bySession];
    if (bySession.length === 0) return [...byFile];
    const found = new Set([...bySession, ...byFile]);
    return all.filter((r) => found.has(r)); // both ways: once each, in the order of runs()
  }

  /** Events of this session: by its id, or by a run that saw it when the event names no session. */
  eventsForSession(sessionId: string | null, runIds: readonly string[]): RecEvent[] {
    const out = new Map<string, RecEvent>();
    if (sessionId !== null) for (const e of this._events(EVENTS_OF_SESSION, sessionId)) out.set(e.id, e);
    for (const runId of runIds) for (const e of this._events(EVENTS_OF_RUN, runId, sessionId)) out.set(e.id, e);
    return [...out.values()].sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
  }

  /**
   * What the prompts these decisions answered showed, by prompt event id: only the prompts named,
   * one primary-key probe each, as a session's events leave prompts out. A prompt that does not
   * decode is a warning; the decision itself was read.
   */
  promptsFor(events: readonly RecEvent[]): Map<string, PromptInfo> {
    const out = new Map<string, PromptInfo>();
    for (const e of events) {
      const id = e.prompt_event_id;
      if (id === null || out.has(id)) continue;
      const prompt = this._decoded(EVENTS, this._all(PROMPT_BY_ID, [id]))[0]?.prompt;
      if (prompt) out.set(id, prompt);
    }
    return out;
  }

  /**
   * What could not be read (invalid rows, failed queries) since the last call. A task hands its
   * share over with its result, so that a worker's findings reach the report too.
   */
  takeDiagnostics(): Diagnostic[] {
    const taken = this._diagnostics;
    this._diagnostics = [];
    this._pendingLost.clear();
    return taken;
  }

  /**
   * The versions of `agent` whose latest `rec doctor` run in this database passed (doctorRuns.ts,
   * the query the live recorder asks too). A sidecar written before rec had a doctor has no such
   * table: no version was doctored in it, which is not a failure to report.
   */
  doctorVerifiedVersions(agent: AgentName): readonly string[] {
    let versions = this._doctored.get(agent);
    if (versions === undefined) {
      try {
        versions = doctorVerifiedVersions(this._db, agent);
      } catch {
        // No doctor_runs table (an older sidecar, never migrated by a reader) or a damaged one: the
        // shipped versions alone decide, as they did before the doctor.
        versions = [];
      }
      this._doctored.set(agent, versions);
    }
    return versions;
  }

  /** The agent's lines as `rec` copied them during the run, in file order. */
  agentRecords(runId: string): AgentRecordRow[] {
    return this._decoded(AGENT_RECORDS, this._all('SELECT * FROM agent_records WHERE run_id = ? ORDER BY source_file, line_no, id', [runId]));
  }

  /** The agent files a run copied lines from. */
  recordSources(runId: string): string[] {
    return this._all('SELECT DISTINCT source_file FROM agent_records WHERE run_id = ?', [runId])
      .map((r) => (r as Record<string, unknown>)['source_file'])
      .filter((v): v is string => typeof v === 'string');
  }

  /**
   * Run ids that have a copy of the agent's lines: one index probe per run, where a DISTINCT over
   * agent_records would read an entry for every line rec ever copied.
   */
  runsWithRecords(): Set<string> {
    const rows = this._all('SELECT id FROM runs WHERE EXISTS (SELECT 1 FROM agent_records WHERE agent_records.run_id = runs.id)');
    return new Set(rows.map((r) => String((r as Record<string, unknown>)['id'])));
  }

  private _events(sql: string, ...params: unknown[]): RecEvent[] {
    return this._decoded(EVENTS, this._all(sql, params, 'decision_unreadable'), 'decision_unreadable');
  }

  private _decoded<T>(codec: TableCodec<T>, rows: unknown[], lost?: 'decision_unreadable'): T[] {
    const out: T[] = [];
    for (const row of rows) {
      const decoded = codec.decode(row as Record<string, unknown>);
      if (decoded.ok) out.push(decoded.value);
      else this._bad(codec.table, row as Record<string, unknown>, decoded.problem, lost);
    }
    return out;
  }

  private _all(sql: string, params: readonly unknown[] = [], lost?: 'decision_unreadable'): unknown[] {
    try {
      let statement = this._statements.get(sql);
      if (statement === undefined) {
        statement = this._db.prepare(sql);
        this._statements.set(sql, statement);
      }
      return statement.all(...params);
    } catch (err) {
      // A sidecar whose every query fails (not a database at all) is unavailable as a whole: said
      // once, and merge goes on from the files. A decisions query that fails where others worked
      // loses what this session recorded.
      if (!lost) this._unavailable = true;
      else if (this._unavailable) lost = undefined;
      const message = lost
        ? `the recorded decisions could not be read (sidecar query failed: ${(err as Error).message})`
        : `sidecar query failed (${(err as Error).message})`;
      // The same failure for every session is told once, except a loss of decisions: each session
      // that lost its own says so in its diagnostics[].
      if (!lost && this._reported.has(message)) return [];
      this._reported.add(message);
      this._diagnostics.push({
        severity: lost ? 'error' : 'warning',
        code: lost ?? 'sidecar_unavailable',
        message,
        file: this.path,
        line: null,
      });
      return [];
    }
  }

  /**
   * A row that does not decode. An event row merge reads is a decision rec recorded (prompts are
   * not read): losing one makes the result incomplete, which is an error, not a warning.
   */
  private _bad(table: string, row: Record<string, unknown>, problem: string, lost?: 'decision_unreadable'): void {
    const id = row['id'];
    // Told once per reader, except a lost decision: every session that lost one lists it (once,
    // though a session's two queries, by its id and by its run, may both return the row).
    const key = `${table} ${String(id)}`;
    if (lost ? this._pendingLost.has(key) : this._reported.has(key)) return;
    this._reported.add(key);
    if (lost) this._pendingLost.add(key);
    const what = lost && typeof row['type'] === 'string' ? `${row['type']} ` : '';
    this._diagnostics.push({
      severity: lost ? 'error' : 'warning',
      code: lost ?? 'invalid_record',
      message: lost
        ? `recorded ${what}event ${String(id)}${typeof row['call_id'] === 'string' ? ` (call ${row['call_id']})` : ''} could not be read: ${problem}`
        : `sidecar ${table} row ${String(id)} skipped: ${problem}`,
      file: this.path,
      line: null,
    });
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
