// Two `rec export` processes to one destination, on one real sidecar: each event arrives once. The
// destination's lease lets one export send at a time; the other is told in one line and sends
// nothing. A lease whose holder has died is taken over at once.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSidecar } from '../../../src/store/sidecarDb.js';
import { ExportLease } from '../../../src/store/exportLease.js';
import { Database } from '../../../src/store/sqliteDriver.js';
import { REC_BIN } from '../../support/rec.js';
import { fromOtlpJson, OtlpReceiver, recordsOf } from '../../support/otlpReceiver.js';
import { SidecarFixture } from '../../support/sidecarFixture.js';

const RUNS = 4;
const PER_RUN = 700;
const fixture = new SidecarFixture();
for (let r = 0; r < RUNS; r++) {
  fixture.addRun({ id: `run-${r}`, agent: 'codex' });
  for (let i = 0; i < PER_RUN; i++) {
    const ts = new Date(Date.UTC(2026, 10, 22, r, 0, 0, i)).toISOString();
    fixture.addEvent({ id: `r${r}e${i}`, run_id: `run-${r}`, type: i % 2 ? 'approval' : 'rejection', ts, call_id: `call_${r}_${i}` });
  }
}
fixture.close();
afterAll(() => fixture.remove());

const BUSY = /^rec export: '?[^ ]+'?: another rec export \(pid \d+\) is sending there; nothing sent, run it again once that one is done\n$/;

interface Exit {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function recExport(...args: string[]): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [REC_BIN, 'export', '--db', fixture.path, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Both ran: each either sent (exit 0) or was turned away in one line (exit 1). */
function expectSentOrTurnedAway(exits: readonly Exit[]): void {
  for (const e of exits) {
    if (e.code === 0) expect(e.stderr).toBe('');
    else expect([e.code, e.stderr]).toEqual([1, expect.stringMatching(BUSY)]);
  }
  expect(exits.some((e) => e.code === 0)).toBe(true);
}

function expectEachOnce(ids: readonly unknown[]): void {
  expect(ids).toHaveLength(RUNS * PER_RUN);
  expect(new Set(ids).size).toBe(RUNS * PER_RUN);
}

describe('two rec export processes to one destination', () => {
  it('to one file and to one receiver, at once: every event exactly once', async () => {
    const file = join(fixture.dir, 'both.jsonl');
    const receiver = await OtlpReceiver.start();
    try {
      const exits = await Promise.all([recExport('--otlp-file', file), recExport('--otlp-file', file), recExport('--otlp', receiver.url), recExport('--otlp', receiver.url)]);
      expectSentOrTurnedAway(exits.slice(0, 2));
      expectSentOrTurnedAway(exits.slice(2));
      // One turned away leaves nothing behind: a second round sends what is left, if anything.
      await Promise.all([recExport('--otlp-file', file), recExport('--otlp', receiver.url)]);
      const lines = readFileSync(file, 'utf8').trim().split('\n');
      expectEachOnce(lines.flatMap((line) => recordsOf(fromOtlpJson(line))).map((r) => r.attributes['rec.event_id']));
      expectEachOnce(receiver.records.map((r) => r.attributes['rec.event_id']));
    } finally {
      await receiver.stop();
    }
  }, 120_000);

  it('a live holder turns an export away in one line; a dead one does not', async () => {
    const file = join(fixture.dir, 'held.jsonl');
    const opened = openSidecar(fixture.path);
    if (!opened.ok) throw new Error(opened.error);
    try {
      const held = ExportLease.take(opened.db, `file ${file}`);
      if (!held.ok) throw new Error('the lease should be free');
      const turned = await recExport('--otlp-file', file);
      expect([turned.code, turned.stderr]).toEqual([1, expect.stringMatching(BUSY)]);
      expect(turned.stderr).toContain(`(pid ${process.pid})`);
      expect(existsSync(file)).toBe(false);
    } finally {
      opened.db.close();
    }
    // The lease is still written down, but its holder is gone: a process that has exited.
    const gone = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, ['-e', '0']);
      child.on('exit', () => resolve(child.pid!));
    });
    const raw = new Database(fixture.path);
    raw.prepare('UPDATE export_leases SET holder_pid = ? WHERE destination = ?').run(gone, `file ${file}`);
    raw.close();
    const sent = await recExport('--otlp-file', file);
    expect([sent.code, sent.stderr]).toEqual([0, '']);
    expect(sent.stdout).toContain(`Sent ${RUNS * PER_RUN} events of ${RUNS} runs`);
  }, 60_000);
});
