import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { PassThrough, Writable } from 'node:stream';
import { Database } from '../../../src/store/sqliteDriver.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT_NAMES } from '../../../src/agents/registry.js';
import { mergeCommand } from '../../../src/commands/merge.js';
import { statsCommand } from '../../../src/commands/stats.js';
import { MergedSession } from '../../../src/merge/mergedSession.js';
import { resolveDbPath } from '../../../src/store/dbPath.js';
import { logFile, LOGS } from '../../support/fixturePaths.js';
import { SidecarFixture } from '../../support/sidecarFixture.js';
import { runCommand } from '../../support/runCommand.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});
function sidecar(): SidecarFixture {
  const db = new SidecarFixture();
  cleanups.push(() => db.remove());
  return db;
}
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'rec-merge-out-'));
  cleanups.push(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

const CODEX_DENY = logFile('codex', 'shell-deny-esc.rollout.jsonl');
const CODEX_SESSION = '01a20297-0b6a-77a0-a475-841e109138f8';

describe('rec merge', () => {
  it('one file without a sidecar: pretty JSON valid against the published schema, unknown fate for Codex', async () => {
    const r = await runCommand(mergeCommand, [CODEX_DENY, '--db', '/nonexistent/rec.db']);
    expect(r.code).toBe(0);
    const m = MergedSession.parse(JSON.parse(r.stdout));
    expect(r.stdout.startsWith('{\n  "schema_version": 2')).toBe(true);
    expect(m.unknown).toHaveLength(1);
    expect(m.rejections).toHaveLength(0);
  });

  it('with a real sidecar file: the sidecar decides, matched by agent_session_id and call_id', async () => {
    const db = sidecar()
      .addRun({ id: 'run-c1', agent: 'codex', agent_session_id: CODEX_SESSION, agent_session_file: '/elsewhere/rollout.jsonl' })
      .addEvent({ id: 'e1', run_id: 'run-c1', type: 'prompt', ts: '2026-11-22T09:29:44.000Z', call_id: 'call_bd8088d34ab72013' })
      .addEvent({
        id: 'e2', run_id: 'run-c1', type: 'rejection', ts: '2026-11-22T09:29:45.390Z', agent_session_id: CODEX_SESSION,
        call_id: 'call_bd8088d34ab72013', kind: 'command', decided_by: 'user', trigger: 'esc', option_label: 'No, and tell Codex what to do differently', ran: 'no',
      });
    db.close();
    const r = await runCommand(mergeCommand, [CODEX_DENY], { REC_DB: db.path });
    expect(r.stderr).toBe('');
    const m = MergedSession.parse(JSON.parse(r.stdout));
    expect(m.session.run_ids).toEqual(['run-c1']);
    expect(m.rejections).toEqual([
      expect.objectContaining({ call_id: 'call_bd8088d34ab72013', trigger: 'esc', option_label: 'No, and tell Codex what to do differently', sources: ['native', 'sidecar'], sidecar_event_ids: [db.eventId('e2')] }),
    ]);
    expect(m.unknown).toEqual([]);
  });

  it('a relative XDG_DATA_HOME: merge reads the database `rec <agent>` wrote (~/.local/share/rec/rec.db), not one under the cwd', async () => {
    const db = sidecar()
      .addRun({ id: 'run-c1', agent: 'codex', agent_session_id: CODEX_SESSION })
      .addEvent({ id: 'e2', run_id: 'run-c1', type: 'rejection', ts: '2026-11-22T09:29:45.390Z', agent_session_id: CODEX_SESSION, call_id: 'call_bd8088d34ab72013', kind: 'command', decided_by: 'user', trigger: 'esc', ran: 'no' });
    db.close();
    const home = tempDir();
    const cwd = tempDir();
    const env = { HOME: home, XDG_DATA_HOME: 'rel' };
    // Where the run path (commands/run.ts) puts the database for this environment.
    const written = resolveDbPath({ env, cwd, home });
    expect(written).toBe(join(home, '.local', 'share', 'rec', 'rec.db'));
    mkdirSync(join(home, '.local', 'share', 'rec'), { recursive: true });
    copyFileSync(db.path, written);
    const r = await runCommand(mergeCommand, [CODEX_DENY], env, cwd);
    expect(r.stderr).toBe('');
    const m = MergedSession.parse(JSON.parse(r.stdout));
    expect(m.session.run_ids).toEqual(['run-c1']);
    expect(m.rejections).toEqual([expect.objectContaining({ call_id: 'call_bd8088d34ab72013', sources: ['native', 'sidecar'] })]);
  });

  it('a sidecar event row rec cannot read is reported once, with its id, and the merge goes on; other sessions\' rows are not read', async () => {
    const db = sidecar()
      .addRun({ id: 'run-c1', agent: 'codex', agent_session_id: CODEX_SESSION })
      .addRun({ id: 'run-x', agent: 'codex', agent_session_id: 'another-session' })
      .addEvent({
        id: 'good', run_id: 'run-c1', type: 'rejection', ts: '2026-11-22T09:29:45.390Z', agent_session_id: CODEX_SESSION,
        call_id: 'call_bd8088d34ab72013', kind: 'command', decided_by: 'user', trigger: 'esc', ran: 'no',
      })
      .addEvent({ id: 'broken', run_id: 'run-c1', type: 'approval', ts: '2026-11-22T09:29:46.000Z', agent_session_id: CODEX_SESSION, call_id: 'call_x' })
      .addEvent({ id: 'elsewhere', run_id: 'run-x', type: 'approval', ts: '2026-11-22T09:29:46.000Z', agent_session_id: 'another-session', call_id: 'call_y' })
      .addEvent({ id: 'run-scoped', run_id: 'run-c1', type: 'approval', ts: '2026-11-22T09:29:47.000Z', agent_session_id: null, call_id: 'call_z' });
    db.close();
    // What a damaged sidecar, or one from a newer rec, may hold: a type this rec does not know.
    const raw = new Database(db.path);
    const breakRow = raw.prepare("UPDATE events SET type = 'no-such-type' WHERE id = ?");
    for (const label of ['broken', 'elsewhere', 'run-scoped']) breakRow.run(db.eventId(label));
    raw.close();
    // The session twice: the second read of the same rows must not report them again.
    const copy = join(tempDir(), 'rollout-copy.jsonl');
    copyFileSync(CODEX_DENY, copy);
    const r = await runCommand(mergeCommand, [CODEX_DENY, copy, '--db', db.path]);
    // Decisions were lost: the result is incomplete, and the last line says so and how many.
    expect(r.code).toBe(3);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`error: decision_unreadable: recorded no-such-type event ${db.eventId('broken')} \\(call call_x\\) could not be read: type `)),
      expect.stringMatching(new RegExp(`error: decision_unreadable: recorded no-such-type event ${db.eventId('run-scoped')} \\(call call_z\\) could not be read: type `)),
      'rec merge: incomplete: 2 recorded decisions could not be read from the sidecar (each merged session lists all of its own in "diagnostics"; exit status 3)',
    ]);
    for (const line of r.stdout.trimEnd().split('\n')) {
      const m = MergedSession.parse(JSON.parse(line));
      expect(m.rejections.map((x) => x.sidecar_event_ids)).toEqual([[db.eventId('good')]]);
      // each copy of the session lists what it lost
      expect(m.diagnostics.filter((d) => d.code === 'decision_unreadable').map((d) => d.message)).toEqual([
        expect.stringContaining(db.eventId('broken')),
        expect.stringContaining(db.eventId('run-scoped')),
      ]);
    }
  });

  it('a Gemini session the agent deleted is rebuilt from agent_records (--run, and discovery by --agent)', async () => {
    const gone = '/home/someone/.gemini/tmp/work/chats/session-2026-11-22T09-35-141fecbb.jsonl';
    const lines = readFileSync(logFile('gemini', 'shell-esc.session-at-quit-before-deletion.jsonl'), 'utf8').trimEnd().split('\n');
    const db = sidecar()
      .addRun({ id: 'run-g1', agent: 'gemini', agent_session_id: '141fecbb-11b9-44d9-bcb3-f4cda504997c', agent_session_file: gone, started_at: '2026-11-22T09:35:00.000Z' })
      .addRecords('run-g1', 'gemini', gone, lines);
    db.close();
    for (const args of [['--run', 'run-g1'], ['--agent', 'gemini', '--since', '2026-11-01']]) {
      const r = await runCommand(mergeCommand, [...args, '--db', db.path]);
      expect(r.code, r.stderr).toBe(0);
      const m = MergedSession.parse(JSON.parse(r.stdout));
      expect(m.session).toMatchObject({ source: 'agent_records', files: [gone], run_ids: ['run-g1'], agent_session_id: '141fecbb-11b9-44d9-bcb3-f4cda504997c' });
      expect(m.rejections).toEqual([expect.objectContaining({ rejection_type: 'command', action: { type: 'command', command: 'touch shell_marker.txt' } })]);
      expect(m.messages[0]!.source).toEqual({ file: gone, line: 2 });
    }
  });

  it('many sessions: JSON Lines on stdout, each line a merged session', async () => {
    const r = await runCommand(mergeCommand, [join(LOGS, 'gemini'), '--db', '/nonexistent/rec.db']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(readdirSync(join(LOGS, 'gemini')).length);
    for (const l of lines) MergedSession.parse(JSON.parse(l));
  });

  it('a stdout stream that keeps the chunks it is given: each chunk still holds its own session', async () => {
    // Not rec's own stdout, so rec cannot know when the stream is done with the bytes: every
    // session must get a buffer of its own (a reused one would be overwritten by the next).
    const kept: Buffer[] = [];
    const stdout = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        kept.push(chunk);
        callback();
      },
    });
    const stderr = new PassThrough();
    const dirPath = join(LOGS, 'gemini');
    const code = await mergeCommand([dirPath, '--db', '/nonexistent/rec.db'], { stdout, stderr, env: { HOME: '/nonexistent-home' }, cwd: process.cwd() });
    expect(code).toBe(0);
    const files = readdirSync(dirPath).length;
    expect(kept).toHaveLength(files);
    const ids = kept.map((c) => MergedSession.parse(JSON.parse(c.toString('utf8'))).session.files[0]);
    expect(new Set(ids).size).toBe(files);
  });

  it('-o DIR writes one private file per session', async () => {
    const out = tempDir();
    const r = await runCommand(mergeCommand, [join(LOGS, 'claude'), '-o', out, '--db', '/nonexistent/rec.db']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const files = readdirSync(out).sort();
    expect(files).toContain('claude-0401ac34-d783-4253-9ab7-07c0110a72b3-aa78430550d003251.json');
    expect(files.length).toBe(14);
    expect(statSync(join(out, files[0]!)).mode & 0o777).toBe(0o600);
    for (const f of files) MergedSession.parse(JSON.parse(readFileSync(join(out, f), 'utf8')));
  });

  it('-o DIR: a file that cannot be written stops the run with one line naming the folder and the file; no partial or temporary file is left', async () => {
    const args = [join(LOGS, 'claude'), '--db', '/nonexistent/rec.db', '--jobs', '1'];
    // The session merged first (stdout keeps the run's order), and the file it goes to.
    const first = MergedSession.parse(JSON.parse((await runCommand(mergeCommand, [...args, '--jsonl'])).stdout.split('\n')[0]!)).session;
    const name = `${[first.agent, first.agent_session_id, first.subagent?.agent_id].filter((x) => x != null).join('-')}.json`;
    const out = tempDir();
    mkdirSync(join(out, name, 'taken'), { recursive: true }); // a folder where that file goes
    const r = await runCommand(mergeCommand, [...args, '-o', out]);
    expect(r.code).toBe(1);
    const failures = r.stderr.split('\n').filter((l) => l.includes('-o '));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(new RegExp(`^rec merge: -o ${out}: cannot write ${name}: EISDIR: [^,]*$`));
    // Nothing after it was written, and its temporary file is gone.
    expect(readdirSync(out)).toEqual([name]);
  });

  it('-o DIR that cannot be created: one line, exit 1', async () => {
    const parent = join(tempDir(), 'a-file');
    writeFileSync(parent, '');
    const r = await runCommand(mergeCommand, [CODEX_DENY, '-o', join(parent, 'out'), '--db', '/nonexistent/rec.db']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`rec merge: -o ${join(parent, 'out')}: cannot create the folder: ENOTDIR: not a directory\n`);
  });

  it('-o DIR: a session merged again gets a new private file, not the old file rewritten', async () => {
    const out = tempDir();
    const args = [CODEX_DENY, '-o', out, '--db', '/nonexistent/rec.db'];
    expect((await runCommand(mergeCommand, args)).code).toBe(0);
    const [file] = readdirSync(out);
    chmodSync(join(out, file!), 0o644);
    writeFileSync(join(out, file!), 'stale');
    expect((await runCommand(mergeCommand, args)).code).toBe(0);
    expect(readdirSync(out)).toEqual([file]);
    expect(statSync(join(out, file!)).mode & 0o777).toBe(0o600);
    expect(MergedSession.parse(JSON.parse(readFileSync(join(out, file!), 'utf8'))).session.agent_session_id).toBe(CODEX_SESSION);
  });

  it('a usage error exits 2 with one line', async () => {
    const r = await runCommand(mergeCommand, ['--agent', 'vim']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`rec merge: bad --agent 'vim': expected one of ${AGENT_NAMES.join(', ')}\n`);
  });
});

describe('rec stats', () => {
  it('--json over every agent\'s fixtures: figures per agent, tool, kind and trigger', async () => {
    const r = await runCommand(statsCommand, [LOGS, '--json', '--db', '/nonexistent/rec.db']);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.sessions_by_agent).toEqual({ claude: 14, gemini: 13, codex: 9, copilot: 8 });
    // Copilot's from its own file: two refusals with a reason, an Esc at a parallel prompt, a --deny-tool rule.
    expect(s.rejections.by_agent).toEqual([{ key: 'claude', count: 10 }, { key: 'gemini', count: 9 }, { key: 'copilot', count: 4 }]);
    expect(s.most_refused_commands.slice(0, 2)).toEqual([{ key: 'echo mock-bash-ran > <SCRATCH>/ws/bash-out.txt', count: 4 }, { key: 'touch shell_marker.txt', count: 3 }]);
    expect(s.unknown_fates).toBe(7);
  });

  it('prints a table by default', async () => {
    const r = await runCommand(statsCommand, [join(LOGS, 'claude'), '--db', '/nonexistent/rec.db']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^14 sessions \(claude 14\)/);
    expect(r.stdout).toContain('Siblings skipped per rejection: ');
  });
});
