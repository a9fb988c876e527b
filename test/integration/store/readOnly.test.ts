// A database the user cannot write gives an error value, never an exception. The open runs in a
// child process so that, when the tests run as root (who may write anything), it can run as the
// unprivileged user `nobody` and meet real permission checks.
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openSidecar } from '../../../src/store/sidecarDb.js';
import { assertDistFresh, startChild } from '../../support/storeChildren.js';

/** nobody:nogroup on Debian-family systems. */
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    chmodSync(dir, 0o700);
    rmSync(dir, { recursive: true, force: true });
  }
});
beforeAll(() => assertDistFresh());

/** A folder the child's user owns (so only the mode bits decide), inside a traversable parent. */
function ownedDir(): string {
  const parent = mkdtempSync(join(tmpdir(), 'rec-store-ro-'));
  dirs.push(parent);
  chmodSync(parent, 0o755);
  const dir = join(parent, 'data');
  mkdirSync(dir, { mode: 0o700 });
  if (asRoot) chownSync(dir, NOBODY, NOBODY);
  return dir;
}

function own(path: string): void {
  if (asRoot) chownSync(path, NOBODY, NOBODY);
}

async function openInChild(path: string): Promise<Record<string, unknown>> {
  const child = startChild(['open', path], asRoot ? { uid: NOBODY, gid: NOBODY } : {});
  return child.result();
}

function createDb(path: string): void {
  const created = openSidecar(path);
  if (!created.ok) throw new Error(created.error);
  created.db.startRun({ agent: 'codex', argv: ['codex'], cwd: '/', started_at: new Date().toISOString() });
  created.db.close(); // a clean close checkpoints and removes -wal/-shm
}

describe('an unwritable database', () => {
  it('a read-only folder with no database yet gives a readonly error naming the file', async () => {
    const dir = ownedDir();
    chmodSync(dir, 0o500);
    const path = join(dir, 'rec.db');
    const result = await openInChild(path);
    expect(result).toMatchObject({ ok: false, code: 'readonly' });
    expect(result.error).toContain(path);
  });

  it('a read-only database file gives a readonly error', async () => {
    const dir = ownedDir();
    const path = join(dir, 'rec.db');
    createDb(path);
    own(path);
    chmodSync(path, 0o400);
    const result = await openInChild(path);
    expect(result).toMatchObject({ ok: false, code: 'readonly' });
    expect(result.error).toContain(path);
  });

  it('a writable database in a read-only folder (no room for -wal/-shm) gives a readonly error', async () => {
    const dir = ownedDir();
    const path = join(dir, 'rec.db');
    createDb(path);
    own(path);
    chmodSync(dir, 0o500);
    const result = await openInChild(path);
    expect(result).toMatchObject({ ok: false, code: 'readonly' });
    expect(result.error).toContain(path);
  });
});
