// Opening the sidecar file: private folder and file, header check before SQLite touches it, WAL,
// busy timeout, migrations. Expected failures come back as values naming the file and the problem.
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, fchmodSync } from 'node:fs';
import { dirname } from 'node:path';
import { Database, type SqliteDatabase } from './sqliteDriver.js';
import { checkRecSchema, migrate, readSchemaVersion, SCHEMA_VERSION } from './migrations.js';
import { classifyError, type SidecarErrorCode } from './sidecarError.js';

/**
 * How long a statement waits for another process's write lock before giving up. Writers hold the
 * lock for microseconds (one event) to milliseconds (a migration, a WAL checkpoint), so 2 s rides
 * out any healthy contention between concurrent `rec` runs on a loaded machine; longer would only
 * stall the run behind a stuck process (inserts are synchronous, ahead of the user's key).
 */
export const BUSY_TIMEOUT_MS = 2_000;

/** Private to the user: the folder and the database (SQLite gives -wal/-shm the file's mode). */
export const DB_DIR_MODE = 0o700;
export const DB_FILE_MODE = 0o600;

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');
/** The smallest database SQLite writes is one 512-byte page; anything shorter but non-empty is not one. */
const MIN_DB_BYTES = 512;

/** SQLite's name for a private in-memory database. */
export const IN_MEMORY = ':memory:';

export interface OpenOptions {
  /** Overrides BUSY_TIMEOUT_MS (tests use a short one). */
  readonly busyTimeoutMs?: number;
  /** Fail with code 'missing' instead of creating the file (readers such as `rec events`). */
  readonly mustExist?: boolean;
  /**
   * Open read-only (readers). A database whose schema is older than ours is opened read-write once
   * to migrate it, so that queries see every column.
   */
  readonly readOnly?: boolean;
}

export type OpenFailure = { readonly ok: false; readonly code: SidecarErrorCode; readonly error: string };
export type OpenDatabaseResult = { readonly ok: true; readonly db: SqliteDatabase } | OpenFailure;

export function openDatabase(path: string, options: OpenOptions = {}): OpenDatabaseResult {
  const busyTimeoutMs = options.busyTimeoutMs ?? BUSY_TIMEOUT_MS;
  const fail = (code: SidecarErrorCode, problem: string): OpenFailure => ({
    ok: false,
    code,
    error: `rec database ${path}: ${problem}`,
  });
  const failWith = (err: unknown): OpenFailure => {
    const { code, problem } = classifyError(err);
    return code === 'locked'
      ? fail(code, `locked by another process for more than ${busyTimeoutMs} ms`)
      : fail(code, problem);
  };

  // ':memory:' (unit tests of other parts): no file to prepare; the pragmas below are harmless.
  const refused = path === IN_MEMORY ? undefined : prepareFile(path, options.mustExist === true, options.readOnly === true);
  if (refused !== undefined) return fail(refused.code, refused.problem);

  let db: SqliteDatabase | undefined;
  let readingOnly = options.readOnly === true;
  try {
    if (readingOnly) {
      db = new Database(path, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
      const foreign = checkRecSchema(db);
      if (foreign !== undefined) {
        db.close();
        return fail('corrupt', foreign);
      }
      if (readSchemaVersion(db) >= SCHEMA_VERSION) return { ok: true, db };
      db.close();
      db = undefined;
      readingOnly = false;
    }
    db = new Database(path, { fileMustExist: path !== IN_MEMORY, timeout: busyTimeoutMs });
    // Reads only: switching to WAL below would already rewrite two bytes of a foreign file's header.
    const foreign = checkRecSchema(db);
    if (foreign !== undefined) {
      db.close();
      return fail('corrupt', foreign);
    }
    // WAL: readers never block the writer, and a committed insert survives kill -9 of the process.
    // NORMAL: in WAL mode only a power loss (not a crash) can lose the last commits; an insert
    // then costs microseconds instead of an fsync, which matters ahead of a forwarded key.
    useWal(db, busyTimeoutMs);
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db);
    return { ok: true, db };
  } catch (err) {
    try {
      db?.close();
    } catch {
      // Closing a connection that failed half-way may fail too; the open error is what matters.
    }
    const failure = failWith(err);
    if (readingOnly && failure.code === 'readonly') {
      // A WAL database can only be read where SQLite may create (or finds) its -shm file.
      return fail('readonly', 'cannot be read without write access to its folder (SQLite needs to create its -shm file there)');
    }
    return failure;
  }
}

/** The back-off between two tries of the switch to WAL. */
const WAL_RETRY_MS = 5;
const SLEEPER = new Int32Array(new SharedArrayBuffer(4));

/**
 * Switches the file to WAL. SQLite answers a contended switch with SQLITE_BUSY at once, without
 * waiting out the busy timeout (the switch needs an exclusive lock, and waiting for it could
 * deadlock), so several rec runs opening a brand-new file together failed. The switch is tried
 * again until the busy timeout; once one run has switched, the others find WAL and change nothing.
 */
function useWal(db: SqliteDatabase, busyTimeoutMs: number): void {
  const deadline = Date.now() + busyTimeoutMs;
  for (;;) {
    try {
      if (db.pragma('journal_mode', { simple: true }) !== 'wal') db.pragma('journal_mode = WAL');
      return;
    } catch (err) {
      if (classifyError(err).code !== 'locked' || Date.now() >= deadline) throw err;
      Atomics.wait(SLEEPER, 0, 0, WAL_RETRY_MS);
    }
  }
}

/**
 * Makes the folder (0700) and an empty file (0600) if needed, and refuses a file that is not an
 * SQLite database before SQLite ever opens it, so that a damaged or foreign file is never written.
 * Returns undefined when the file is ready for SQLite.
 */
function prepareFile(
  path: string,
  mustExist: boolean,
  readOnly: boolean,
): undefined | { code: SidecarErrorCode; problem: string } {
  const at = (code: SidecarErrorCode, problem: string) => ({ code, problem });
  let fd: number;
  try {
    if (mustExist) {
      fd = openSync(path, readOnly ? 'r' : 'r+');
    } else {
      makeDirs(dirname(path));
      try {
        fd = openSync(path, 'wx', DB_FILE_MODE);
        // The umask can only remove bits, but make the mode exact for a file we created.
        fchmodSync(fd, DB_FILE_MODE);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        // Another process (or an earlier run) created it first: use it as it is. Open it for
        // writing, because SQLite would silently fall back to read-only on a file it cannot write.
        fd = openSync(path, 'r+');
      }
    }
  } catch (err) {
    if (mustExist && (err as NodeJS.ErrnoException).code === 'ENOENT') {
      return at('missing', 'does not exist (nothing recorded yet; run `rec <agent>` first)');
    }
    return classifyError(err);
  }
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return undefined; // new, or created by a process that is about to migrate it
    const header = Buffer.alloc(SQLITE_HEADER.length);
    const read = readSync(fd, header, 0, header.length, 0);
    if (size < MIN_DB_BYTES || read < header.length || !header.equals(SQLITE_HEADER)) {
      return at('corrupt', 'is not an SQLite database (damaged or another kind of file); it was left untouched');
    }
    return undefined;
  } catch (err) {
    return classifyError(err);
  } finally {
    closeSync(fd);
  }
}

/**
 * mkdir -p, one level at a time. Node's own `recursive: true` never returns for a path under a
 * pseudo file system such as /proc (mkdir answers ENOENT there although the parent exists).
 */
function makeDirs(dir: string): void {
  try {
    mkdirSync(dir, { mode: DB_DIR_MODE });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    const parent = dirname(dir);
    if (code !== 'ENOENT' || parent === dir || existsSync(parent)) throw err;
    makeDirs(parent);
    mkdirSync(dir, { mode: DB_DIR_MODE });
  }
}
