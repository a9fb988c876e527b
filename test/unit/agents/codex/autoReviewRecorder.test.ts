// The live recorder on Codex 0.171.0 with auto-review on: the rollouts of real runs (a reviewer that
// denied once, three times in a row, and one the user cut with Esc) replayed through the real
// CodexRecorder. A reviewer's refusal is recorded as the reviewer's, and never as the user's, and an
// "aborted by user" the reviewer's circuit breaker wrote is no miss.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentReplay } from '../../../support/codex/sampleReplay.js';
import { screenFromText } from '../../../support/codex/samples.js';
import { REPO_ROOT } from '../../../support/rec.js';

const DIR = join(REPO_ROOT, 'test/fixtures/codex/0.171.0/auto-review');
const rollout = (name: string) => readFileSync(join(DIR, `${name}.session.jsonl`), 'utf8').split('\n').filter((l) => l.trim() !== '');
const replay = (name: string) => new AgentReplay(name, { rollout: rollout(name) });

/**
 * A replay whose rollout is named after its session, as Codex names it, with the reviewer's own
 * rollout beside it from the start: the reviewer's verdicts are then read before their calls.
 */
function replayWithReviewer(name: string): AgentReplay {
  const lines = rollout(name);
  const id = (JSON.parse(lines[0]!) as { payload: { id: string } }).payload.id;
  const r = new AgentReplay(id, { rollout: lines });
  const reviewer = readFileSync(join(DIR, `${name}.reviewer.jsonl`), 'utf8');
  writeFileSync(join(dirname(r.rolloutFile), 'rollout-2026-11-22T09-00-01-reviewer.jsonl'), reviewer);
  return r;
}
const DECISIONS = ['approval', 'rejection', 'skipped', 'interruption', 'miss'] as const;

describe('codex 0.171.0 auto-review, replayed through the recorder', () => {
  it("a reviewer's denial: a rejection decided by the reviewer, no trigger, its rationale, not run", async () => {
    const r = replay('deny-flag-hooks');
    await r.exit();
    expect(r.sink.rows(...DECISIONS)).toEqual([
      expect.objectContaining({
        type: 'rejection',
        kind: 'command',
        call_id: 'call_ac7111cd09a8417e',
        decided_by: 'reviewer',
        trigger: null,
        reason: 'MOCK-REVIEWER: writing approved.txt was not authorized.',
        reason_source: 'reviewer',
        ran: 'no',
        native: expect.objectContaining({ review: 'denied' }),
        evidence: ['session_file'],
      }),
    ]);
  });

  // Codex writes the third refusal as "aborted by user" before it cuts the turn, or as the
  // reviewer's refusal and then the cut: both seen on the real CLI, the same rows either way.
  it.each([
    ['"aborted by user"', 'deny-repeat', 'aborted by user'],
    ["the reviewer's refusal, then the cut", 'deny-repeat-rejected-third', 'This action was rejected due to unacceptable risk.'],
  ])("the circuit breaker, the third call written as %s, with no key pressed: the reviewer's third refusal and its cut, no miss", async (_how, name, output) => {
    const r = replay(name);
    await r.exit();
    const rows = r.sink.rows(...DECISIONS);
    expect(rows.map((e) => [e.type, e.kind, e.decided_by, e.trigger, e.ran ?? null])).toEqual([
      ['rejection', 'command', 'reviewer', null, 'no'],
      ['rejection', 'command', 'reviewer', null, 'no'],
      ['rejection', 'command', 'reviewer', null, 'no'],
      ['interruption', 'system', 'reviewer', null, null],
    ]);
    expect(rows[2]!.native).toMatchObject({ output: expect.stringContaining(output), turn_aborted: 'interrupted' });
    expect(new Set(rows.slice(0, 3).map((e) => e.call_id)).size).toBe(3);
    expect(rows[3]).toMatchObject({ call_id: null, related_call_id: rows[2]!.call_id, native: expect.objectContaining({ turn_aborted: 'interrupted' }) });
  });

  it("the user's Esc while the reviewer works is the user's cut, not the reviewer's refusal", async () => {
    const r = replay('esc-during-review');
    r.appendThrough('function_call');
    r.screen.show(screenFromText(readFileSync(join(DIR, 'esc-during-review.reviewing.screen.txt'), 'utf8')));
    r.press('esc');
    await r.exit();
    const rows = r.sink.rows(...DECISIONS);
    expect(rows.filter((e) => e.decided_by === 'reviewer')).toEqual([]);
    expect(rows.filter((e) => e.type === 'miss')).toEqual([]);
    expect(rows).toEqual([expect.objectContaining({ type: 'interruption', decided_by: 'user', trigger: 'esc' })]);
  });

  it("with the reviewer's rollout followed: an approval by the reviewer is recorded as the reviewer's, the call ran", async () => {
    const r = replayWithReviewer('allow-config-nohooks');
    await r.exit();
    expect(r.sink.rows(...DECISIONS)).toEqual([
      expect.objectContaining({ type: 'approval', kind: 'command', decided_by: 'reviewer', trigger: null, scope: 'once', ran: 'yes', call_id: r.callIds()[0], evidence: ['session_file'] }),
    ]);
  });

  it("with the reviewer's rollout followed: the circuit breaker's third refusal gets the rationale its output lacks", async () => {
    const r = replayWithReviewer('deny-repeat');
    await r.exit();
    const rows = r.sink.rows(...DECISIONS);
    expect(rows.map((e) => [e.type, e.decided_by, e.reason ?? null, e.reason_source])).toEqual([
      ['rejection', 'reviewer', 'MOCK-REVIEWER: writing approved.txt was not authorized.', 'reviewer'],
      ['rejection', 'reviewer', 'MOCK-REVIEWER: writing approved.txt was not authorized.', 'reviewer'],
      ['rejection', 'reviewer', 'MOCK-REVIEWER: writing approved.txt was not authorized.', 'reviewer'],
      ['interruption', 'reviewer', null, undefined],
    ]);
  });

  it("the user's Esc during a review: the reviewer's rollout has no verdict for it, and nothing is the reviewer's", async () => {
    const r = replayWithReviewer('esc-during-review');
    r.appendThrough('function_call');
    r.screen.show(screenFromText(readFileSync(join(DIR, 'esc-during-review.reviewing.screen.txt'), 'utf8')));
    r.press('esc');
    await r.exit();
    const rows = r.sink.rows(...DECISIONS);
    expect(rows).toEqual([expect.objectContaining({ type: 'interruption', decided_by: 'user', trigger: 'esc' })]);
  });
});
