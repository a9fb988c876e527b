import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecEvent, type NewEvent } from '../../../src/core/events.js';
import { Run } from '../../../src/store/run.js';
import { openSidecar, SidecarDb } from '../../../src/store/sidecarDb.js';
import { SCHEMA_VERSION } from '../../../src/store/migrations.js';
import { SidecarError } from '../../../src/store/sidecarError.js';
import { useTempDir } from '../../support/tempDir.js';

const tempDir = useTempDir();

function open(path: string): SidecarDb {
  const result = openSidecar(path);
  if (!result.ok) throw new Error(result.error);
  return result.db;
}

const baseRun = { agent: 'codex' as const, argv: ['codex', '--model', 'x'], cwd: '/work', started_at: '2025-01-02T03:04:05.006Z' };

const rejection: NewEvent = {
  ts: '2025-01-02T03:04:06.000Z',
  type: 'rejection',
  kind: 'command',
  call_id: 'call_1',
  tool_name: 'shell',
  tool_input: { command: ['rm', '-rf', 'build'], cwd: '/work' },
  decided_by: 'user',
  trigger: 'esc',
  option_label: 'No, and tell Codex what to do differently',
  evidence: ['screen', 'keys'],
  prompt: { title: 'Allow command?', details: { command: 'rm -rf build' }, options: [{ label: 'Yes', key: 'y' }] },
};

describe('SidecarDb on a real file', () => {
  it('creates the folder 0700 and the database, -wal and -shm 0600', () => {
    const dir = join(tempDir(), 'nested', 'rec');
    const path = join(dir, 'rec.db');
    const db = open(path);
    db.startRun(baseRun); // a write, so that the WAL file exists
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(statSync(file).mode & 0o777).toBe(0o600);
    db.close();
  });

  it('uses WAL with synchronous=NORMAL and migrates to the latest version, idempotently', () => {
    const path = join(tempDir(), 'rec.db');
    const first = open(path);
    const runId = first.startRun(baseRun);
    expect(first.connection.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(first.connection.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    first.close();
    const second = open(path);
    expect(second.connection.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(second.getRun(runId)?.argv).toEqual(baseRun.argv);
    second.close();
  });

  it('has exactly the contract tables and columns', () => {
    const db = open(join(tempDir(), 'rec.db'));
    const columns = (table: string) =>
      (db.connection.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name);
    expect(columns('runs')).toEqual([
      'id', 'agent', 'agent_version', 'argv', 'cwd', 'started_at', 'ended_at', 'exit_code', 'signal',
      'agent_session_id', 'agent_session_file', 'failed_parts', 'rec_version', 'pid', 'agent_version_verified',
      'agent_version_source',
    ]);
    // each table's columns are its schema's fields (the codec reads and writes those)
    expect(columns('runs').sort()).toEqual(Object.keys(Run.shape).sort());
    expect(columns('events')).toEqual(Object.keys(RecEvent.shape));
    expect(columns('agent_records')).toEqual([
      'id', 'run_id', 'agent', 'source_file', 'line_no', 'byte_offset', 'record', 'recorded_at',
    ]);
    const indexed = (db.connection.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events' AND sql IS NOT NULL").all() as Array<{ sql: string }>)
      .map((r) => r.sql);
    for (const column of ['call_id', 'run_id', 'ts', 'agent_session_id']) {
      expect(indexed.some((sql) => sql.includes(`(${column})`))).toBe(true);
    }
    db.close();
  });

  it('round-trips an event so that the row parses with RecEvent, JSON columns included', () => {
    const db = open(join(tempDir(), 'rec.db'));
    const runId = db.startRun(baseRun);
    const id = db.insertEvent({ run_id: runId, agent: 'codex', agent_version: '0.1', agent_session_id: 'sess-1' }, rejection);
    const [event] = db.listEvents();
    expect(RecEvent.parse(event)).toEqual(event);
    expect(event).toMatchObject({
      id,
      run_id: runId,
      agent: 'codex',
      agent_version: '0.1',
      agent_session_id: 'sess-1',
      tool_input: rejection.tool_input,
      prompt: rejection.prompt,
      evidence: ['screen', 'keys'],
      native: null,
      reason: null,
    });
    const raw = db.connection.prepare('SELECT tool_input, evidence FROM events WHERE id = ?').get(id) as Record<string, string>;
    expect(JSON.parse(raw.tool_input!)).toEqual(rejection.tool_input);
    expect(raw.evidence).toBe('["screen","keys"]');
    db.close();
  });

  it('a string tool_input and a missing evidence read back as given and as []', () => {
    const db = open(join(tempDir(), 'rec.db'));
    const runId = db.startRun(baseRun);
    db.insertEvent({ run_id: runId, agent: 'codex' }, { ts: rejection.ts, type: 'approval', tool_input: 'ls -la' });
    const [event] = db.listEvents();
    expect(RecEvent.parse(event)).toMatchObject({ tool_input: 'ls -la', evidence: [], kind: null });
    db.close();
  });

  it('rejects an invalid event at the boundary with a SidecarError and writes nothing', () => {
    const db = open(join(tempDir(), 'rec.db'));
    const runId = db.startRun(baseRun);
    const bad = { ts: 'yesterday', type: 'rejection' } as unknown as NewEvent;
    expect(() => db.insertEvent({ run_id: runId, agent: 'codex' }, bad)).toThrow(SidecarError);
    expect(() => db.insertEvent({ run_id: runId, agent: 'codex' }, { ...rejection, kind: 'nope' } as unknown as NewEvent)).toThrow(
      /invalid event at kind/,
    );
    expect(db.listEvents()).toEqual([]);
    db.close();
  });

  it('updateEvent adds details learned later and reports an unknown id', () => {
    const db = open(join(tempDir(), 'rec.db'));
    const runId = db.startRun(baseRun);
    const id = db.insertEvent({ run_id: runId, agent: 'codex' }, { ts: rejection.ts, type: 'rejection', kind: 'command', trigger: 'esc' });
    expect(db.updateEvent(id, { call_id: 'call_9', ran: 'no', native: { status: 'aborted by user' }, evidence: ['keys', 'session_file'] })).toBe(true);
    expect(db.updateEvent('nonexistent', { ran: 'no' })).toBe(false);
    const [event] = db.listEvents();
    expect(event).toMatchObject({ call_id: 'call_9', ran: 'no', native: { status: 'aborted by user' }, evidence: ['keys', 'session_file'], trigger: 'esc' });
    expect(() => db.updateEvent(id, { ran: 'maybe' } as never)).toThrow(SidecarError);
    db.close();
  });

  it('updateRun and finishRun fill the run row, which parses with Run', () => {
    const db = open(join(tempDir(), 'rec.db'));
    const id = db.startRun({ ...baseRun, rec_version: '0.1.0', pid: 1234 });
    db.updateRun(id, { agent_version: '0.169.0', agent_session_id: 'sess-9', agent_session_file: '/h/.codex/s.jsonl' });
    db.finishRun(id, { ended_at: '2025-01-02T03:05:00.000Z', exit_code: 130, signal: null, failed_parts: [{ part: 'screen', error: 'boom' }] });
    const run = Run.parse(db.getRun(id));
    expect(run).toEqual({
      id, agent: 'codex', agent_version: '0.169.0', argv: baseRun.argv, cwd: '/work', started_at: baseRun.started_at,
      ended_at: '2025-01-02T03:05:00.000Z', exit_code: 130, signal: null, agent_session_id: 'sess-9',
      agent_session_file: '/h/.codex/s.jsonl', failed_parts: [{ part: 'screen', error: 'boom' }], rec_version: '0.1.0', pid: 1234,
      agent_version_verified: null, agent_version_source: null,
    });
    db.close();
  });

  it('insertAgentRecord keeps one copy per (run, file, offset)', () => {
    const db = open(join(tempDir(), 'rec.db'));
    const runId = db.startRun(baseRun);
    const record = { source_file: '/s.jsonl', line_no: 1, byte_offset: 0, record: '{"type":"session_meta"}' };
    expect(db.insertAgentRecord(runId, 'codex', record)).toBe(true);
    expect(db.insertAgentRecord(runId, 'codex', { ...record, record: 'rewritten later' })).toBe(false);
    expect(db.insertAgentRecord(runId, 'codex', { ...record, line_no: 2, byte_offset: 24, record: '{}' })).toBe(true);
    expect(db.listAgentRecords(runId).map((r) => r.record)).toEqual(['{"type":"session_meta"}', '{}']);
    db.close();
  });

  it('lists runs newest first with a limit, and events filtered by run prefix, agent, type and since', () => {
    const db = open(join(tempDir(), 'rec.db'));
    const a = db.startRun({ ...baseRun, started_at: '2025-01-01T00:00:00.000Z' });
    const b = db.startRun({ ...baseRun, agent: 'gemini', started_at: '2025-01-02T00:00:00.000Z' });
    expect(db.listRuns().map((r) => r.id)).toEqual([b, a]);
    expect(db.listRuns({ limit: 1 }).map((r) => r.id)).toEqual([b]);
    expect(db.listRuns({ agent: 'codex' }).map((r) => r.id)).toEqual([a]);
    const e1 = db.insertEvent({ run_id: a, agent: 'codex' }, { ts: '2025-01-01T00:00:01.000Z', type: 'prompt' });
    const e2 = db.insertEvent({ run_id: a, agent: 'codex' }, { ts: '2025-01-01T00:00:02.000Z', type: 'rejection', kind: 'edit' });
    const e3 = db.insertEvent({ run_id: b, agent: 'gemini' }, { ts: '2025-01-02T00:00:01.000Z', type: 'rejection', kind: 'command' });
    const ids = (f: Parameters<SidecarDb['listEvents']>[0]) => db.listEvents(f).map((e) => e.id);
    expect(ids({})).toEqual([e1, e2, e3]);
    expect(ids({ runId: a })).toEqual([e1, e2]);
    expect(ids({ runId: b.slice(0, 8) })).toEqual([e3]);
    expect(ids({ agent: 'gemini' })).toEqual([e3]);
    expect(ids({ type: 'rejection' })).toEqual([e2, e3]);
    expect(ids({ since: new Date('2025-01-01T00:00:02.000Z') })).toEqual([e2, e3]);
    expect(ids({ runId: 'zzzzzzzzzzzzzzz' })).toEqual([]);
    expect(db.countEvents([a, b])).toEqual(new Map([[a, 2], [b, 1]]));
    db.close();
  });

  it('resolves a unique run id prefix and reports an ambiguous one', () => {
    const db = open(join(tempDir(), 'rec.db'));
    const a = db.startRun({ ...baseRun, id: 'abc111' });
    db.startRun({ ...baseRun, id: 'abc222' });
    expect(db.resolveRunId('abc1')).toEqual({ ok: true, id: a });
    expect(db.resolveRunId('abc')).toMatchObject({ ok: false, reason: 'ambiguous' });
    expect(db.resolveRunId('x%')).toMatchObject({ ok: false, reason: 'none' });
    expect(() => db.listEvents({ runId: 'abc' })).toThrow(/more than one run/);
    db.close();
  });

  it('refuses a file of random bytes with an error naming it, and leaves its bytes unchanged', () => {
    const path = join(tempDir(), 'rec.db');
    const bytes = Buffer.alloc(8192);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919 + 13) % 251;
    writeFileSync(path, bytes);
    const result = openSidecar(path);
    expect(result).toMatchObject({ ok: false, code: 'corrupt' });
    if (!result.ok) {
      expect(result.error).toContain(path);
      expect(result.error).not.toContain('\n');
    }
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('refuses a damaged SQLite file (valid header, garbage pages) without changing it', () => {
    const path = join(tempDir(), 'rec.db');
    const db = open(path);
    db.startRun(baseRun);
    db.close();
    const bytes = readFileSync(path);
    bytes.fill(0x5a, 100); // keep the 100-byte header, destroy every page
    writeFileSync(path, bytes);
    const copy = Buffer.from(bytes);
    const result = openSidecar(path);
    expect(result).toMatchObject({ ok: false, code: 'corrupt' });
    if (!result.ok) expect(result.error).toContain(path);
    expect(readFileSync(path).equals(copy)).toBe(true);
  });

  it('reports a missing file as missing when asked not to create it', () => {
    const path = join(tempDir(), 'none.db');
    const result = openSidecar(path, { mustExist: true, readOnly: true });
    expect(result).toMatchObject({ ok: false, code: 'missing' });
    if (!result.ok) expect(result.error).toContain(path);
  });
});

describe('openSidecar on a database of an older rec', () => {
  it('adds the version-verified columns to a schema-1 database and keeps its rows', async () => {
    const { Database } = await import('../../../src/store/sqliteDriver.js');
    const { MIGRATIONS } = await import('../../../src/store/migrations.js');
    const path = join(tempDir(), 'old.db');
    const old = new Database(path);
    old.exec(MIGRATIONS[0]!);
    old.pragma('user_version = 1');
    old.prepare("INSERT INTO runs (id, agent, argv, cwd, started_at) VALUES ('r1', 'codex', '[]', '/w', '2025-01-01T00:00:00.000Z')").run();
    old.prepare("INSERT INTO events (id, run_id, agent, ts, type) VALUES ('e1', 'r1', 'codex', '2025-01-01T00:00:00.000Z', 'prompt')").run();
    old.close();
    const db = open(path);
    expect(db.connection.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.getRun('r1')).toMatchObject({ agent: 'codex', agent_version_verified: null });
    expect(RecEvent.parse(db.listEvents()[0])).toMatchObject({ id: 'e1', agent_version_verified: null });
    db.close();
  });
});

describe('openSidecar on a foreign SQLite file', () => {
  it('never adds rec tables to another program\'s database, with or without a user_version', async () => {
    const { Database } = await import('../../../src/store/sqliteDriver.js');
    for (const userVersion of [0, 7]) {
      const path = join(tempDir(), 'other.db');
      const other = new Database(path);
      other.exec(`CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me'); PRAGMA user_version = ${userVersion}`);
      other.close();
      const before = readFileSync(path);
      const result = openSidecar(path);
      expect(result).toMatchObject({ ok: false, code: 'corrupt' });
      if (!result.ok) expect(result.error).toMatch(new RegExp(`^rec database ${path}: is (an SQLite database of another program|not a rec database)`));
      expect(readFileSync(path).equals(before)).toBe(true);
    }
  });
});

describe('openInMemorySidecar', () => {
  it('gives a private in-memory store with the same schema and no file on disk', async () => {
    const { openInMemorySidecar } = await import('../../../src/store/sidecarDb.js');
    const { existsSync } = await import('node:fs');
    const db = openInMemorySidecar();
    const runId = db.startRun(baseRun);
    db.insertEvent({ run_id: runId, agent: 'codex' }, rejection);
    expect(RecEvent.parse(db.listEvents()[0])).toMatchObject({ call_id: 'call_1' });
    expect(existsSync(':memory:')).toBe(false);
    expect(db.connection.memory).toBe(true);
    db.close();
  });
});
