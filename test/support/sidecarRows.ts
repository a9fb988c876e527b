// Reading the sidecar a test's rec run writes, read-only on the real file: plain SQL, a condition
// wait on its rows (the database has no change event a test could subscribe to), and whole rows
// decoded by each table's one codec (src/store/tables.ts), the same every reader of rec uses; a row
// that does not decode fails the test.
import { existsSync } from 'node:fs';
import { Database } from '../../src/store/sqliteDriver.js';
import type { RecEvent } from '../../src/core/events.js';
import type { Run } from '../../src/store/run.js';
import type { TableCodec } from '../../src/store/rowCodec.js';
import { AGENT_RECORDS, EVENTS, RUNS, type AgentRecordRow } from '../../src/store/tables.js';
import { waitUntil } from '../../src/lab/pollUntil.js';

/** How often a row condition is re-checked. */
const ROW_POLL_MS = 25;
/** Generous: two cores are shared by parallel test files and real agents. */
export const ROW_WAIT_TIMEOUT_MS = 20_000;

export type Row = Record<string, unknown>;

export function queryRows(dbPath: string, sql: string, ...params: unknown[]): Row[] {
  if (!existsSync(dbPath)) return [];
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as Row[];
  } finally {
    db.close();
  }
}

/** Waits until the query returns rows that satisfy `done`, and returns them. */
export async function waitForRows(
  dbPath: string,
  sql: string,
  done: (rows: Row[]) => boolean,
  timeoutMs = ROW_WAIT_TIMEOUT_MS,
): Promise<Row[]> {
  let last: Row[] = [];
  const probe = (): Row[] | undefined => {
    try {
      last = queryRows(dbPath, sql);
    } catch {
      // The database is being created by the run right now: look again on the next tick.
    }
    return done(last) ? last : undefined;
  };
  return waitUntil(probe, { what: `rows of ${sql}`, timeoutMs, intervalMs: ROW_POLL_MS, last: () => JSON.stringify(last) });
}

export type EventRow = RecEvent;
export type { AgentRecordRow } from '../../src/store/tables.js';

function readTable<T>(dbPath: string, codec: TableCodec<T>, sql: string): T[] {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare(sql).all() as Record<string, unknown>[]).map((row) => {
      const decoded = codec.decode(row);
      if (!decoded.ok) throw new Error(`${dbPath}: ${codec.table} row ${String(row['id'])} does not decode: ${decoded.problem}`);
      return decoded.value;
    });
  } finally {
    db.close();
  }
}

/** Every event row of the database, in the order they were seen (ts, then insertion order). */
export function readEventRows(dbPath: string): EventRow[] {
  return readTable(dbPath, EVENTS, 'SELECT * FROM events ORDER BY ts, rowid');
}

export function countAgentRecords(dbPath: string): number {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM agent_records').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

export function readRuns(dbPath: string): Run[] {
  return readTable(dbPath, RUNS, 'SELECT * FROM runs ORDER BY started_at');
}

/** The agent's own records rec copied into its database, in file order. */
export function readAgentRecords(dbPath: string): AgentRecordRow[] {
  return readTable(dbPath, AGENT_RECORDS, 'SELECT * FROM agent_records ORDER BY source_file, byte_offset');
}
