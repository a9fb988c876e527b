// Where a resumed session's rollout is found: in the day folder of its creation, which is not the
// run's (issue 19: `codex resume` appends to the earlier file).
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EarlierRollouts, findRolloutById, findRolloutCandidates } from '../../../../src/agents/codex/sessionCandidates.js';

const ID = '01a20297-0b6a-77a0-a475-841e109138f8';
let home: string | undefined;

afterEach(() => {
  if (home) rmSync(home, { recursive: true, force: true });
  home = undefined;
});

function rolloutOn(day: string, cwd: string): string {
  home = home ?? mkdtempSync(join(tmpdir(), 'rec-codex-locator-'));
  const dir = join(home, 'sessions', ...day.split('-'));
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `rollout-${day}T09-29-43-${ID}.jsonl`);
  writeFileSync(file, JSON.stringify({ timestamp: `${day}T09:29:43.674Z`, type: 'session_meta', payload: { id: ID, cwd } }) + '\n');
  return file;
}

describe('codex rollouts of earlier days', () => {
  it('a rollout created on another day and written to since the run started is a candidate once the background walk saw it', async () => {
    const file = rolloutOn('2026-11-22', '/w');
    const startedAt = new Date(Date.now() - 1_000);
    const env = { CODEX_HOME: home! };
    expect(findRolloutCandidates(env, '/w', startedAt)).toEqual([]);
    const earlier = new EarlierRollouts(env, startedAt);
    await earlier.walk();
    expect(findRolloutCandidates(env, '/w', startedAt, earlier.files)).toEqual([file]);
    // Not written to since the start: not resumed by this run.
    const old = new Date(startedAt.getTime() - 3_600_000);
    utimesSync(file, old, old);
    await earlier.walk();
    expect(earlier.files).toEqual([]);
  });

  it("the auto-review's reviewer rollout (same cwd, written later) is never a candidate", () => {
    const day = new Date().toISOString().slice(0, 10);
    const file = rolloutOn(day, '/w');
    const reviewer = join(file, '..', `rollout-${day}T09-29-44-01a20297-0b6a-77a0-a475-000000000001.jsonl`);
    const meta = { id: '01a20297-0b6a-77a0-a475-000000000001', session_id: ID, parent_thread_id: ID, cwd: '/w', source: { subagent: { other: 'guardian' } }, thread_source: 'guardian_review' };
    writeFileSync(reviewer, JSON.stringify({ timestamp: `${day}T09:29:44.000Z`, type: 'session_meta', payload: meta }) + '\n');
    expect(findRolloutCandidates({ CODEX_HOME: home! }, '/w', new Date(Date.now() - 1_000))).toEqual([file]);
  });

  it('the id Codex prints is found in the day folder its UUIDv7 time names', () => {
    const file = rolloutOn('2026-11-22', '/w');
    expect(findRolloutById({ CODEX_HOME: home! }, ID)).toBe(file);
    expect(findRolloutById({ CODEX_HOME: home! }, '01a20297-0b6a-77a0-a475-000000000000')).toBeUndefined();
  });
});
