// Reading the sidecar a test's rec run writes: plain read-only SQL on the real file, and a
// condition wait on its rows (the database has no change event a test could subscribe to).
import { existsSync } from 'node:fs';
import { Database } from '../../src/store/sqliteDriver.js';

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
  const deadline = Date.now() + timeoutMs;
  let last: Row[] = [];
  for (;;) {
    try {
      last = queryRows(dbPath, sql);
    } catch {
      // The database is being created by the run right now: look again on the next tick.
    }
    if (done(last)) return last;
    if (Date.now() > deadline) {
      throw new Error(`timeout after ${timeoutMs} ms waiting for rows of ${sql}; last rows: ${JSON.stringify(last)}`);
    }
    await new Promise((r) => setTimeout(r, ROW_POLL_MS));
  }
}
