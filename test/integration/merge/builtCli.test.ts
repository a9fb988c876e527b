// The built CLI (npx tsc -p tsconfig.json first): several threads give the same output as one,
// and the published JSON Schema matches the zod schema.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Database } from '../../../src/store/sqliteDriver.js';
import { describe, expect, it } from 'vitest';
import { SidecarFixture } from '../../support/sidecarFixture.js';
import { LOGS, logFile } from '../../support/fixturePaths.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Generous: the machine is shared with other test runs; nothing waits on time here. */
const CLI_TIMEOUT_MS = 120_000;

function rec(args: string[]): string {
  return execFileSync(process.execPath, [`${ROOT}bin/rec.js`, ...args], {
    cwd: ROOT,
    env: { ...process.env, HOME: '/nonexistent-home', REC_DB: '/nonexistent/rec.db' },
    maxBuffer: 64 << 20,
    timeout: CLI_TIMEOUT_MS,
    stdio: ['ignore', 'pipe', 'ignore'],
  }).toString();
}

describe('rec merge / rec stats, built', () => {
  it('two and three threads (the main one and workers) give the same sessions, in the same order, as one', () => {
    const one = rec(['merge', LOGS, '--jobs', '1', '--jsonl']);
    expect(one.split('\n').length).toBeGreaterThan(30);
    expect(rec(['merge', LOGS, '--jobs', '2', '--jsonl'])).toBe(one);
    expect(rec(['merge', LOGS, '--jobs', '3', '--jsonl'])).toBe(one);
    const stats = rec(['stats', LOGS, '--json', '--jobs', '1']);
    expect(rec(['stats', LOGS, '--json', '--jobs', '2'])).toBe(stats);
    expect(rec(['stats', LOGS, '--json', '--jobs', '3'])).toBe(stats);
  }, CLI_TIMEOUT_MS * 6);

  it('a bad sidecar row that several threads read is reported once', () => {
    const session = '01a20297-0b6a-77a0-a475-841e109138f8'; // shell-deny-esc's
    const db = new SidecarFixture()
      .addRun({ id: 'run-1', agent: 'codex', agent_session_id: session })
      .addEvent({ id: 'bad', run_id: 'run-1', type: 'approval', ts: '2026-11-22T09:29:46.000Z', agent_session_id: session, call_id: 'call_x' });
    db.close();
    const raw = new Database(db.path);
    raw.prepare("UPDATE events SET type = 'no-such-type' WHERE id = ?").run(db.eventId('bad'));
    raw.close();
    const dir = mkdtempSync(join(tmpdir(), 'rec-built-sidecar-'));
    try {
      const files: string[] = [];
      for (let i = 0; i < 6; i++) {
        files.push(join(dir, `rollout-${i}.jsonl`));
        copyFileSync(logFile('codex', 'shell-deny-esc.rollout.jsonl'), files.at(-1)!);
      }
      const r = spawnSync(process.execPath, [`${ROOT}bin/rec.js`, 'merge', ...files, '--jobs', '3', '--db', db.path, '--no-progress'], {
        cwd: ROOT,
        env: { ...process.env, HOME: '/nonexistent-home' },
        timeout: CLI_TIMEOUT_MS,
        maxBuffer: 64 << 20,
      });
      expect(r.status).toBe(3);
      expect(r.stdout.toString().trimEnd().split('\n')).toHaveLength(6);
      const stderr = r.stderr.toString().trimEnd().split('\n');
      expect(stderr).toEqual([
        expect.stringContaining(`error: decision_unreadable: recorded no-such-type event ${db.eventId('bad')} (call call_x) could not be read`),
        expect.stringContaining('rec merge: incomplete: 1 recorded decision could not be read'),
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      db.remove();
    }
  }, CLI_TIMEOUT_MS);

  it('a bad sidecar run row that selection and the threads all read is reported once (discovery)', () => {
    const db = new SidecarFixture().addRun({ id: 'run-1', agent: 'codex', agent_session_id: '01a20297-0b6a-77a0-a475-841e109138f8' });
    db.close();
    const raw = new Database(db.path);
    raw.prepare("UPDATE runs SET agent_version = X'00' WHERE id = 'run-1'").run(); // a blob: no version rec knows
    raw.close();
    const home = mkdtempSync(join(tmpdir(), 'rec-built-home-'));
    try {
      const day = join(home, '.codex', 'sessions', '2026', '11', '22');
      mkdirSync(day, { recursive: true });
      for (let i = 0; i < 6; i++) copyFileSync(logFile('codex', 'shell-deny-esc.rollout.jsonl'), join(day, `rollout-2026-11-22T09-00-0${i}-x.jsonl`));
      const r = spawnSync(process.execPath, [`${ROOT}bin/rec.js`, 'merge', '--agent', 'codex', '--jobs', '3', '--db', db.path, '--no-progress'], {
        cwd: ROOT,
        env: { ...process.env, HOME: home },
        timeout: CLI_TIMEOUT_MS,
        maxBuffer: 64 << 20,
      });
      expect(r.status).toBe(0);
      expect(r.stdout.toString().trimEnd().split('\n')).toHaveLength(6);
      expect(r.stderr.toString().trimEnd().split('\n')).toEqual([expect.stringContaining('invalid_record: sidecar runs row run-1 skipped: agent_version')]);
    } finally {
      rmSync(home, { recursive: true, force: true });
      db.remove();
    }
  }, CLI_TIMEOUT_MS);

  it('docs/merged-session.schema.json is generated from the current zod schema', () => {
    expect(() => execFileSync(process.execPath, [`${ROOT}scripts/gen-schema.mjs`, '--check'], { cwd: ROOT, stdio: 'pipe' })).not.toThrow();
  });
});
