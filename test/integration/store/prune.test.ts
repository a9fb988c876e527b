// `rec prune` as a real process on real SQLite files: what goes (runs with their events and agent
// records), what stays, the refusal while a run still records, the space given back, and usage.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { WHEN_FORMS } from '../../../src/commands/commandSpec.js';
import { Database } from '../../../src/store/sqliteDriver.js';
import { describe, expect, it } from 'vitest';
import { openSidecar } from '../../../src/store/sidecarDb.js';
import { createRecSandbox, REC_BIN } from '../../support/rec.js';
import { waitForRows } from '../../support/sidecarRows.js';
import { useTempDir } from '../../support/tempDir.js';

const tempDir = useTempDir();
const execFileAsync = promisify(execFile);

interface Rec {
  code: number;
  stdout: string;
  stderr: string;
}

/** `rec <args>` as a user runs it; never throws for a non-zero exit. */
async function rec(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Rec> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [REC_BIN, ...args], { env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const NOW = Date.now();
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A pid that no process has any more: a child that has already been reaped. */
function deadPid(): number {
  const child = spawnSync('true');
  return child.pid!;
}

interface RunSpec {
  id: string;
  started_at: string;
  /** Undefined: no end written (still recording, or rec was killed). */
  ended_at?: string;
  pid?: number;
  events: number;
  records: number;
}

/** Runs with events and agent records (4 KB each, so that deleting them frees megabytes). */
function makeDb(dir: string, runs: readonly RunSpec[]): string {
  const path = join(dir, 'rec.db');
  const opened = openSidecar(path);
  if (!opened.ok) throw new Error(opened.error);
  const db = opened.db;
  const payload = JSON.stringify({ type: 'response_item', text: 'x'.repeat(4000) });
  for (const run of runs) {
    db.startRun({ id: run.id, agent: 'codex', argv: ['codex'], cwd: '/w', started_at: run.started_at, pid: run.pid ?? null });
    if (run.ended_at !== undefined) db.finishRun(run.id, { ended_at: run.ended_at, exit_code: 0, signal: null });
    const ctx = { run_id: run.id, agent: 'codex' as const };
    for (let i = 0; i < run.events; i++) db.insertEvent(ctx, { ts: run.started_at, type: 'rejection', kind: 'command', call_id: `call_${i}` });
    db.connection.transaction(() => {
      for (let i = 0; i < run.records; i++) {
        db.insertAgentRecord(run.id, 'codex', { source_file: '/s/rollout.jsonl', line_no: i + 1, byte_offset: i * 4100, record: payload });
      }
    })();
  }
  db.close();
  return path;
}

/** Rows per table per run, read straight from the file. */
function contents(path: string): Record<string, { events: number; records: number }> {
  const db = new Database(path, { readonly: true });
  try {
    const out: Record<string, { events: number; records: number }> = {};
    for (const { id } of db.prepare('SELECT id FROM runs').all() as Array<{ id: string }>) {
      out[id] = {
        events: (db.prepare('SELECT count(*) AS n FROM events WHERE run_id = ?').get(id) as { n: number }).n,
        records: (db.prepare('SELECT count(*) AS n FROM agent_records WHERE run_id = ?').get(id) as { n: number }).n,
      };
    }
    const orphans = db.prepare('SELECT (SELECT count(*) FROM events WHERE run_id NOT IN (SELECT id FROM runs)) + (SELECT count(*) FROM agent_records WHERE run_id NOT IN (SELECT id FROM runs)) AS n').get() as { n: number };
    expect(orphans.n).toBe(0);
    return out;
  } finally {
    db.close();
  }
}

const bytesOf = (path: string) => statSync(path).size + (existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0);

const OLD_A: RunSpec = { id: 'olda0000aaaaaaaaaaaaaaaaaa', started_at: ago(30 * DAY), ended_at: ago(30 * DAY - HOUR), events: 2, records: 150 };
/** rec was killed: no end, and its pid is gone. That run is over and may go. */
const OLD_B: RunSpec = { id: 'oldb0000bbbbbbbbbbbbbbbbbb', started_at: ago(20 * DAY), pid: deadPid(), events: 1, records: 150 };
const RECENT: RunSpec = { id: 'recent00cccccccccccccccccc', started_at: ago(HOUR), ended_at: ago(HOUR - 60_000), events: 3, records: 5 };
/** Still recording: no end, and its rec (here: this test process) is alive. */
const LIVE: RunSpec = { id: 'live0000dddddddddddddddddd', started_at: ago(10 * 60_000), pid: process.pid, events: 1, records: 5 };

describe('rec prune', () => {
  it('--before deletes older runs with their events and agent records, keeps the rest, and shrinks the file', async () => {
    const path = makeDb(tempDir(), [OLD_A, OLD_B, RECENT]);
    const before = bytesOf(path);
    const r = await rec(['prune', '--db', path, '--before', '7d']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/^Deleted 2 runs \(3 events, 300 agent records\) started before \d{4}-\d\d-\d\d \d\d:\d\d:\d\d:\n/);
    expect(r.stdout).toMatch(/^olda0000 .* codex\s+2\s+150$/m);
    expect(r.stdout).toMatch(/^oldb0000 .* codex\s+1\s+150$/m);
    expect(r.stdout).toContain(`${path}: `);
    expect(contents(path)).toEqual({ [RECENT.id]: { events: 3, records: 5 } });
    const after = bytesOf(path);
    // 300 records of 4 KB went: the file gives back at least 1 MB of its ~1.3 MB.
    expect(before).toBeGreaterThan(1_200_000);
    expect(after).toBeLessThan(before - 1_000_000);
  });

  it('--run takes a unique prefix and deletes only that run', async () => {
    const path = makeDb(tempDir(), [OLD_A, OLD_B, RECENT]);
    const r = await rec(['prune', '--db', path, '--run', 'oldb']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Deleted 1 run \(1 event, 150 agent records\):\n/);
    expect(contents(path)).toEqual({ [OLD_A.id]: { events: 2, records: 150 }, [RECENT.id]: { events: 3, records: 5 } });
  });

  it('--run takes a full id; `rec --db PATH prune` works as for the other commands', async () => {
    const path = makeDb(tempDir(), [OLD_A, RECENT]);
    const r = await rec(['--db', path, 'prune', '--run', RECENT.id]);
    expect(r.code).toBe(0);
    expect(Object.keys(contents(path))).toEqual([OLD_A.id]);
  });

  it('--dry-run shows what would go and deletes nothing', async () => {
    const path = makeDb(tempDir(), [OLD_A, OLD_B, RECENT]);
    const before = contents(path);
    const r = await rec(['prune', '--db', path, '--before', '2d', '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Would delete 2 runs \(3 events, 300 agent records\) started before /);
    expect(r.stdout).toMatch(/Nothing was deleted \(--dry-run\)\.\n$/);
    expect(contents(path)).toEqual(before);
  });

  it('refuses to delete a run that is still recording, and deletes nothing else of the selection', async () => {
    const path = makeDb(tempDir(), [OLD_A, LIVE, RECENT]);
    const before = contents(path);
    for (const args of [['--run', 'live'], ['--before', '1m']]) {
      const r = await rec(['prune', '--db', path, ...args]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`rec prune: nothing deleted: 1 run still recording: live0000 (rec pid ${process.pid}); wait for it to end or stop it first\n`);
      expect(contents(path)).toEqual(before);
    }
  });

  it('refuses a run a real `rec` is recording, and deletes it once that rec has exited', async () => {
    const sandbox = createRecSandbox();
    try {
      const p = sandbox.spawnRec(['--', 'sh', '-c', 'echo recording; exec sleep 100']);
      await p.expect('recording');
      const [row] = await waitForRows(sandbox.dbPath, 'SELECT id FROM runs', (rows) => rows.length === 1);
      const id = String(row!.id);
      const refused = await rec(['prune', '--run', id.slice(0, 8)], sandbox.env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^rec prune: nothing deleted: 1 run still recording: \w{8} \(rec pid \d+\)/);
      p.kill('SIGTERM');
      await p.expectExit();
      const deleted = await rec(['prune', '--run', id.slice(0, 8)], sandbox.env);
      expect(deleted.code).toBe(0);
      expect(deleted.stdout).toMatch(/^Deleted 1 run \(0 events, 0 agent records\):/);
      expect(contents(sandbox.dbPath)).toEqual({});
    } finally {
      sandbox.dispose();
    }
  });

  it('deletes around a live run but gives the space back only once no run records', async () => {
    const path = makeDb(tempDir(), [OLD_A, OLD_B, LIVE]);
    const before = bytesOf(path);
    const r = await rec(['prune', '--db', path, '--before', '7d']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Deleted 2 runs/);
    expect(r.stdout).toContain('given back to the disk by a later `rec prune` once run live0000 has stopped recording');
    expect(Object.keys(contents(path))).toEqual([LIVE.id]);
    expect(bytesOf(path)).toBeGreaterThan(before - 100_000);
    // The run ends; the next prune, even with nothing to delete, reclaims the free pages.
    const db = new Database(path);
    db.prepare('UPDATE runs SET ended_at = ? WHERE id = ?').run(new Date().toISOString(), LIVE.id);
    db.close();
    const again = await rec(['prune', '--db', path, '--before', '7d']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^No runs started before .* in .*\n.*: \d+(\.\d)? [KM]?B → \d+(\.\d)? [KM]?B\.\n$/);
    expect(bytesOf(path)).toBeLessThan(before - 1_000_000);
  });

  it('an unknown or ambiguous --run is one line and exit 2', async () => {
    const path = makeDb(tempDir(), [OLD_A, OLD_B]);
    const unknown = await rec(['prune', '--db', path, '--run', 'zzz']);
    expect(unknown).toMatchObject({ code: 2, stdout: '', stderr: `rec prune: no run matches 'zzz' in ${path} (rec runs lists the recorded runs)\n` });
    // Newest first, as `rec runs` lists them.
    const ambiguous = await rec(['prune', '--db', path, '--run', 'old']);
    expect(ambiguous).toMatchObject({ code: 2, stdout: '' });
    expect(ambiguous.stderr).toBe("rec prune: run id 'old' is ambiguous: it matches oldb0000, olda0000; give more characters\n");
    expect(Object.keys(contents(path))).toHaveLength(2);
  });

  it('bad usage is one line naming the option, worded as in every command, exit 2, and the database is not touched', async () => {
    const dir = tempDir();
    const path = join(dir, 'never.db');
    const cases: Array<[string[], string]> = [
      [[], 'say which runs to delete: --before WHEN or --run ID'],
      [['--before'], "option '--before' needs a value (WHEN)"],
      [['--before', 'yesterday'], "bad --before 'yesterday': WHEN_FORMS"],
      [['--before', '1d', '--run', 'abc'], 'give --before or --run, not both'],
      [['--run='], "option '--run' needs a value (ID)"],
      [['--bogus'], "unknown option '--bogus' (rec prune --help lists what it takes)"],
      [['--dry-run=yes', '--run', 'x'], "option '--dry-run' takes no value"],
      [['old'], "unexpected argument 'old' (rec prune --help lists what it takes)"],
      [['--before', '-3d'], "bad --before '-3d': WHEN_FORMS"],
      [['--before', '\x1b]0;pwned\x07'], "bad --before '\\x1b]0;pwned\\x07': WHEN_FORMS"],
    ];
    for (const [args, message] of cases) {
      const r = await rec(['prune', '--db', path, ...args]);
      expect({ args, ...r }).toEqual({ args, code: 2, stdout: '', stderr: `rec prune: ${message.replace('WHEN_FORMS', `expected ${WHEN_FORMS}`)}\n` });
    }
    expect(existsSync(path)).toBe(false);
  });

  it('--help prints the usage and exits 0; a missing database is one line and exit 1, and is not created', async () => {
    const help = await rec(['prune', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: rec prune \[--before WHEN\] \[--run ID\] \[--dry-run\] \[--db PATH\]\n/);
    const path = join(tempDir(), 'missing.db');
    const r = await rec(['prune', '--run', 'abc'], { REC_DB: path });
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe(`rec prune: rec database ${path}: does not exist (nothing recorded yet; run \`rec <agent>\` first)\n`);
    expect(existsSync(path)).toBe(false);
  });
});
