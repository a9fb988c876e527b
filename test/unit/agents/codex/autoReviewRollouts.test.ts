// Codex 0.171.0 with auto-review on (`--approve-for-me`): rollouts recorded on the real CLI against
// a mock provider whose reviewer allowed, denied, failed, hung, or was pre-empted by a hook
// (docs/codex-auto-review.md). A refusal no person made is never read as the user's.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ReviewerRolloutReader, reviewerRollouts } from '../../../../src/agents/codex/reviewerRollout.js';
import { harnessRefusalOf, unescapeDebug } from '../../../../src/agents/codex/harnessRefusal.js';
import { codexStringsFor } from '../../../../src/agents/codex/strings/index.js';
import { joinSession } from '../../../../src/merge/joinSession.js';
import { readSessionFile } from '../../../../src/merge/readSession.js';
import { REPO_ROOT } from '../../../support/rec.js';

const DIR = join(REPO_ROOT, 'test/fixtures/codex/0.171.0/auto-review');
const STRINGS = codexStringsFor('0.171.0');

async function read(name: string) {
  const r = await readSessionFile(join(DIR, name));
  expect(r.session, JSON.stringify(r.diagnostics)).not.toBeNull();
  return r.session!;
}

const merged = async (name: string) => joinSession(await read(name), { events: [], runIds: [], source: 'file', files: [name] });

describe("the output of a call Codex's harness refused", () => {
  it('a reviewer denial: its rationale, unescaped twice', () => {
    const output =
      'exec_command failed: CreateProcess { message: "Rejected(\\"This action was rejected due to unacceptable risk.\\\\nReason: Writes \\\\\\"x\\\\\\" outside.\\\\nThe agent must not attempt to achieve the same outcome.\\")" }';
    expect(harnessRefusalOf(output, STRINGS)).toMatchObject({ review: 'denied', rationale: 'Writes "x" outside.' });
  });

  it("a failed or timed-out review is the reviewer's; another message is a hook's; other outputs are none", () => {
    const wrap = (m: string) => `exec_command failed: CreateProcess { message: "Rejected(\\"${m}\\")" }`;
    expect(harnessRefusalOf(wrap('Automatic approval review failed: guardian assessment was not valid JSON\\\\nThe action was not executed'), STRINGS)).toMatchObject({
      review: 'failed',
      rationale: 'Automatic approval review failed: guardian assessment was not valid JSON',
    });
    expect(harnessRefusalOf(wrap('The automatic permission approval review did not finish before its deadline. Do not assume'), STRINGS)?.review).toBe('timed_out');
    expect(harnessRefusalOf(wrap('scratch hook denied'), STRINGS)).toEqual({ message: 'scratch hook denied', rationale: 'scratch hook denied' });
    expect(harnessRefusalOf('Process exited with code 1\nOutput:\nRejected("x")', STRINGS)).toBeUndefined();
    expect(harnessRefusalOf(wrap('x'), codexStringsFor('0.169.0'))).toBeUndefined();
  });

  it('Rust Debug escapes come undone one level at a time; unknown ones stay', () => {
    expect(unescapeDebug('a\\nb\\"c\\\\d\\u{1b}e\\q')).toBe('a\nb"c\\d\x1be\\q');
  });
});

describe('rec merge on auto-review rollouts, without a sidecar', () => {
  it("a reviewer's denial is a rejection decided by the reviewer, with its rationale, the call not run", async () => {
    const m = await merged('deny-flag-hooks.session.jsonl');
    expect(m.rejections).toEqual([
      expect.objectContaining({
        call_id: 'call_ac7111cd09a8417e',
        rejection_type: 'command',
        decided_by: 'reviewer',
        trigger: null,
        reason: 'MOCK-REVIEWER: writing approved.txt was not authorized.',
        reason_source: 'reviewer',
        ran: 'no',
        native: expect.objectContaining({ review: 'denied', approvals_reviewer: 'auto_review' }),
      }),
    ]);
    expect(m.calls).toEqual([expect.objectContaining({ call_id: 'call_ac7111cd09a8417e', fate: 'rejected' })]);
    expect(m.unknown).toEqual([]);
  });

  it('a review that failed or timed out is the reviewer\'s refusal too', async () => {
    const failed = await merged('reviewer-garbage.session.jsonl');
    expect(failed.rejections.map((r) => [r.decided_by, (r.native as { review?: string }).review])).toEqual([['reviewer', 'failed']]);
    const hung = await merged('reviewer-hang.session.jsonl');
    expect(hung.rejections.map((r) => [r.decided_by, (r.native as { review?: string }).review])).toEqual([['reviewer', 'timed_out']]);
  });

  it("a hook's denial is a rejection whose decider the file does not name", async () => {
    const m = await merged('hookdeny-reviewerallow.session.jsonl');
    expect(m.rejections).toEqual([expect.objectContaining({ decided_by: null, reason: null, reason_source: 'none', ran: 'no', undetermined: ['decided_by'] })]);
  });

  it('an approval by the reviewer reads as a call that ran', async () => {
    const m = await merged('allow-config-nohooks.session.jsonl');
    expect(m.rejections).toEqual([]);
    expect(m.calls.map((c) => c.fate)).toEqual(['ran']);
  });

  it('the circuit breaker: two denials are the reviewer\'s; the third, written "aborted by user", stays unknown, never the user\'s', async () => {
    const m = await merged('deny-repeat.session.jsonl');
    expect(m.rejections.map((r) => r.decided_by)).toEqual(['reviewer', 'reviewer']);
    expect(m.unknown).toEqual([expect.objectContaining({ undetermined: expect.arrayContaining(['decided_by']), native: expect.objectContaining({ approvals_reviewer: 'auto_review' }) })]);
    expect(m.interruptions).toEqual([]);
  });

  it("the reviewer's own rollout is a subagent thread of the session it reviewed", async () => {
    const session = await read('deny-repeat.session.jsonl');
    const reviewer = await read('deny-repeat.reviewer.jsonl');
    expect(reviewer.session_id).toBe(session.session_id);
    expect(reviewer.subagent).toEqual({ agent_id: '01a2232e-ef85-7982-9732-f117ffad30a2', parent_call_id: null });
    expect(session.subagent).toBeNull();
  });
});

describe("the reviewer's rollout, read live", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("only the reviewer of this session is followed: not another session's, not the session itself", () => {
    dir = mkdtempSync(join(tmpdir(), 'rec-codex-reviewer-'));
    const session = join(dir, 'rollout-2026-11-28T17-23-25-01a2232e-e59e-7aa2-83b1-d8d86968986d.jsonl');
    writeFileSync(session, readFileSync(join(DIR, 'deny-repeat.session.jsonl')));
    const ours = join(dir, 'rollout-2026-11-28T17-23-28-01a2232e-ef85-7982-9732-f117ffad30a2.jsonl');
    writeFileSync(ours, readFileSync(join(DIR, 'deny-repeat.reviewer.jsonl')));
    const theirs = join(dir, 'rollout-2026-11-28T17-19-27-01a2232b-0000-7000-8000-000000000000.jsonl');
    writeFileSync(theirs, readFileSync(join(DIR, 'deny-flag-hooks.reviewer.jsonl')));
    const seen = new Map<string, boolean>();
    expect(reviewerRollouts(session, 0, seen)).toEqual([ours]);
    expect(reviewerRollouts(session, 0, seen)).toEqual([ours]);
    expect(reviewerRollouts(session, Date.now() + 60_000, new Map())).toEqual([]);
  });

  it('each finished review gives the command it judged and the verdict; a review cut short gives none', () => {
    const verdicts = (name: string) => {
      const reader = new ReviewerRolloutReader(() => STRINGS);
      return readFileSync(join(DIR, name), 'utf8').split('\n').filter(Boolean).map((l) => reader.line(l)).filter((v) => v !== undefined);
    };
    expect(verdicts('deny-repeat.reviewer.jsonl')).toEqual(
      ['echo hello > approved.txt && cat approved.txt', 'echo hello1 > approved1.txt', 'echo hello2 > approved2.txt'].map((command) => ({
        command,
        outcome: 'deny',
        rationale: 'MOCK-REVIEWER: writing approved.txt was not authorized.',
      })),
    );
    expect(verdicts('allow-config-nohooks.reviewer.jsonl')).toEqual([expect.objectContaining({ command: 'echo hello > approved.txt && cat approved.txt', outcome: 'allow' })]);
    expect(verdicts('esc-during-review.reviewer.jsonl')).toEqual([]);
    expect(verdicts('reviewer-garbage.reviewer.jsonl')).toEqual([]);
  });
});
