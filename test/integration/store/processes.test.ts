// The sidecar under several real processes on one real database file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RecEvent } from '../../../src/core/events.js';
import { SCHEMA_VERSION } from '../../../src/store/migrations.js';
import { openSidecar } from '../../../src/store/sidecarDb.js';
import { assertDistFresh, startChild, startTogether, type Child } from '../../support/storeChildren.js';

/** The lock test's busy timeout: short, so the test does not wait BUSY_TIMEOUT_MS for nothing. */
const TEST_BUSY_TIMEOUT_MS = 200;

const dirs: string[] = [];
const running: Child[] = [];
function newDbPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rec-store-proc-'));
  dirs.push(dir);
  return join(dir, 'rec', 'rec.db');
}
afterEach(async () => {
  for (const child of running.splice(0)) {
    if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
    await child.exited;
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

beforeAll(() => assertDistFresh());

describe('sidecar shared by several processes', () => {
  it('4 processes opening a brand-new database at once all succeed and migrate it once', async () => {
    const path = newDbPath();
    const children = await startTogether(Array.from({ length: 4 }, () => ['open', path]));
    running.push(...children);
    const results = await Promise.all(children.map((c) => c.result()));
    expect(results).toEqual(Array.from({ length: 4 }, () => ({ ok: true })));
    const opened = openSidecar(path);
    if (!opened.ok) throw new Error(opened.error);
    expect(opened.db.connection.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(opened.db.listRuns()).toEqual([]);
    opened.db.close();
  });

  it('4 processes each inserting 500 events at once: all 2000 land', async () => {
    const path = newDbPath();
    const children = await startTogether(['a', 'b', 'c', 'd'].map((tag) => ['insert', path, '500', tag]));
    running.push(...children);
    const results = await Promise.all(children.map((c) => c.result()));
    for (const r of results) expect(r).toMatchObject({ ok: true, inserted: 500 });
    const opened = openSidecar(path);
    if (!opened.ok) throw new Error(opened.error);
    const events = opened.db.listEvents();
    expect(events).toHaveLength(2000);
    expect(new Set(events.map((e) => e.call_id)).size).toBe(2000);
    expect(new Set(events.map((e) => e.id)).size).toBe(2000);
    expect(opened.db.listRuns()).toHaveLength(4);
    for (const e of events.slice(0, 50)) RecEvent.parse(e);
    opened.db.close();
  });

  it('an event is durable when insertEvent returns: SIGKILL right after it loses nothing', async () => {
    const path = newDbPath();
    const child = startChild(['hang', path]);
    running.push(child);
    const line = await child.waitForLine(/^INSERTED /);
    child.process.kill('SIGKILL');
    expect((await child.exited).signal).toBe('SIGKILL');
    const [, runId, eventId] = line.split(' ');
    const opened = openSidecar(path);
    if (!opened.ok) throw new Error(opened.error);
    const events = opened.db.listEvents({ runId: runId! });
    expect(events.map((e) => [e.id, e.call_id])).toEqual([[eventId, 'call_kill9']]);
    opened.db.close();
  });

  it('a database held in an EXCLUSIVE lock by another process gives an error value after the busy timeout', async () => {
    const path = newDbPath();
    const created = openSidecar(path);
    if (!created.ok) throw new Error(created.error);
    created.db.close();
    const holder = startChild(['lock', path]);
    running.push(holder);
    await holder.waitForLine(/^LOCKED$/);
    const result = openSidecar(path, { busyTimeoutMs: TEST_BUSY_TIMEOUT_MS });
    expect(result).toMatchObject({ ok: false, code: 'locked' });
    if (!result.ok) {
      expect(result.error).toContain(path);
      expect(result.error).toContain(`more than ${TEST_BUSY_TIMEOUT_MS} ms`);
    }
    holder.process.stdin.end(); // release: the same database opens again
    expect((await holder.exited).code).toBe(0);
    const again = openSidecar(path, { busyTimeoutMs: TEST_BUSY_TIMEOUT_MS });
    expect(again.ok).toBe(true);
    if (again.ok) again.db.close();
  });
});
