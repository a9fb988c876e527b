// The schema, as an ordered, append-only list of steps under PRAGMA user_version. Never edit a
// step that has shipped: add a new one. Column names are the contract read directly with SQL by
// merge/stats and match the zod names in src/core/events.ts.
import type { SqliteDatabase } from './sqliteDriver.js';
import { SidecarError } from './sidecarError.js';

/**
 * Enum columns (type, kind, trigger…) carry no CHECK constraint on purpose: zod validates at the
 * store's boundary, and a new vocabulary value must not need a table rebuild in a later step.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: runs, events, agent_records
  `
  CREATE TABLE runs (
    id TEXT PRIMARY KEY,
    agent TEXT NOT NULL,
    agent_version TEXT,
    argv TEXT NOT NULL,                 -- JSON array of strings
    cwd TEXT NOT NULL,
    started_at TEXT NOT NULL,           -- ISO 8601 UTC with milliseconds
    ended_at TEXT,
    exit_code INTEGER,
    signal INTEGER,
    agent_session_id TEXT,
    agent_session_file TEXT,
    failed_parts TEXT NOT NULL DEFAULT '[]', -- JSON array of {part, error}
    rec_version TEXT,
    pid INTEGER
  );
  CREATE INDEX runs_started_at ON runs (started_at);

  CREATE TABLE events (
    id TEXT PRIMARY KEY,
    run_id TEXT NOT NULL REFERENCES runs (id),
    agent TEXT NOT NULL,
    agent_version TEXT,
    agent_session_id TEXT,
    ts TEXT NOT NULL,
    type TEXT NOT NULL,
    kind TEXT,
    call_id TEXT,
    tool_name TEXT,
    tool_input TEXT,                    -- JSON
    decided_by TEXT,
    trigger TEXT,
    option_label TEXT,
    scope TEXT,
    reason TEXT,
    reason_source TEXT,
    related_call_id TEXT,
    ran TEXT,
    partial_output TEXT,
    prompt TEXT,                        -- JSON
    native TEXT,                        -- JSON
    evidence TEXT NOT NULL DEFAULT '[]', -- JSON array
    prompt_event_id TEXT
  );
  CREATE INDEX events_call_id ON events (call_id);
  CREATE INDEX events_run_id ON events (run_id);
  CREATE INDEX events_ts ON events (ts);
  CREATE INDEX events_agent_session_id ON events (agent_session_id);

  CREATE TABLE agent_records (
    id INTEGER PRIMARY KEY,
    run_id TEXT NOT NULL,
    agent TEXT NOT NULL,
    source_file TEXT NOT NULL,
    line_no INTEGER NOT NULL,
    byte_offset INTEGER NOT NULL,
    record TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    UNIQUE (run_id, source_file, byte_offset)
  );
  `,
  // 2: whether the agent's version is one rec was verified on (1), a newer or other one (0), or not
  // known yet (NULL); events carry their run's answer, like agent_version.
  `
  ALTER TABLE runs ADD COLUMN agent_version_verified INTEGER;
  ALTER TABLE events ADD COLUMN agent_version_verified INTEGER;
  `,
  // 3: which witness told the agent's version: the npm package of the binary rec started
  // ('package'), the session file's own version field ('session_file'), or the banner ('banner').
  `
  ALTER TABLE runs ADD COLUMN agent_version_source TEXT;
  `,
  // 4: how far `rec export` got, per destination and run: the last event (in ts, id order) the
  // destination acknowledged, and whether the run's events are all sent. Per run, because runs
  // recorded at once write their events interleaved, and a run is only exported once it ended. The
  // index walks one run's events in that order a page at a time.
  `
  CREATE TABLE export_cursors (
    destination TEXT NOT NULL,
    run_id TEXT NOT NULL,
    last_ts TEXT,
    last_id TEXT,
    done INTEGER NOT NULL DEFAULT 0,
    sent INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (destination, run_id)
  ) WITHOUT ROWID;
  CREATE INDEX events_run_ts_id ON events (run_id, ts, id);
  `,
  // 5: what `rec doctor` found on an installed agent: one row per agent checked, each scenario's
  // expected and seen rows (JSON), and whether all passed. A version whose latest doctor run passed
  // counts as verified on this machine (verified_by 'doctor'), beside the versions rec ships with.
  `
  CREATE TABLE doctor_runs (
    id TEXT PRIMARY KEY,
    agent TEXT NOT NULL,
    agent_version TEXT NOT NULL,
    agent_bin TEXT NOT NULL,
    started_at TEXT NOT NULL,           -- ISO 8601 UTC with milliseconds
    ended_at TEXT NOT NULL,
    passed INTEGER NOT NULL,            -- 1: every scenario passed
    scenarios TEXT NOT NULL,            -- JSON array of {name, expected, seen, pass, capture}
    verified_by TEXT NOT NULL DEFAULT 'doctor',
    rec_version TEXT
  );
  CREATE INDEX doctor_runs_agent_version ON doctor_runs (agent, agent_version, ended_at);
  `,
  // 6: one `rec export` at a time per destination: the lease its holder took (its pid and host, and
  // until when, renewed with every batch), so that two exports to one destination cannot both send
  // a batch before either moves the cursor. And, per cursor, how many events export left out
  // because this rec could not read them (a type from a newer rec), so none is lost unsaid.
  `
  CREATE TABLE export_leases (
    destination TEXT PRIMARY KEY,
    holder_pid INTEGER NOT NULL,
    holder_host TEXT NOT NULL,
    token TEXT NOT NULL,
    expires_at TEXT NOT NULL            -- ISO 8601 UTC with milliseconds
  ) WITHOUT ROWID;
  ALTER TABLE export_cursors ADD COLUMN skipped INTEGER NOT NULL DEFAULT 0;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Tells another program's SQLite file (given to --db by mistake) from ours before anything is
 * written to it: ours is either empty (version 0, no tables) or has a version and our tables.
 * Returns the problem, or undefined when the file is (or may become) a rec database.
 */
export function checkRecSchema(db: SqliteDatabase): string | undefined {
  // One read transaction: the version and the tables must come from the same snapshot, or another
  // process's first migration, committed between the two reads, would look like a foreign schema.
  return db.transaction((): string | undefined => {
    const foreign = 'is an SQLite database of another program (it has tables but no rec schema); it was left untouched';
    if (readSchemaVersion(db) === 0) return hasTables(db) ? foreign : undefined;
    const found = db
      .prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('runs', 'events', 'agent_records')")
      .get() as { n: number };
    return found.n === 3 ? undefined : foreign;
  })();
}

function hasTables(db: SqliteDatabase): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' LIMIT 1").get() !== undefined;
}

export function readSchemaVersion(db: SqliteDatabase): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings the schema up to date, one step per BEGIN IMMEDIATE transaction. The version is read
 * again under the write lock, so several processes opening a brand-new database at once each apply
 * a step only if nobody else did. The last (empty) transaction also proves that we can take the
 * write lock: a database held by another process fails here, at open, rather than at the first
 * event. A database from a newer rec (version above ours) is left as is: steps only add things.
 */
export function migrate(db: SqliteDatabase): void {
  const step = db.transaction((): boolean => {
    const version = readSchemaVersion(db);
    if (version >= MIGRATIONS.length) return false;
    if (version === 0 && hasTables(db)) {
      // Another program's SQLite file (passed by mistake to --db): never add our tables to it.
      throw new SidecarError(checkRecSchema(db) ?? 'is not a rec database', 'corrupt');
    }
    db.exec(MIGRATIONS[version]!);
    db.pragma(`user_version = ${version + 1}`);
    return true;
  });
  while (step.immediate()) {
    // Each iteration committed one step; loop until the schema is current.
  }
}
