// A sidecar as users have it on disk today: test/fixtures/sidecar/legacy-114556f/rec.sql is the dump
// of a database written by the store of commit 114556f (booleans stored as 1/0) from three replayed
// real recordings (see the README there), loaded here into a real SQLite file. Every decision it holds must come out of `rec events`, `rec merge` and `rec stats`
// with its trigger, and the never-prompted siblings as skipped, not as rejections.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventsCommand } from '../../../src/commands/events.js';
import { runsCommand } from '../../../src/commands/runs.js';
import { mergeCommand } from '../../../src/commands/merge.js';
import { statsCommand } from '../../../src/commands/stats.js';
import { MergedSession } from '../../../src/merge/mergedSession.js';
import { Database } from '../../../src/store/sqliteDriver.js';
import { runCommand } from '../../support/runCommand.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures');
const LEGACY_DUMP = join(FIXTURES, 'sidecar/legacy-114556f/rec.sql');
const CODEX_PARALLEL = join(FIXTURES, 'codex/0.169.0/recorded/parallel-approve-reject.rollout.jsonl');
const CLAUDE_PARALLEL = join(FIXTURES, 'claude/2.1.330/recorded/parallel-second-rejected.transcript.jsonl');

const dir = mkdtempSync(join(tmpdir(), 'rec-legacy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** The file, as it stood on disk: its schema, its user_version and every row, from the dump. */
const db = join(dir, 'rec.db');
const loaded = new Database(db);
loaded.exec(readFileSync(LEGACY_DUMP, 'utf8'));
loaded.close();

async function merge(file: string): Promise<MergedSession> {
  const r = await runCommand(mergeCommand, [file, '--db', db]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return MergedSession.parse(JSON.parse(r.stdout));
}

describe('a sidecar written by the store of 114556f (booleans as 1/0)', () => {
  it('rec events reads agent_version_verified as true', async () => {
    const r = await runCommand(eventsCommand, ['--db', db, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { agent_version_verified: unknown });
    expect(events).toHaveLength(12);
    expect(new Set(events.map((e) => e.agent_version_verified))).toEqual(new Set([true]));
  });

  it('rec merge keeps Codex parallel batch decisions: the approval, the Esc rejection and the skipped sibling', async () => {
    const m = await merge(CODEX_PARALLEL);
    expect(m.rejections.map((e) => [e.call_id, e.trigger, e.sources])).toEqual([['call_bb8a794d8b173300', 'esc', ['native', 'sidecar']]]);
    expect(m.skipped.map((e) => [e.call_id, e.related_call_id, e.sources.includes('sidecar')])).toEqual([['call_f191d2e7529cb1fd', 'call_bb8a794d8b173300', true]]);
    expect(m.approvals.map((e) => [e.call_id, e.trigger])).toEqual([['call_f5afa5bea5c2a1ff', 'letter']]);
    expect(m.unknown).toEqual([]);
  });

  it('rec merge keeps Claude parallel batch decisions: the sibling is skipped, not a second rejection', async () => {
    const m = await merge(CLAUDE_PARALLEL);
    expect(m.rejections.map((e) => [e.call_id, e.trigger, e.sidecar_event_ids.length])).toEqual([['toolu_mock_262ed7ce25537295', 'esc', 1]]);
    expect(m.skipped.map((e) => [e.call_id, e.related_call_id])).toEqual([['toolu_mock_e45cb180781ee989', 'toolu_mock_262ed7ce25537295']]);
    expect(m.approvals.map((e) => [e.call_id, e.trigger])).toEqual([['toolu_mock_903649b003a5969e', 'digit']]);
  });

  it('rec stats counts each batch as one rejection by Esc and one skipped', async () => {
    const r = await runCommand(statsCommand, [CODEX_PARALLEL, CLAUDE_PARALLEL, '--db', db, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const stats = JSON.parse(r.stdout) as { rejections: { total: number; by_trigger: unknown[] }; skipped: { total: number }; approvals: number };
    expect(stats.rejections.total).toBe(2);
    expect(stats.rejections.by_trigger).toEqual([{ key: 'esc', count: 2 }]);
    expect(stats.skipped.total).toBe(2);
    expect(stats.approvals).toBe(2);
  });
});

describe('rows this rec cannot decode (a damaged file, or a newer rec’s vocabulary)', () => {
  it('rec events and rec runs list the rest, name each row left out on stderr, and exit 3', async () => {
    const damaged = join(dir, 'damaged.db');
    const file = new Database(damaged);
    file.exec(readFileSync(LEGACY_DUMP, 'utf8'));
    file.prepare("UPDATE events SET trigger = 'from-the-future' WHERE type = 'rejection' AND run_id = 'legacy-codex-esc'").run();
    // Not a name at all (an agent this rec does not know is still a readable row).
    file.prepare("UPDATE runs SET agent = 'Future Agent!' WHERE id = 'legacy-claude-parallel'").run();
    file.close();

    const events = await runCommand(eventsCommand, ['--db', damaged, '--json']);
    expect(events.code).toBe(3);
    expect(events.stdout.trim().split('\n')).toHaveLength(11);
    expect(events.stderr).toMatch(/rec events: .*damaged\.db: events row \S+ could not be read: trigger /);
    expect(events.stderr.trimEnd().split('\n').at(-1)).toBe('rec events: incomplete: 1 row left out (exit status 3)');

    const runs = await runCommand(runsCommand, ['--db', damaged, '--json']);
    expect(runs.code).toBe(3);
    expect(runs.stdout.trim().split('\n')).toHaveLength(2);
    expect(runs.stderr).toContain('runs row legacy-claude-parallel could not be read: agent ');
  });
});
