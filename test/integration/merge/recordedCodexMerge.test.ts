// Merged sessions of the real Codex CLI at its pinned version, from the rollouts recorded by
// scripts/record-codex-fixtures.mjs (test/fixtures/codex/<version>/recorded), each merged twice:
// with a sidecar written through the real store holding the rows the e2e suite asserts `rec codex`
// writes for that scenario (test/e2e/codex/recCodex.test.ts), and without any sidecar. Every entry
// is compared whole, field by field. Without the sidecar, Codex's "aborted by user" cannot say
// rejected from interrupted from skipped; with it, the sidecar decides.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeCommand } from '../../../src/commands/merge.js';
import { MergedSession, type Message } from '../../../src/merge/mergedSession.js';
import {
  approvalRow,
  OPTION,
  promptRow,
  rejectionRow,
  skippedRow,
  toolInterruptionRow,
  type RowView,
} from '../../support/codex/expectedRows.js';
import type { RolloutCall } from '../../support/codex/rolloutCalls.js';
import { loadRecorded, shift, writeRecordedSidecar, type RecordedRollout, type RecordedSidecar, type TimedRow } from '../../support/codex/recordedSidecar.js';
import { runCommand } from '../../support/runCommand.js';
import { pinnedVersion } from '../../support/agentVersions.js';

const AGENT_VERSION = pinnedVersion('codex');

const dir = mkdtempSync(join(tmpdir(), 'rec-merge-recorded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Keys come about 300 ms after a prompt opens (the recording's key scripts). */
const KEY_AFTER_PROMPT_MS = 300;
/** The prompt is drawn shortly after Codex writes the call. */
const PROMPT_AFTER_CALL_MS = 50;
/** A deciding key comes just before Codex writes the aborted output it causes. */
const KEY_BEFORE_ABORT_MS = 10;

const NATIVE_UNKNOWN = ['type', 'kind', 'trigger', 'decided_by', 'ran'];
const POSSIBLE = ['rejection', 'interruption', 'skipped'];
const YES = { trigger: 'letter', option_label: OPTION.yes, scope: 'once' } as const;

let dbCount = 0;

interface Merged {
  native: MergedSession;
  joined: MergedSession;
  rec: RecordedRollout;
  db: RecordedSidecar;
  rows: readonly TimedRow[];
}

/** Merges one file with the sidecar at `db` ($REC_DB: a missing one is normal, no warning). */
async function merge(file: string, db: string): Promise<MergedSession> {
  const r = await runCommand(mergeCommand, [file], { REC_DB: db });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toBe('');
  return MergedSession.parse(JSON.parse(r.stdout));
}

/** Merges a recording without a sidecar and with one holding `rows(rec)`. */
async function mergeRecorded(name: string, rows: (rec: RecordedRollout) => TimedRow[]): Promise<Merged> {
  const rec = loadRecorded(name);
  const timed = rows(rec);
  const db = writeRecordedSidecar(join(dir, `${name}-${++dbCount}.db`), rec, timed);
  const native = await merge(rec.file, join(dir, 'none.db'));
  const joined = await merge(rec.file, db.path);
  // The sidecar changes the decisions, never the conversation.
  expect(joined.messages).toEqual(native.messages);
  expect(joined.session).toEqual({ ...native.session, run_ids: [db.runId] });
  expect(native.session).toMatchObject({ agent: 'codex', agent_version: AGENT_VERSION, agent_session_id: rec.sessionId, source: 'file', run_ids: [] });
  expect(native.diagnostics).toEqual([]);
  expect(joined.diagnostics).toEqual([]);
  return { native, joined, rec, db, rows: timed };
}

function only(rec: RecordedRollout): RolloutCall {
  expect(rec.calls).toHaveLength(1);
  return rec.calls[0]!;
}

/** The index of the message holding a call, and of the message holding its result. */
function callMessage(m: MergedSession, callId: string): number {
  const i = m.messages.findIndex((x: Message) => x.tool_calls.some((c) => c.call_id === callId));
  expect(i).toBeGreaterThanOrEqual(0);
  return i;
}
function resultMessage(m: MergedSession, callId: string): number {
  const i = m.messages.findIndex((x: Message) => x.tool_results.some((r) => r.call_id === callId));
  expect(i).toBeGreaterThanOrEqual(0);
  return i;
}

/** The rows of one prompt answered by a key, timed after the call as the recording's keys were. */
function decided(rec: RecordedRollout, call: RolloutCall, prompt: RowView, decision: RowView): TimedRow[] {
  const at = rec.callTs(call.callId, 'call');
  return [
    { row: prompt, ts: shift(at, PROMPT_AFTER_CALL_MS) },
    { row: decision, ts: shift(at, PROMPT_AFTER_CALL_MS + KEY_AFTER_PROMPT_MS) },
  ];
}

/** The parts every entry about one call shares. */
function callFields(m: MergedSession, call: RolloutCall) {
  const cmd = String(call.args['cmd']);
  return {
    message_index: callMessage(m, call.callId),
    call_id: call.callId,
    tool_name: call.name,
    tool_input: call.args,
    action: cmd.startsWith('apply_patch')
      ? { type: 'edit', edits: [{ path: 'patched.txt', operation: 'add', old_text: null, new_text: 'line one\nline two' }] }
      : { type: 'command', command: cmd },
  };
}

/** What the file alone says about a call Codex wrote "aborted by user" for. */
function nativeAbort(call: RolloutCall) {
  return { output: call.output, turn_aborted: 'interrupted' };
}

function unknownEntry(x: Merged, call: RolloutCall) {
  return {
    ...callFields(x.native, call),
    timestamp: x.rec.callTs(call.callId, 'output'),
    sources: ['native'],
    native: nativeAbort(call),
    sidecar_event_ids: [],
    disagreements: [],
    undetermined: NATIVE_UNKNOWN,
    possible: POSSIBLE,
  };
}

/** The sidecar's row of type `type` for this call, and its id. */
function sidecarRow(x: Merged, type: string, callId: string | null): { id: string; ts: string } {
  const i = x.rows.findIndex((r) => r.row.type === type && (r.row as { call_id: string | null }).call_id === callId);
  expect(i).toBeGreaterThanOrEqual(0);
  return { id: x.db.eventIds[i]!, ts: x.rows[i]!.ts };
}

function approvalEntry(x: Merged, call: RolloutCall, o: { option_label: string; scope: string; native: unknown }) {
  const row = sidecarRow(x, 'approval', call.callId);
  return {
    ...callFields(x.joined, call),
    timestamp: row.ts,
    sources: ['sidecar'],
    native: o.native,
    sidecar_event_ids: [row.id],
    disagreements: [],
    undetermined: [],
    decided_by: 'user',
    trigger: 'letter',
    option_label: o.option_label,
    scope: o.scope,
    // These rows name no prompt_event_id, so no entry carries its prompt; the prompt the recorder
    // links is checked by the goldens and by the report's replay of recorded sessions.
    prompt: null,
  };
}

function rejectionEntry(
  x: Merged,
  call: RolloutCall,
  o: { kind: string; trigger: string; option_label: string | null; reason?: string },
) {
  const row = sidecarRow(x, 'rejection', call.callId);
  return {
    ...callFields(x.joined, call),
    timestamp: row.ts,
    sources: ['native', 'sidecar'],
    native: nativeAbort(call),
    sidecar_event_ids: [row.id],
    disagreements: [],
    undetermined: [],
    rejection_type: o.kind,
    decided_by: 'user',
    trigger: o.trigger,
    option_label: o.option_label,
    reason: o.reason ?? null,
    reason_source: o.reason === undefined ? 'none' : 'next_message',
    ran: 'no',
    prompt: null,
  };
}

function toolInterruptionEntry(x: Merged, call: RolloutCall, o: { trigger: string }) {
  const row = sidecarRow(x, 'interruption', call.callId);
  return {
    ...callFields(x.joined, call),
    // An interruption points at the result that records the cut, and at the call it cut.
    message_index: resultMessage(x.joined, call.callId),
    interrupted_message_index: callMessage(x.joined, call.callId),
    timestamp: row.ts,
    sources: ['native', 'sidecar'],
    native: nativeAbort(call),
    sidecar_event_ids: [row.id],
    disagreements: [],
    // The file cannot say whether the command had started, and the sidecar did not see it.
    undetermined: ['ran'],
    kind: 'tool',
    trigger: o.trigger,
    partial_output: null,
    related_call_id: call.callId,
    prompt: null,
  };
}

function fates(m: MergedSession): Array<[string, string]> {
  return m.calls.map((c) => [c.call_id, c.fate]);
}

function expectNoDecisions(m: MergedSession, except: Array<keyof MergedSession> = []): void {
  for (const k of ['rejections', 'interruptions', 'skipped', 'approvals', 'unknown'] as const) {
    if (!except.includes(k)) expect(m[k], k).toEqual([]);
  }
}

describe(`codex ${AGENT_VERSION} recorded sessions, merged with and without the sidecar`, () => {
  it('shell-approve-y: y approves once; the file shows the command ran, the sidecar adds who approved and how', async () => {
    const x = await mergeRecorded('shell-approve-y', (r) => decided(r, only(r), promptRow('command', only(r)), approvalRow('command', only(r), YES)));
    const call = only(x.rec);
    expect(call.ranPerRollout).toBe(true);
    expectNoDecisions(x.native);
    expect(fates(x.native)).toEqual([[call.callId, 'ran']]);

    expectNoDecisions(x.joined, ['approvals']);
    expect(x.joined.approvals).toEqual([approvalEntry(x, call, { option_label: OPTION.yes, scope: 'once', native: null })]);
    expect(fates(x.joined)).toEqual([[call.callId, 'ran']]);
  });

  it('shell-approve-p: p approves with scope always', async () => {
    const x = await mergeRecorded('shell-approve-p', (r) =>
      decided(r, only(r), promptRow('command', only(r)), approvalRow('command', only(r), { trigger: 'letter', option_label: OPTION.always(String(only(r).args['cmd'])), scope: 'always' })),
    );
    const call = only(x.rec);
    expect(x.joined.approvals).toEqual([approvalEntry(x, call, { option_label: OPTION.always(String(call.args['cmd'])), scope: 'always', native: null })]);
    expect(fates(x.joined)).toEqual([[call.callId, 'ran']]);
  });

  it('patch-approve-y: y approves the edit, inlined with its new text', async () => {
    const x = await mergeRecorded('patch-approve-y', (r) => decided(r, only(r), promptRow('edit', only(r)), approvalRow('edit', only(r), YES)));
    const call = only(x.rec);
    expectNoDecisions(x.native);
    expect(x.joined.approvals).toEqual([approvalEntry(x, call, { option_label: OPTION.yes, scope: 'once', native: null })]);
    expect(fates(x.joined)).toEqual([[call.callId, 'ran']]);
  });

  const rejections: Array<{ name: string; does: string; kind: string; trigger: string; option_label: string | null }> = [
    { name: 'shell-reject-esc', does: 'Esc rejects', kind: 'command', trigger: 'esc', option_label: OPTION.no },
    { name: 'shell-reject-n', does: 'n rejects', kind: 'command', trigger: 'letter', option_label: OPTION.no },
    { name: 'shell-reject-option3', does: 'option 3 (Down Down Enter) rejects', kind: 'command', trigger: 'enter', option_label: OPTION.no },
    { name: 'shell-ctrlc-at-prompt', does: 'Ctrl+C at the prompt rejects, with no option', kind: 'command', trigger: 'ctrl_c', option_label: null },
    { name: 'resize-at-prompt', does: 'a resize at the prompt, then Esc, rejects once', kind: 'command', trigger: 'esc', option_label: OPTION.no },
    { name: 'patch-reject-esc', does: 'Esc rejects the edit (kind edit, the patch inlined)', kind: 'edit', trigger: 'esc', option_label: OPTION.no },
  ];
  for (const s of rejections) {
    it(`${s.name}: ${s.does}; without the sidecar the same call is of unknown fate`, async () => {
      const x = await mergeRecorded(s.name, (r) =>
        decided(r, only(r), promptRow(s.kind, only(r)), rejectionRow(s.kind, only(r), { trigger: s.trigger, option_label: s.option_label })),
      );
      const call = only(x.rec);
      expectNoDecisions(x.native, ['unknown']);
      expect(x.native.unknown).toEqual([unknownEntry(x, call)]);
      expect(fates(x.native)).toEqual([[call.callId, 'unknown']]);

      expectNoDecisions(x.joined, ['rejections']);
      expect(x.joined.rejections).toEqual([rejectionEntry(x, call, s)]);
      expect(fates(x.joined)).toEqual([[call.callId, 'rejected']]);
    });
  }

  it('shell-reject-then-reason: the next message is the reason, in the sidecar and in the file alike', async () => {
    const reason = 'do not write files in the repo';
    const x = await mergeRecorded('shell-reject-then-reason', (r) =>
      decided(r, only(r), promptRow('command', only(r)), rejectionRow('command', only(r), { trigger: 'esc', option_label: OPTION.no, reason })),
    );
    const call = only(x.rec);
    expect(x.native.unknown).toEqual([unknownEntry(x, call)]);
    expect(x.joined.rejections).toEqual([rejectionEntry(x, call, { kind: 'command', trigger: 'esc', option_label: OPTION.no, reason })]);
    const said = x.joined.messages.find((m) => m.role === 'user' && m.text === reason);
    expect(said).toMatchObject({ synthetic: false });
  });

  it('shell-reject-then-reason: a sidecar rejection without a reason takes the next message (reason_source next_message)', async () => {
    const x = await mergeRecorded('shell-reject-then-reason', (r) =>
      decided(r, only(r), promptRow('command', only(r)), rejectionRow('command', only(r), { trigger: 'esc', option_label: OPTION.no })),
    );
    expect(x.joined.rejections).toEqual([
      rejectionEntry(x, only(x.rec), { kind: 'command', trigger: 'esc', option_label: OPTION.no, reason: 'do not write files in the repo' }),
    ]);
  });

  const runningCuts = [
    { name: 'sleep-esc-while-running', does: 'Esc while the approved sleep runs', trigger: 'esc', option_label: null },
    { name: 'sleep-ctrlc-cancel', does: 'Ctrl+C while the approved sleep runs, then Cancel task', trigger: 'ctrl_c', option_label: 'Cancel task' },
  ];
  for (const s of runningCuts) {
    it(`${s.name}: ${s.does} is an approval and an interruption of kind tool, never a rejection`, async () => {
      const x = await mergeRecorded(s.name, (r) => [
        ...decided(r, only(r), promptRow('command', only(r)), approvalRow('command', only(r), YES)),
        { row: toolInterruptionRow(only(r), { trigger: s.trigger, option_label: s.option_label }), ts: shift(r.callTs(only(r).callId, 'output'), -KEY_BEFORE_ABORT_MS) },
      ]);
      const call = only(x.rec);
      expect(call.ranPerRollout).toBe(false);
      expectNoDecisions(x.native, ['unknown']);
      expect(x.native.unknown).toEqual([unknownEntry(x, call)]);

      expectNoDecisions(x.joined, ['approvals', 'interruptions']);
      expect(x.joined.approvals).toEqual([approvalEntry(x, call, { option_label: OPTION.yes, scope: 'once', native: null })]);
      expect(x.joined.interruptions).toEqual([toolInterruptionEntry(x, call, s)]);
      expect(fates(x.joined)).toEqual([[call.callId, 'interrupted']]);
    });
  }

  it('text-esc-while-streaming: a streamed answer cut by Esc; the sidecar brings the trigger and the partial answer', async () => {
    const x = await mergeRecorded('text-esc-while-streaming', (r) => [
      {
        row: {
          type: 'interruption',
          kind: 'response',
          trigger: 'esc',
          option_label: null,
          call_id: null,
          related_call_id: null,
          partial_output: r.screenLine('interrupted', '• Counting slowly:').slice(2),
        },
        ts: shift(r.turnAbortedTs(), -KEY_BEFORE_ABORT_MS),
      },
    ]);
    expect(x.rec.calls).toEqual([]);
    const turnEnd = x.native.messages.length - 1;
    expect(x.native.messages[turnEnd]).toMatchObject({ role: 'user', synthetic: true, text: expect.stringMatching(/^<turn_aborted>/) });
    const turn = x.native.interruptions[0]!;
    const nativeTurn = {
      message_index: turnEnd,
      call_id: null,
      tool_name: null,
      tool_input: null,
      action: null,
      sources: ['native'],
      native: { turn_aborted: 'interrupted', turn_id: expect.any(String) },
      sidecar_event_ids: [],
      disagreements: [],
      interrupted_message_index: null,
      related_call_id: null,
      prompt: null,
    };
    expectNoDecisions(x.native, ['interruptions']);
    expect(x.native.interruptions).toEqual([
      // Alone, the file cannot tell a cut answer from Ctrl+C at the composer, and keeps no partial text.
      { ...nativeTurn, timestamp: x.rec.turnAbortedTs(), undetermined: ['kind', 'trigger', 'partial_output'], kind: 'response', trigger: null, partial_output: null },
    ]);

    const row = sidecarRow(x, 'interruption', null);
    expectNoDecisions(x.joined, ['interruptions']);
    expect(x.joined.interruptions).toEqual([
      {
        ...nativeTurn,
        native: turn.native,
        timestamp: row.ts,
        sources: ['native', 'sidecar'],
        sidecar_event_ids: [row.id],
        undetermined: [],
        kind: 'response',
        trigger: 'esc',
        partial_output: 'Counting slowly: w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12',
      },
    ]);
    expect(x.joined.calls).toEqual([]);
  });

  it('parallel-approve-reject: three calls all "aborted by user"; the sidecar says approved (ran), rejected, skipped with related_call_id', async () => {
    const x = await mergeRecorded('parallel-approve-reject', (r) => {
      const approved = r.callShownIn('prompt-1');
      const rejected = r.callShownIn('prompt-2');
      const skipped = r.calls.find((c) => c !== approved && c !== rejected)!;
      const rejectedAt = shift(r.callTs(rejected.callId, 'output'), -KEY_BEFORE_ABORT_MS);
      return [
        ...decided(r, approved, promptRow('command', approved), approvalRow('command', approved, YES)),
        { row: promptRow('command', rejected), ts: shift(rejectedAt, -KEY_AFTER_PROMPT_MS) },
        { row: rejectionRow('command', rejected, { trigger: 'esc', option_label: OPTION.no }), ts: rejectedAt },
        { row: skippedRow(skipped, rejected), ts: shift(rejectedAt, 1) },
      ];
    });
    const approved = x.rec.callShownIn('prompt-1');
    const rejected = x.rec.callShownIn('prompt-2');
    const skipped = x.rec.calls.find((c) => c !== approved && c !== rejected)!;
    expect(x.rec.calls.every((c) => /aborted by user$/.test(c.output ?? ''))).toBe(true);
    // All three calls sit in one assistant message.
    expect(new Set(x.rec.calls.map((c) => callMessage(x.native, c.callId))).size).toBe(1);

    expectNoDecisions(x.native, ['unknown']);
    expect(x.native.unknown).toEqual(x.rec.calls.map((c) => unknownEntry(x, c)));
    expect(fates(x.native)).toEqual(x.rec.calls.map((c) => [c.callId, 'unknown']));

    expectNoDecisions(x.joined, ['approvals', 'rejections', 'skipped']);
    // Approved and not cut: the sibling's abort does not undo it; the file's words stay on the approval.
    expect(x.joined.approvals).toEqual([approvalEntry(x, approved, { option_label: OPTION.yes, scope: 'once', native: nativeAbort(approved) })]);
    expect(x.joined.rejections).toEqual([rejectionEntry(x, rejected, { kind: 'command', trigger: 'esc', option_label: OPTION.no })]);
    const row = sidecarRow(x, 'skipped', skipped.callId);
    expect(x.joined.skipped).toEqual([
      {
        ...callFields(x.joined, skipped),
        timestamp: row.ts,
        sources: ['native', 'sidecar'],
        native: nativeAbort(skipped),
        sidecar_event_ids: [row.id],
        disagreements: [],
        undetermined: [],
        related_call_id: rejected.callId,
      },
    ]);
    const fate = new Map(fates(x.joined));
    expect([fate.get(approved.callId), fate.get(rejected.callId), fate.get(skipped.callId)]).toEqual(['ran', 'rejected', 'skipped']);
  });

  it('long-command-wrapped: the approval of a command that wrapped on screen carries the whole command', async () => {
    const x = await mergeRecorded('long-command-wrapped', (r) => decided(r, only(r), promptRow('command', only(r)), approvalRow('command', only(r), YES)));
    const call = only(x.rec);
    expect(x.joined.approvals).toEqual([approvalEntry(x, call, { option_label: OPTION.yes, scope: 'once', native: null })]);
    expect(x.joined.approvals[0]!.action).toEqual({ type: 'command', command: String(call.args['cmd']) });
  });
});
