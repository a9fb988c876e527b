// Reading what `rec` wrote, for any agent's e2e suite: the sidecar SQLite file opened read-only
// with better-sqlite3 (the driver module, not the store's queries, so the suite checks the file itself).
import { Database } from '../../../src/store/sqliteDriver.js';

const JSON_COLUMNS = ['tool_input', 'prompt', 'native', 'evidence'] as const;

export interface EventRow {
  readonly id: string;
  readonly run_id: string;
  readonly ts: string;
  readonly type: string;
  readonly kind: string | null;
  readonly call_id: string | null;
  readonly tool_name: string | null;
  readonly tool_input: unknown;
  readonly decided_by: string | null;
  readonly trigger: string | null;
  readonly option_label: string | null;
  readonly scope: string | null;
  readonly reason: string | null;
  readonly reason_source: string | null;
  readonly related_call_id: string | null;
  readonly ran: string | null;
  readonly partial_output: string | null;
  readonly prompt: { title?: string; details?: Record<string, string>; options?: unknown[] } | null;
  readonly native: unknown;
  readonly evidence: unknown;
  /** The prompt event a decision answered (approval, rejection), else null. */
  readonly prompt_event_id: string | null;
}

/** Every event row of the database, in the order they were seen (ts, then insertion order). */
export function readEventRows(dbPath: string): EventRow[] {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT * FROM events ORDER BY ts, rowid').all() as Record<string, unknown>[];
    return rows.map((row) => {
      const out: Record<string, unknown> = { ...row };
      for (const c of JSON_COLUMNS) {
        const v = row[c];
        out[c] = typeof v === 'string' ? JSON.parse(v) : v;
      }
      return out as unknown as EventRow;
    });
  } finally {
    db.close();
  }
}

export function countAgentRecords(dbPath: string): number {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM agent_records').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

export function readRuns(dbPath: string): Record<string, unknown>[] {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT * FROM runs ORDER BY started_at').all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}


export interface AgentRecordRow {
  readonly run_id: string;
  readonly agent: string;
  readonly source_file: string;
  readonly line_no: number;
  readonly record: string;
}

/** The agent's own records rec copied into its database, in file order. */
export function readAgentRecords(dbPath: string): AgentRecordRow[] {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT run_id, agent, source_file, line_no, record FROM agent_records ORDER BY source_file, byte_offset').all() as AgentRecordRow[];
  } finally {
    db.close();
  }
}
