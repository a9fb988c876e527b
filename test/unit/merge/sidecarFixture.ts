// Builds real sidecar databases for tests, with the tables `rec <agent>` writes (runs, events,
// agent_records), using better-sqlite3 directly: merge must not depend on src/store.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecEvent } from '../../../src/core/events.js';

const SCHEMA = `
CREATE TABLE runs(id TEXT PRIMARY KEY, agent TEXT, agent_version TEXT, argv TEXT, cwd TEXT, started_at TEXT, ended_at TEXT,
  exit_code INTEGER, signal INTEGER, agent_session_id TEXT, agent_session_file TEXT, failed_parts TEXT, rec_version TEXT, pid INTEGER);
CREATE TABLE events(id TEXT PRIMARY KEY, run_id TEXT, agent TEXT, agent_version TEXT, agent_session_id TEXT, ts TEXT, type TEXT,
  kind TEXT, call_id TEXT, tool_name TEXT, tool_input TEXT, decided_by TEXT, trigger TEXT, option_label TEXT, scope TEXT, reason TEXT,
  reason_source TEXT, related_call_id TEXT, ran TEXT, partial_output TEXT, prompt TEXT, native TEXT, evidence TEXT, prompt_event_id TEXT);
CREATE TABLE agent_records(id INTEGER PRIMARY KEY, run_id TEXT, agent TEXT, source_file TEXT, line_no INTEGER, byte_offset INTEGER,
  record TEXT, recorded_at TEXT);
`;

export interface RunRow {
  id: string;
  agent: string;
  agent_version?: string | null;
  cwd?: string | null;
  started_at?: string;
  ended_at?: string | null;
  agent_session_id?: string | null;
  agent_session_file?: string | null;
}

export type EventRow = Partial<RecEvent> & Pick<RecEvent, 'id' | 'run_id' | 'type' | 'ts'>;

export class SidecarFixture {
  readonly dir: string;
  readonly path: string;
  private readonly _db: Database.Database;

  constructor() {
    this.dir = mkdtempSync(join(tmpdir(), 'rec-merge-db-'));
    this.path = join(this.dir, 'rec.db');
    this._db = new Database(this.path);
    this._db.pragma('journal_mode = WAL');
    this._db.exec(SCHEMA);
  }

  addRun(r: RunRow): this {
    this._db
      .prepare(
        `INSERT INTO runs(id, agent, agent_version, argv, cwd, started_at, ended_at, exit_code, signal, agent_session_id, agent_session_file, failed_parts, rec_version, pid)
         VALUES (@id, @agent, @agent_version, '[]', @cwd, @started_at, @ended_at, 0, NULL, @agent_session_id, @agent_session_file, '[]', '0.1.0', 1)`,
      )
      .run({
        agent_version: null,
        cwd: null,
        started_at: '2026-11-22T09:00:00.000Z',
        ended_at: null,
        agent_session_id: null,
        agent_session_file: null,
        ...r,
      });
    return this;
  }

  addEvent(e: EventRow): this {
    const row = {
      agent: 'codex',
      agent_version: null,
      agent_session_id: null,
      kind: null,
      call_id: null,
      tool_name: null,
      decided_by: null,
      trigger: null,
      option_label: null,
      scope: null,
      reason: null,
      reason_source: null,
      related_call_id: null,
      ran: null,
      partial_output: null,
      prompt_event_id: null,
      ...e,
      tool_input: e.tool_input === undefined ? null : JSON.stringify(e.tool_input),
      prompt: e.prompt === undefined ? null : JSON.stringify(e.prompt),
      native: e.native === undefined ? null : JSON.stringify(e.native),
      evidence: JSON.stringify(e.evidence ?? ['screen', 'keys']),
    };
    this._db
      .prepare(
        `INSERT INTO events VALUES (@id, @run_id, @agent, @agent_version, @agent_session_id, @ts, @type, @kind, @call_id, @tool_name, @tool_input,
          @decided_by, @trigger, @option_label, @scope, @reason, @reason_source, @related_call_id, @ran, @partial_output, @prompt, @native, @evidence, @prompt_event_id)`,
      )
      .run(row);
    return this;
  }

  /** Copies a file's lines into agent_records, as `rec <agent>` does while the agent runs. */
  addRecords(runId: string, agent: string, sourceFile: string, lines: string[]): this {
    const insert = this._db.prepare(
      'INSERT INTO agent_records(run_id, agent, source_file, line_no, byte_offset, record, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    let offset = 0;
    lines.forEach((line, i) => {
      insert.run(runId, agent, sourceFile, i + 1, offset, line, '2026-11-22T09:00:00.000Z');
      offset += Buffer.byteLength(line) + 1;
    });
    return this;
  }

  close(): void {
    this._db.close();
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
