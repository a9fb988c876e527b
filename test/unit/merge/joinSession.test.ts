import { afterAll, describe, expect, it } from 'vitest';
import type { AgentName, NewEvent, RecEvent } from '../../../src/core/events.js';
import { joinSession } from '../../../src/merge/joinSession.js';
import { readSessionFile } from '../../../src/merge/readSession.js';
import { openInMemorySidecar } from '../../../src/store/sidecarDb.js';
import { logFile } from '../../support/fixturePaths.js';

async function native(agent: string, name: string) {
  return (await readSessionFile(logFile(agent, name))).session!;
}

/**
 * Sidecar events as the store writes and reads them back (real SQLite, in memory): one run per
 * agent, the store's own ids and defaults.
 */
const store = openInMemorySidecar();
afterAll(() => store.close());
const runs = new Map<AgentName, string>();
function ev(e: NewEvent & { agent?: AgentName }): RecEvent {
  const { agent = 'codex', ...event } = e;
  let runId = runs.get(agent);
  if (runId === undefined) {
    runId = store.startRun({ agent, argv: [], cwd: '/work', started_at: '2026-11-22T09:00:00.000Z' });
    runs.set(agent, runId);
  }
  const id = store.insertEvent({ run_id: runId, agent }, { evidence: ['screen', 'keys'], ...event });
  return store.listEvents({ runId }).find((x) => x.id === id)!;
}

const ctx = (events: RecEvent[]) => ({ events, runIds: ['run1'], source: 'file' as const, files: ['f'] });

describe('joinSession without a sidecar', () => {
  it('Codex: the aborted call stays of unknown fate, with the command inlined', async () => {
    const m = joinSession(await native('codex', 'shell-deny-esc.rollout.jsonl'), ctx([]));
    expect(m.rejections).toEqual([]);
    expect(m.unknown).toEqual([
      expect.objectContaining({
        call_id: 'call_bd8088d34ab72013',
        sources: ['native'],
        action: { type: 'command', command: 'echo hello > $BASE/work/approved.txt && cat $BASE/work/approved.txt' },
      }),
    ]);
    expect(m.calls).toEqual([expect.objectContaining({ call_id: 'call_bd8088d34ab72013', fate: 'unknown' })]);
  });

  it('Gemini: a rejection takes the user\'s next message as its reason (next_message)', async () => {
    const m = joinSession(await native('gemini', 'shell-esc-then-feedback.session.jsonl'), ctx([]));
    expect(m.rejections).toEqual([
      expect.objectContaining({ reason: 'No - use a different file name please', reason_source: 'next_message', action: { type: 'command', command: 'touch shell_marker.txt' } }),
    ]);
  });

  it('Claude: an edit rejection inlines the edit with its old and new text', async () => {
    const m = joinSession(await native('claude', '15-edit-reject-Esc.jsonl'), ctx([]));
    expect(m.rejections[0]!.action).toEqual({
      type: 'edit',
      edits: [{ path: '<SCRATCH>/ws/notes.txt', operation: 'update', old_text: 'original line', new_text: 'EDITED BY MOCK' }],
    });
    expect(m.calls.map((c) => c.fate)).toEqual(['ran', 'rejected']);
  });

  it('Claude: a tool interruption points at the result message and at the cut call', async () => {
    const m = joinSession(await native('claude', '07-bash-running-Esc.jsonl'), ctx([]));
    const i = m.interruptions[0]!;
    expect(m.messages[i.interrupted_message_index!]!.tool_calls[0]!.call_id).toBe('toolu_mockmwrn0kg20003');
    expect(m.messages[i.message_index!]!.tool_results[0]!.call_id).toBe('toolu_mockmwrn0kg20003');
  });
});

describe('joinSession with the sidecar deciding', () => {
  it('Codex: a sidecar rejection settles the unknown abort; both sources shown, trigger from the keys', async () => {
    const m = joinSession(
      await native('codex', 'shell-deny-esc.rollout.jsonl'),
      ctx([ev({ type: 'rejection', ts: '2026-11-22T09:29:45.390Z', call_id: 'call_bd8088d34ab72013', kind: 'command', decided_by: 'user', trigger: 'esc', option_label: 'No, and tell Codex what to do differently', ran: 'no' })]),
    );
    expect(m.unknown).toEqual([]);
    expect(m.rejections).toEqual([
      expect.objectContaining({
        call_id: 'call_bd8088d34ab72013',
        rejection_type: 'command',
        trigger: 'esc',
        decided_by: 'user',
        sources: ['native', 'sidecar'],
        sidecar_event_ids: [expect.any(String)],
        native: expect.objectContaining({ output: 'Wall time: 1.6 seconds\naborted by user' }),
        reason: 'SCN=say I said no because reason-XYZ',
        reason_source: 'next_message',
        disagreements: [],
        undetermined: expect.not.arrayContaining(['type', 'trigger']),
      }),
    ]);
    expect(m.calls[0]!.fate).toBe('rejected');
  });

  it('Codex: approved then interrupted is an interruption of kind tool, never a rejection', async () => {
    const m = joinSession(
      await native('codex', 'sleep-esc-while-running.rollout.jsonl'),
      ctx([
        ev({ type: 'approval', ts: '2026-11-22T09:32:46.000Z', call_id: 'call_91597f1151529ec3', decided_by: 'user', trigger: 'letter', scope: 'once' }),
        ev({ type: 'interruption', ts: '2026-11-22T09:32:51.600Z', call_id: 'call_91597f1151529ec3', kind: 'tool', trigger: 'esc', partial_output: 'slept 5' }),
      ]),
    );
    expect(m.rejections).toEqual([]);
    expect(m.unknown).toEqual([]);
    expect(m.approvals).toEqual([expect.objectContaining({ call_id: 'call_91597f1151529ec3', sources: ['sidecar'], scope: 'once' })]);
    expect(m.interruptions).toEqual([
      expect.objectContaining({ call_id: 'call_91597f1151529ec3', kind: 'tool', trigger: 'esc', partial_output: 'slept 5', sources: ['native', 'sidecar'] }),
    ]);
    expect(m.calls[0]!.fate).toBe('interrupted');
  });

  it('Codex parallel batch: approved call ran, the refused one is a rejection, the unasked one is skipped with related_call_id', async () => {
    const m = joinSession(
      await native('codex', 'parallel-approve-deny.rollout.jsonl'),
      ctx([
        ev({ type: 'approval', ts: '2026-11-22T09:30:47.000Z', call_id: 'call_e1ccd69ce04e9d91', decided_by: 'user', trigger: 'letter', ran: 'yes' }),
        ev({ type: 'rejection', ts: '2026-11-22T09:30:49.000Z', call_id: 'call_0dc7b07af1361e99', kind: 'command', decided_by: 'user', trigger: 'esc', ran: 'no' }),
        ev({ type: 'skipped', ts: '2026-11-22T09:30:49.001Z', call_id: 'call_07f86a5175e92cb6', related_call_id: 'call_0dc7b07af1361e99', ran: 'no' }),
      ]),
    );
    expect(m.calls.map((c) => [c.call_id, c.fate])).toEqual([
      ['call_e1ccd69ce04e9d91', 'ran'],
      ['call_0dc7b07af1361e99', 'rejected'],
      ['call_07f86a5175e92cb6', 'skipped'],
    ]);
    expect(m.skipped).toEqual([expect.objectContaining({ call_id: 'call_07f86a5175e92cb6', related_call_id: 'call_0dc7b07af1361e99' })]);
    expect(m.unknown).toEqual([]);
  });

  it('Gemini: where the file says rejection and the sidecar says skipped, the sidecar wins and both are shown', async () => {
    const m = joinSession(
      await native('gemini', 'parallel-shell-esc.session.jsonl'),
      ctx([
        ev({ agent: 'gemini', type: 'rejection', ts: '2026-11-22T09:31:53.000Z', call_id: 'run_shell_command__run_shell_command_1795339912634_0', kind: 'command', decided_by: 'user', trigger: 'esc' }),
        ev({ agent: 'gemini', type: 'skipped', ts: '2026-11-22T09:31:53.001Z', call_id: 'run_shell_command__run_shell_command_1795339912707_1', related_call_id: 'run_shell_command__run_shell_command_1795339912634_0' }),
      ]),
    );
    expect(m.skipped).toEqual([
      expect.objectContaining({
        call_id: 'run_shell_command__run_shell_command_1795339912707_1',
        sources: ['native', 'sidecar'],
        disagreements: [{ field: 'type', native: 'rejection', sidecar: 'skipped' }],
      }),
    ]);
    expect(m.rejections.map((r) => r.call_id)).toEqual([
      'run_shell_command__run_shell_command_1795339912634_0',
      'run_shell_command__run_shell_command_1795339912711_2',
    ]);
  });

  it('a turn-level sidecar interruption matches the native one by time and brings the partial output', async () => {
    const m = joinSession(
      await native('gemini', 'stream-esc.session.jsonl'),
      ctx([ev({ agent: 'gemini', type: 'interruption', ts: '2026-11-22T09:34:06.400Z', kind: 'response', trigger: 'esc', partial_output: 'Here is the first part' })]),
    );
    expect(m.interruptions).toEqual([
      expect.objectContaining({ kind: 'response', trigger: 'esc', partial_output: 'Here is the first part', sources: ['native', 'sidecar'], undetermined: [] }),
    ]);
  });

  it('a sidecar event for a call the file does not hold is kept (sidecar only) and noted', async () => {
    const m = joinSession(
      await native('claude', '01-bash-approve.jsonl'),
      ctx([ev({ agent: 'claude', type: 'rejection', ts: '2026-11-22T09:28:50.000Z', call_id: 'toolu_elsewhere', kind: 'command', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, decided_by: 'user', trigger: 'esc' })]),
    );
    expect(m.rejections).toEqual([
      expect.objectContaining({ call_id: 'toolu_elsewhere', sources: ['sidecar'], message_index: null, action: { type: 'command', command: 'rm -rf /' } }),
    ]);
    expect(m.diagnostics).toEqual([expect.objectContaining({ code: 'sidecar_unmatched', severity: 'info' })]);
  });

  it('a sidecar rejection of a call the file shows ran: rejected yet run, shown as a disagreement', async () => {
    const m = joinSession(
      await native('codex', 'shell-approve.rollout.jsonl'),
      ctx([ev({ type: 'rejection', ts: '2026-11-22T09:29:20.000Z', call_id: (await native('codex', 'shell-approve.rollout.jsonl')).calls[0]!.call_id, kind: 'command', decided_by: 'user', trigger: 'esc', ran: 'yes' })]),
    );
    expect(m.rejections[0]).toMatchObject({ ran: 'yes', disagreements: [{ field: 'ran', native: 'yes', sidecar: 'yes' }] });
  });

  it('Claude: the sidecar says where a reason came from even without one (typed inline, then thrown away with Esc)', async () => {
    const m = joinSession(
      await native('claude', '15-edit-reject-Esc.jsonl'),
      ctx([ev({ agent: 'claude', type: 'rejection', ts: '2026-11-22T09:00:05.000Z', call_id: 'toolu_mockmwrn29tu0010', kind: 'edit', trigger: 'esc', reason_source: 'inline', ran: 'no' })]),
    );
    expect(m.rejections).toEqual([expect.objectContaining({ call_id: 'toolu_mockmwrn29tu0010', reason: null, reason_source: 'inline', trigger: 'esc' })]);
  });

  it('a call asked about again has one approval: the answer that stood (the last), naming every answer', async () => {
    const first = ev({ type: 'approval', ts: '2026-11-22T09:29:44.000Z', call_id: 'call_bd8088d34ab72013', trigger: 'digit', option_label: 'Modify with external editor', scope: 'once' });
    const last = ev({ type: 'approval', ts: '2026-11-22T09:29:45.000Z', call_id: 'call_bd8088d34ab72013', trigger: 'digit', option_label: 'Allow once', scope: 'once' });
    const m = joinSession(await native('codex', 'shell-deny-esc.rollout.jsonl'), ctx([first, last]));
    expect(m.approvals).toEqual([expect.objectContaining({ call_id: 'call_bd8088d34ab72013', option_label: 'Allow once', sidecar_event_ids: [first.id, last.id] })]);
  });

  it('let through at one prompt, then refused at the next prompt about the same call: a rejection naming both answers, not a cut', async () => {
    const callId = 'call_bd8088d34ab72013';
    const urlPrompt = ev({ type: 'prompt', ts: '2026-11-22T09:29:43.000Z', call_id: callId, kind: 'network' });
    const shellPrompt = ev({ type: 'prompt', ts: '2026-11-22T09:29:44.500Z', call_id: callId, kind: 'command' });
    const approval = ev({ type: 'approval', ts: '2026-11-22T09:29:44.000Z', call_id: callId, kind: 'network', trigger: 'digit', scope: 'always', prompt_event_id: urlPrompt.id });
    const rejection = ev({ type: 'rejection', ts: '2026-11-22T09:29:45.000Z', call_id: callId, kind: 'command', trigger: 'esc', ran: 'no', prompt_event_id: shellPrompt.id });
    const m = joinSession(await native('codex', 'shell-deny-esc.rollout.jsonl'), ctx([urlPrompt, shellPrompt, approval, rejection]));
    expect(m.interruptions).toEqual([]);
    expect(m.approvals).toEqual([]);
    expect(m.rejections).toEqual([expect.objectContaining({ call_id: callId, rejection_type: 'command', trigger: 'esc', ran: 'no', sidecar_event_ids: [approval.id, rejection.id] })]);
  });

  it('a refusal booked on the very prompt that was approved (the approved call cut) stays an interruption', async () => {
    const callId = 'call_bd8088d34ab72013';
    const prompt = ev({ type: 'prompt', ts: '2026-11-22T09:29:43.000Z', call_id: callId, kind: 'command' });
    const approval = ev({ type: 'approval', ts: '2026-11-22T09:29:44.000Z', call_id: callId, trigger: 'digit', scope: 'once', prompt_event_id: prompt.id });
    const rejection = ev({ type: 'rejection', ts: '2026-11-22T09:29:45.000Z', call_id: callId, trigger: 'esc', prompt_event_id: prompt.id });
    const m = joinSession(await native('codex', 'shell-deny-esc.rollout.jsonl'), ctx([prompt, approval, rejection]));
    expect(m.rejections).toEqual([]);
    expect(m.interruptions).toEqual([expect.objectContaining({ call_id: callId })]);
  });
});

describe('joinSession: a sidecar rejection without a call id beside the file\'s rejection', () => {
  it('one rejection of an unnamed call fits: it is that one (one entry, the call id from the file, both sources)', async () => {
    const m = joinSession(
      await native('claude', '02-bash-reject-No.jsonl'),
      ctx([ev({ agent: 'claude', type: 'rejection', ts: '2026-11-22T09:29:04.700Z', call_id: null, kind: 'command', tool_name: 'Bash', decided_by: 'user', trigger: 'esc', ran: 'no' })]),
    );
    expect(m.rejections).toEqual([expect.objectContaining({ call_id: 'toolu_mockmwrmxfz4000a', trigger: 'esc', sources: ['native', 'sidecar'], disagreements: [] })]);
  });

  it('of two rejections in the window, the one whose kind and tool agree', async () => {
    const m = joinSession(
      await native('claude', '14-parallel-yes-reason-Esc.jsonl'),
      ctx([ev({ agent: 'claude', type: 'rejection', ts: '2026-11-22T09:32:42.100Z', call_id: null, kind: 'command', tool_name: 'Bash', decided_by: 'user', trigger: 'esc', ran: 'no' })]),
    );
    expect(m.rejections.map((r) => [r.call_id, r.sources])).toEqual([
      ['toolu_mockmwrn1tpj000r', ['native']],
      ['toolu_mockmwrn1tq0000s', ['native', 'sidecar']],
    ]);
  });

  it('two that fit equally: neither is chosen, the sidecar row stays on its own', async () => {
    const m = joinSession(
      await native('claude', '14-parallel-yes-reason-Esc.jsonl'),
      ctx([ev({ agent: 'claude', type: 'rejection', ts: '2026-11-22T09:32:40.000Z', call_id: null, decided_by: 'user', trigger: 'esc' })]),
    );
    expect(m.rejections.map((r) => [r.call_id, r.sources])).toEqual(expect.arrayContaining([
      ['toolu_mockmwrn1tpj000r', ['native']],
      ['toolu_mockmwrn1tq0000s', ['native']],
      [null, ['sidecar']],
    ]));
    expect(m.rejections).toHaveLength(3);
  });

  it('a rejection by a rule in the file is not the user\'s Esc', async () => {
    const m = joinSession(
      await native('claude', '19-deny-rule.jsonl'),
      ctx([ev({ agent: 'claude', type: 'rejection', ts: '2026-11-22T09:36:02.300Z', call_id: null, tool_name: 'Bash', decided_by: 'user', trigger: 'esc' })]),
    );
    expect(m.rejections.map((r) => [r.call_id, r.sources])).toEqual(expect.arrayContaining([['toolu_mockmwrn6eu2000a', ['native']], [null, ['sidecar']]]));
  });

  it('a call the sidecar names (approved there) is not taken by a call-less rejection', async () => {
    const m = joinSession(
      await native('claude', '02-bash-reject-No.jsonl'),
      ctx([
        ev({ agent: 'claude', type: 'approval', ts: '2026-11-22T09:29:04.000Z', call_id: 'toolu_mockmwrmxfz4000a', trigger: 'digit', option_label: 'Yes', scope: 'once' }),
        ev({ agent: 'claude', type: 'rejection', ts: '2026-11-22T09:29:04.700Z', call_id: null, tool_name: 'Bash', decided_by: 'user', trigger: 'esc' }),
      ]),
    );
    expect(m.rejections.map((r) => [r.call_id, r.sources])).toEqual(expect.arrayContaining([[null, ['sidecar']]]));
  });
});

describe('joinSession: the prompt a decision answered', () => {
  const shown = { title: 'Bash command', details: { command: 'rm -rf build' }, options: [{ label: 'Yes', key: '1' }, { label: "Yes, and don't ask again", key: '2' }, { label: 'No' }] };

  it('carries the options the prompt offered, the chosen one marked; none marked when the key chose no option', async () => {
    const prompt = ev({ agent: 'claude', type: 'prompt', ts: '2026-11-22T09:29:04.000Z', kind: 'command', prompt: shown });
    const byNo = ev({ agent: 'claude', type: 'rejection', ts: '2026-11-22T09:29:04.700Z', call_id: 'toolu_mockmwrmxfz4000a', kind: 'command', decided_by: 'user', trigger: 'digit', option_label: 'No', ran: 'no', prompt_event_id: prompt.id });
    const prompts = new Map([[prompt.id, prompt.prompt!]]);
    const m = joinSession(await native('claude', '02-bash-reject-No.jsonl'), { ...ctx([byNo]), prompts });
    expect(m.rejections[0]!.prompt).toEqual({
      event_id: prompt.id,
      title: 'Bash command',
      options: [
        { label: 'Yes', key: '1', chosen: false },
        { label: "Yes, and don't ask again", key: '2', chosen: false },
        { label: 'No', key: null, chosen: true },
      ],
    });
    const byEsc = ev({ agent: 'claude', type: 'rejection', ts: '2026-11-22T09:29:04.700Z', call_id: 'toolu_mockmwrmxfz4000a', kind: 'command', decided_by: 'user', trigger: 'esc', ran: 'no', prompt_event_id: prompt.id });
    const esc = joinSession(await native('claude', '02-bash-reject-No.jsonl'), { ...ctx([byEsc]), prompts });
    expect(esc.rejections[0]!.prompt!.options.map((o) => o.chosen)).toEqual([false, false, false]);
  });

  it('is null when the prompt event is not there (no sidecar prompt, or pruned)', async () => {
    const e = ev({ agent: 'claude', type: 'rejection', ts: '2026-11-22T09:29:04.700Z', call_id: 'toolu_mockmwrmxfz4000a', kind: 'command', decided_by: 'user', trigger: 'digit', option_label: 'No', ran: 'no', prompt_event_id: 'gone' });
    const m = joinSession(await native('claude', '02-bash-reject-No.jsonl'), ctx([e]));
    expect(m.rejections[0]!.prompt).toBeNull();
  });
});
