// The SQLite driver on the Node running the tests: the build it picks must load, and statements it
// prepares must be collectable without killing the process — better-sqlite3 12 on Node 24.19+
// aborts with SIGABRT there, which a test must catch rather than only print (scripts/test-node-lines
// runs this file on each supported Node line).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SQLITE_PACKAGE } from '../../../src/store/sqliteDriver.js';
import { assertDistFresh } from '../../support/storeChildren.js';

const CHILD = join(import.meta.dirname, 'statement-gc-child.mjs');
const dir = mkdtempSync(join(tmpdir(), 'rec-sqlite-driver-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => assertDistFresh());

describe('sqliteDriver', () => {
  it('picks better-sqlite3 13 on Node-API 10 and up, the Node 20 build below', () => {
    const napi = Number(process.versions.napi);
    expect(SQLITE_PACKAGE).toBe(napi >= 10 ? 'better-sqlite3' : 'better-sqlite3-node20');
  });

  it('survives V8 collecting thousands of statements from the event loop and an exit with the database open (exit 0, no abort)', () => {
    const child = spawnSync(process.execPath, [CHILD, join(dir, 'gc.db')], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect({ signal: child.signal, status: child.status, stderr: child.stderr }).toEqual({
      signal: null,
      status: 0,
      stderr: '',
    });
    expect(child.stdout).toBe(`${SQLITE_PACKAGE} ok 2000\n`);
  });
});
