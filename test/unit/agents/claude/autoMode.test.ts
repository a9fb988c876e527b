// Claude Code 2.1.332's auto mode: transcripts and hook payloads recorded on the real CLI against the
// project's Anthropic mock playing the classifier (docs/claude-auto-mode.md). The classifier is a
// reviewer model: what it allows or refuses is recorded as the reviewer's, never as the user's, by
// merge (the file alone) and by the live recorder.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decidedBy } from '../../../../src/agents/claude/sessionRecords.js';
import { joinSession } from '../../../../src/merge/joinSession.js';
import { readSessionFile } from '../../../../src/merge/readSession.js';
import { AgentReplay } from '../../../support/claude/sampleReplay.js';
import { REPO_ROOT } from '../../../support/rec.js';

const DIR = join(REPO_ROOT, 'test/fixtures/claude/2.1.332/auto-mode');
const EXPLANATION = 'MOCK-CLASSIFIER: writing cls.txt with node -e was not asked for by the user.';
const DECISIONS = ['approval', 'rejection', 'skipped', 'interruption', 'miss'] as const;

const lines = (name: string, kind: 'transcript' | 'hooks') => readFileSync(join(DIR, `${name}.${kind}.jsonl`), 'utf8').split('\n').filter((l) => l.trim() !== '');
const merged = async (name: string) => {
  const r = await readSessionFile(join(DIR, `${name}.transcript.jsonl`));
  expect(r.session, JSON.stringify(r.diagnostics)).not.toBeNull();
  return joinSession(r.session!, { events: [], runIds: [], source: 'file', files: [name] });
};

/** Replays the transcript through the recorder; `hooks`: the recorded hook payloads of these events go first. */
async function replay(name: string, hooks: readonly string[] = []) {
  const r = new AgentReplay(name, { transcript: lines(name, 'transcript') });
  for (const text of lines(name, 'hooks')) {
    const h = JSON.parse(text) as { event: string; payload: Record<string, unknown> };
    if (hooks.includes(h.event)) r.hook(h.event, h.payload);
  }
  await r.exit();
  return r.sink.rows(...DECISIONS);
}

describe('who decided, from permissionDecision', () => {
  it("the classifier's verdicts are the reviewer's; a person's answer stays the user's; a mode's is the setting's", () => {
    expect(decidedBy({ source: 'config', reasonType: 'classifier' })).toBe('reviewer');
    expect(decidedBy({ source: 'user_temporary', reasonType: 'classifier' })).toBe('user');
    expect(decidedBy({ source: 'config', reasonType: 'mode' })).toBe('config');
    expect(decidedBy({ source: 'hook' })).toBe('hook');
  });
});

describe('rec merge on auto-mode transcripts, without a sidecar', () => {
  it("a call the classifier blocked: a rejection by the reviewer, its explanation the reason, not run", async () => {
    const m = await merged('deny1');
    expect(m.rejections).toEqual([
      expect.objectContaining({ rejection_type: 'command', decided_by: 'reviewer', trigger: null, reason: EXPLANATION, reason_source: 'reviewer', ran: 'no', native: expect.objectContaining({ review: 'denied', toolDenialKind: 'automode-blocked' }) }),
    ]);
    expect(m.calls.map((c) => c.fate)).toEqual(['rejected']);
  });

  it('a call the classifier gave no usable verdict on: refused, by the reviewer, never the user', async () => {
    const m = await merged('fail-unavailable');
    expect(m.rejections).toEqual([expect.objectContaining({ decided_by: 'reviewer', ran: 'no', native: expect.objectContaining({ review: 'failed' }) })]);
    expect(m.rejections[0]!.reason).toMatch(/^The server-side auto mode classifier gave no verdict/);
  });

  it('a call the classifier allowed: an approval by the reviewer, not by a setting', async () => {
    const m = await merged('allow1');
    expect(m.approvals).toEqual([expect.objectContaining({ decided_by: 'reviewer', trigger: null, sources: ['native'] })]);
    expect(m.calls.map((c) => c.fate)).toEqual(['ran']);
  });

  it("the breaker: two refusals are the reviewer's; the third, put to the user at a prompt, is the user's answer", async () => {
    const m = await merged('deny3-breaker-yes');
    expect(m.rejections.map((r) => r.decided_by)).toEqual(['reviewer', 'reviewer']);
    expect(m.approvals.map((a) => a.decided_by)).toEqual(['user']);
  });
});

describe('the live recorder on auto-mode transcripts', () => {
  it("the classifier's refusal from the transcript: the reviewer's, with its explanation", async () => {
    expect(await replay('deny1')).toEqual([
      expect.objectContaining({ type: 'rejection', kind: 'command', decided_by: 'reviewer', trigger: null, reason: EXPLANATION, reason_source: 'reviewer', ran: 'no', evidence: ['session_file'] }),
    ]);
  });

  it('the PermissionDenied hook first, then the transcript: one refusal, seen by both', async () => {
    const rows = await replay('deny1', ['PreToolUse', 'PermissionDenied']);
    expect(rows).toEqual([expect.objectContaining({ type: 'rejection', decided_by: 'reviewer', trigger: null, reason: EXPLANATION, reason_source: 'reviewer' })]);
    expect(rows[0]!.evidence).toEqual(expect.arrayContaining(['hook', 'session_file']));
  });

  it("the classifier's approval: recorded as the reviewer's, and no miss", async () => {
    expect(await replay('allow1')).toEqual([expect.objectContaining({ type: 'approval', decided_by: 'reviewer', trigger: null, ran: 'yes' })]);
  });

  it('no usable verdict: a refusal no person made', async () => {
    expect(await replay('fail-unavailable', ['PreToolUse', 'PermissionDenied'])).toEqual([
      expect.objectContaining({ type: 'rejection', decided_by: 'reviewer', trigger: null, ran: 'no' }),
    ]);
  });
});
