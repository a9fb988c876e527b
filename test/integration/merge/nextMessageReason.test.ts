// One reason rule, live and in merge (core/nextMessageReason.ts): each recorded Codex session
// (the pinned version's) with a rejection is fed to both — replayed through the live recorder, and its rollout
// merged with the same sidecar events stripped of their reasons — and both must name the same
// reason (or none) for every rejection.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecEvent } from '../../../src/core/events.js';
import { joinSession } from '../../../src/merge/joinSession.js';
import { readSessionFile } from '../../../src/merge/readSession.js';
import { RECORDED_DIR, replayRecorded } from '../../support/codex/recordedRun.js';

/** The recordings that hold a rejection (the others have none to give a reason to). */
const WITH_REJECTIONS = ['shell-reject-then-reason', 'shell-reject-esc', 'shell-reject-n', 'shell-reject-option3', 'patch-reject-esc', 'parallel-approve-reject'];
const REPLAY_TIMEOUT_MS = 60_000;

describe('the next-message reason: the live recorder and merge agree on the same Codex session', () => {
  for (const name of WITH_REJECTIONS) {
    it(name, async () => {
      const live = await replayRecorded(name);
      const rejections = live.events.filter((e) => e.type === 'rejection');
      expect(rejections.length).toBeGreaterThan(0);

      const file = join(RECORDED_DIR, `${name}.rollout.jsonl`);
      const read = await readSessionFile(file, 'codex');
      const stripped: RecEvent[] = live.events.map((e) => (e.type === 'rejection' ? { ...e, reason: null, reason_source: null } : e));
      const merged = joinSession(read.session!, { events: stripped, runIds: [rejections[0]!.run_id], source: 'file', files: [file] });

      const liveReasons = rejections.map((e) => ({ call_id: e.call_id, reason: e.reason ?? null, reason_source: e.reason_source }));
      const mergedReasons = merged.rejections.map((r) => ({ call_id: r.call_id, reason: r.reason, reason_source: r.reason_source }));
      expect(mergedReasons).toEqual(liveReasons);
    }, REPLAY_TIMEOUT_MS);
  }

  it('shell-reject-then-reason: the reason both name is the message the user typed next', async () => {
    const live = await replayRecorded('shell-reject-then-reason');
    expect(live.events.find((e) => e.type === 'rejection')).toMatchObject({ reason: 'do not write files in the repo', reason_source: 'next_message' });
  }, REPLAY_TIMEOUT_MS);
});
