import { describe, expect, it } from 'vitest';
import { AgentReplay } from '../../../support/codex/sampleReplay.js';

const CMD = 'echo hello > $BASE/work/approved.txt && cat $BASE/work/approved.txt';
const EXEC_INPUT = {
  cmd: CMD,
  yield_time_ms: 1000,
  sandbox_permissions: 'require_escalated',
  justification: 'Write approved.txt in the workspace?',
};
const OPTION_1 = 'Yes, proceed (y)';
const OPTION_2 = "Yes, and don't ask again for commands that start with `echo hello > $BASE/work/approved.txt && cat /$BASE/work/approved.txt` (p)";
const OPTION_3 = 'No, and tell Codex what to do differently (esc)';

/** An exec prompt on screen with its function_call already in the rollout. */
function atExecPrompt(sample: string): AgentReplay {
  const r = new AgentReplay(sample);
  r.appendThrough('function_call');
  r.show('1-prompt');
  return r;
}

describe('codex 0.169.0, 120x40, exec approval prompt', () => {
  it('records the prompt as shown, with the call it is about', async () => {
    const r = atExecPrompt('shell-approve');
    const [callId] = r.callIds();
    expect(r.recorder.watching).toBe(true);
    expect(r.sink.rows('prompt')).toEqual([
      expect.objectContaining({
        type: 'prompt',
        kind: 'command',
        call_id: callId,
        tool_name: 'exec_command',
        tool_input: EXEC_INPUT,
        prompt: {
          title: 'Would you like to run the following command?',
          details: { environment: 'local', reason: 'Write approved.txt in the workspace?', command: CMD },
          options: [
            { label: OPTION_1, key: 'y' },
            { label: OPTION_2, key: 'p' },
            { label: OPTION_3, key: 'esc' },
          ],
        },
        evidence: ['screen', 'session_file'],
      }),
    ]);
    await r.exit();
  });

  it('y approves once; the rollout then shows the command ran', async () => {
    const r = atExecPrompt('shell-approve');
    const [callId] = r.callIds();
    r.press('y');
    const [approval] = r.sink.rows('approval');
    expect(approval).toMatchObject({ type: 'approval', trigger: 'letter', option_label: OPTION_1, scope: 'once', call_id: callId, ran: 'unknown' });
    r.show('2-final');
    await r.exit();
    expect(r.sink.rows('approval', 'rejection', 'skipped', 'interruption')).toEqual([
      expect.objectContaining({
        type: 'approval',
        kind: 'command',
        decided_by: 'user',
        trigger: 'letter',
        option_label: OPTION_1,
        scope: 'once',
        call_id: callId,
        tool_name: 'exec_command',
        tool_input: EXEC_INPUT,
        ran: 'yes',
        prompt_event_id: r.sink.rows('prompt')[0]!.id,
        evidence: ['screen', 'keys', 'session_file'],
      }),
    ]);
    expect(r.sink.rows('approval')[0]!.native).toMatchObject({ output: expect.stringContaining('Process exited with code 0') });
  });

  it('p approves with the prefix rule, which Codex keeps beyond the session', async () => {
    const r = atExecPrompt('shell-approve-p');
    r.press('p');
    await r.exit();
    expect(r.sink.rows('approval')).toEqual([
      expect.objectContaining({ trigger: 'letter', option_label: OPTION_2, scope: 'always', call_id: r.callIds()[0], ran: 'yes' }),
    ]);
  });
});

describe('codex 0.169.0, 120x40, exec prompt rejected', () => {
  const rejected = (trigger: string, optionLabel: string | null, reason: string, callId: string) =>
    expect.objectContaining({
      type: 'rejection',
      call_id: callId,
      kind: 'command',
      decided_by: 'user',
      trigger,
      option_label: optionLabel,
      tool_name: 'exec_command',
      tool_input: EXEC_INPUT,
      reason,
      reason_source: 'next_message',
      ran: 'no',
      native: { output: expect.stringMatching(/aborted by user$/), turn_aborted: 'interrupted' },
      evidence: ['screen', 'keys', 'session_file'],
    });

  it('Esc rejects; the next message is the reason', async () => {
    const r = atExecPrompt('shell-deny-esc');
    r.press('esc');
    expect(r.sink.rows('rejection')).toHaveLength(1);
    r.show('2-after-esc');
    r.appendThrough('turn_aborted');
    r.show('3-final');
    await r.exit();
    expect(r.sink.rows('approval', 'rejection', 'skipped', 'interruption')).toEqual([
      rejected('esc', OPTION_3, 'SCN=say I said no because reason-XYZ', r.callIds()[0]!),
    ]);
  });

  it('Down Down Enter chooses the highlighted third option', async () => {
    const r = atExecPrompt('shell-deny-option3');
    r.press('down', 'down');
    expect(r.sink.rows('rejection', 'approval')).toEqual([]);
    r.show('2-selected3');
    r.press('enter');
    r.show('3-after-enter');
    await r.exit();
    expect(r.sink.rows('approval', 'rejection', 'skipped', 'interruption')).toEqual([
      rejected('enter', OPTION_3, 'SCN=say use a different path', r.callIds()[0]!),
    ]);
  });

  it('arrows then Enter before the screen redraws still choose the moved-to option', async () => {
    const r = atExecPrompt('shell-deny-option3');
    r.press('down', 'down', 'enter');
    await r.exit();
    expect(r.sink.rows('rejection')).toEqual([expect.objectContaining({ trigger: 'enter', option_label: OPTION_3 })]);
  });

  it('n rejects although Codex does not show it as a hotkey', async () => {
    const r = atExecPrompt('shell-n-key');
    r.press('n');
    r.show('2-after-n');
    await r.exit();
    expect(r.sink.rows('approval', 'rejection', 'skipped', 'interruption')).toEqual([
      expect.objectContaining({ type: 'rejection', trigger: 'letter', option_label: OPTION_3, call_id: r.callIds()[0], ran: 'no', reason_source: 'none' }),
    ]);
  });

  it('Ctrl+C at the prompt rejects with trigger ctrl_c', async () => {
    const r = atExecPrompt('shell-ctrlc-at-prompt');
    r.press('ctrl-c');
    r.show('2-after-ctrlc');
    r.show('3-final');
    await r.exit();
    expect(r.sink.rows('approval', 'rejection', 'skipped', 'interruption')).toEqual([
      rejected('ctrl_c', null, 'SCN=say next', r.callIds()[0]!),
    ]);
  });

  it('a key Codex ignores at the prompt records nothing', async () => {
    const r = atExecPrompt('shell-approve');
    r.press('x', 'left', '7');
    expect(r.sink.rows('approval', 'rejection', 'interruption')).toEqual([]);
    r.press('y');
    await r.exit();
    expect(r.sink.rows('approval')).toEqual([expect.objectContaining({ option_label: OPTION_1 })]);
  });
});

describe('codex 0.169.0, 120x40, edits prompt', () => {
  it('y approves the patch; the rollout shows it applied', async () => {
    const r = new AgentReplay('patch-approve');
    r.appendThrough('function_call');
    r.show('1-prompt');
    r.press('y');
    r.show('2-final');
    await r.exit();
    expect(r.sink.rows('prompt', 'approval', 'rejection', 'skipped')).toEqual([
      expect.objectContaining({ type: 'prompt', kind: 'edit', call_id: r.callIds()[0] }),
      expect.objectContaining({
        type: 'approval',
        kind: 'edit',
        trigger: 'letter',
        option_label: 'Yes, proceed (y)',
        scope: 'once',
        call_id: r.callIds()[0],
        tool_name: 'exec_command',
        tool_input: expect.objectContaining({ cmd: expect.stringContaining('*** Add File: $BASE/work/patched.txt') }),
        ran: 'yes',
      }),
    ]);
  });

  it('Esc rejects the patch; nothing was applied', async () => {
    const r = new AgentReplay('patch-deny-esc');
    r.appendThrough('function_call');
    r.show('1-prompt');
    r.press('esc');
    r.show('2-after');
    r.show('3-final');
    await r.exit();
    expect(r.sink.rows('approval', 'rejection', 'skipped', 'interruption')).toEqual([
      expect.objectContaining({
        type: 'rejection',
        kind: 'edit',
        trigger: 'esc',
        option_label: OPTION_3,
        call_id: r.callIds()[0],
        ran: 'no',
        reason: 'SCN=say why not',
        reason_source: 'next_message',
      }),
    ]);
  });
});

describe('codex 0.169.0, 120x40, interruptions', () => {
  it('Esc while an approved sleep runs: approval, then interruption of kind tool, never a rejection', async () => {
    const r = atExecPrompt('sleep-esc-while-running');
    const [callId] = r.callIds();
    r.press('y');
    r.show('2-running');
    expect(r.recorder.watching).toBe(true);
    r.press('esc');
    r.show('3-after-esc');
    await r.exit();
    // ran stays unknown: the rollout says only "aborted by user", and Codex draws the "• Running"
    // cell before the approval and "• Exited" for calls that never ran, so nothing shows it started.
    expect(r.sink.rows('approval', 'rejection', 'skipped', 'interruption')).toEqual([
      expect.objectContaining({ type: 'approval', call_id: callId, ran: 'unknown', native: { output: expect.stringMatching(/aborted by user$/), turn_aborted: 'interrupted' } }),
      expect.objectContaining({
        type: 'interruption',
        kind: 'tool',
        trigger: 'esc',
        call_id: callId,
        related_call_id: callId,
        tool_input: expect.objectContaining({ cmd: 'sleep 60; echo slept' }),
        partial_output: null,
        native: { output: expect.stringMatching(/aborted by user$/), turn_aborted: 'interrupted' },
      }),
    ]);
  });

  it('Ctrl+C, then "Cancel task" in the task menu interrupts the running tool', async () => {
    const r = atExecPrompt('sleep-ctrlc-while-running');
    const [callId] = r.callIds();
    r.press('y');
    r.show('2-running');
    r.press('ctrl-c');
    expect(r.sink.rows('interruption')).toEqual([]);
    r.show('3-ctrlc-menu');
    r.press('enter');
    r.show('4-after-cancel');
    await r.exit();
    expect(r.sink.rows('interruption')).toEqual([
      expect.objectContaining({ kind: 'tool', trigger: 'ctrl_c', option_label: 'Cancel task', call_id: callId }),
    ]);
    expect(r.sink.rows('rejection')).toEqual([]);
  });

  it('Ctrl+C, then "Exit" stops the task; the turn_aborted written after the exit is still read', async () => {
    const r = atExecPrompt('sleep-ctrlc-exit');
    const [callId] = r.callIds();
    r.press('y', 'ctrl-c');
    r.show('2-menu-option3');
    r.press('enter');
    r.show('3-after-exit');
    await r.exit();
    expect(r.sink.rows('interruption')).toEqual([
      expect.objectContaining({ kind: 'tool', trigger: 'ctrl_c', option_label: 'Exit', call_id: callId, native: expect.objectContaining({ turn_aborted: 'interrupted' }) }),
    ]);
  });

  it('Ctrl+C, then "Run in background" is recorded as detached, not as an interruption of the task', async () => {
    const r = new AgentReplay('text-ctrlc-run-in-background');
    r.appendThrough('item_completed');
    r.show('1-prompt');
    expect(r.recorder.watching).toBe(true);
    r.press('ctrl-c');
    r.show('2-menu-option2');
    r.press('enter');
    r.show('3-after-exit');
    await r.exit();
    expect(r.sink.rows('interruption', 'rejection')).toEqual([
      expect.objectContaining({ type: 'interruption', kind: 'detached', trigger: 'ctrl_c', option_label: 'Run in background' }),
    ]);
  });

  it('Esc while an answer streams keeps the text that was on screen', async () => {
    const r = new AgentReplay('text-esc-while-streaming');
    r.appendThrough('item_completed');
    r.show('2-streaming');
    r.press('esc');
    r.show('3-after-esc');
    await r.exit();
    expect(r.sink.rows('interruption')).toEqual([
      expect.objectContaining({
        kind: 'response',
        trigger: 'esc',
        partial_output: 'word0 word1 word2 word3 word4 word5 word6 word7 word8 word9',
        native: { turn_aborted: 'interrupted' },
        evidence: ['screen', 'keys', 'session_file'],
      }),
    ]);
  });
});

describe('codex 0.169.0, 120x40, three parallel calls', () => {
  it('first approved and ran, second rejected, third skipped, though the rollout says "aborted by user" for all', async () => {
    const r = new AgentReplay('parallel-approve-deny');
    const [one, two, three] = r.callIds();
    r.appendThrough('function_call', 3);
    // Codex's hooks report each call as it starts; the first one finished before the batch was cut.
    r.hook('PreToolUse', { tool_name: 'Bash', tool_use_id: one, tool_input: { command: 'echo one > $BASE/work/p1.txt' } });
    r.show('1-prompt');
    r.press('y');
    r.hook('PostToolUse', { tool_name: 'Bash', tool_use_id: one, tool_response: '' });
    r.show('3-second');
    r.press('esc');
    r.show('4-after');
    r.appendThrough('turn_aborted');
    r.show('5-final');
    await r.exit();
    expect(r.sink.rows('prompt').map((e) => e.call_id)).toEqual([one, two]);
    expect(r.sink.rows('approval', 'rejection', 'skipped', 'interruption')).toEqual([
      expect.objectContaining({ type: 'approval', call_id: one, option_label: OPTION_1, ran: 'yes', native: { output: expect.stringMatching(/aborted by user$/), turn_aborted: 'interrupted' } }),
      expect.objectContaining({ type: 'rejection', call_id: two, trigger: 'esc', ran: 'no', reason: 'SCN=say why', reason_source: 'next_message' }),
      expect.objectContaining({
        type: 'skipped',
        call_id: three,
        related_call_id: two,
        tool_input: expect.objectContaining({ cmd: 'echo three > $BASE/work/p3.txt' }),
        ran: 'no',
        decided_by: null,
      }),
    ]);
  });
});

describe('codex 0.169.0, prompt redrawn and wrapped', () => {
  it('a resize to 70x30 redraws the same prompt: one prompt event, not two', async () => {
    const r = atExecPrompt('resize-redraw');
    r.show('2-final');
    r.show('3-after-resize-70x30');
    r.press('y');
    expect(r.sink.rows('prompt')).toHaveLength(1);
    expect(r.sink.rows('approval')).toEqual([
      expect.objectContaining({ call_id: r.callIds()[0], prompt_event_id: r.sink.rows('prompt')[0]!.id }),
    ]);
    await r.exit();
  });

  it('a command wrapped at 70 columns is joined and matched to its call', async () => {
    const r = new AgentReplay('resize-redraw');
    r.appendThrough('function_call');
    r.show('3-after-resize-70x30');
    expect(r.sink.rows('prompt')).toEqual([
      expect.objectContaining({
        call_id: r.callIds()[0],
        prompt: expect.objectContaining({ details: expect.objectContaining({ command: CMD }) }),
      }),
    ]);
    await r.exit();
  });
});

describe('codex 0.169.0, finding the rollout and exiting', () => {
  it('without hooks, finds the rollout by cwd under $CODEX_HOME/sessions and records the run', async () => {
    const r = new AgentReplay('shell-deny-esc', { announceRollout: false });
    r.appendThrough('function_call');
    r.show('1-prompt');
    r.press('esc');
    await r.exit();
    expect(r.sink.rows('rejection')).toEqual([expect.objectContaining({ call_id: r.callIds()[0], tool_name: 'exec_command' })]);
    expect(r.sink.run).toEqual({
      agent_session_id: '01a20297-0b6a-77a0-a475-841e109138f8',
      agent_session_file: r.rolloutFile,
      agent_version: '0.169.0',
      agent_version_source: 'session_file',
    });
    expect(r.sink.records.map((x) => x.line_no)).toEqual(r.sink.records.map((_, i) => i + 1));
    expect(r.sink.records[0]).toMatchObject({ source_file: r.rolloutFile, byte_offset: 0, record: expect.stringContaining('"session_meta"') });
  });

  it('Codex gone with the prompt still open: an interruption of kind prompt, trigger exit; the call never ran', async () => {
    const r = atExecPrompt('tui-killed-at-prompt');
    r.show('2-final');
    await r.exit();
    expect(r.sink.rows('approval', 'rejection', 'interruption')).toEqual([
      expect.objectContaining({ type: 'interruption', kind: 'prompt', trigger: 'exit', call_id: r.callIds()[0], ran: 'no' }),
    ]);
  });
});

describe('codex 0.169.0, idle', () => {
  it('Esc or Ctrl+C with no turn running records nothing', async () => {
    const r = new AgentReplay('shell-deny-esc');
    r.hook('UserPromptSubmit', { prompt: 'SCN=shell please write the file' });
    r.appendThrough('function_call');
    r.show('1-prompt');
    r.press('esc');
    r.show('3-final');
    r.append();
    expect(r.recorder.watching).toBe(false);
    r.press('esc', 'ctrl-c');
    await r.exit();
    expect(r.sink.rows('approval', 'rejection', 'skipped', 'interruption').map((e) => e.type)).toEqual(['rejection']);
  });
});
