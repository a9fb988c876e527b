// Reading the sidecar a test's rec run writes: plain read-only SQL on the real file, and a
// condition wait on its rows (the database has no change event a test could subscribe to).
import { existsSync } from 'node:fs';
import { Database } from '../../src/store/sqliteDriver.js';
import { waitUntil } from './pollUntil.js';

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
