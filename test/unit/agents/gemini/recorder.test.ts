import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentReplay } from '../../../support/gemini/sampleReplay.js';
import { narrowed, sampleScreen } from '../../../support/gemini/samples.js';

const DENIED = '[Operation Cancelled] Reason: User denied execution.';
const ABORTED = '[Operation Cancelled] Reason: Operation cancelled by user';
const SIBLING = '[Operation Cancelled] Reason: User cancelled operation';
const NO = 'No, suggest changes (esc)';

/** A dialog on screen, with the user's prompt already in the chat file (the calls come later). */
function atDialog(sample: string, screen: string, options: { announce?: boolean } = {}): AgentReplay {
  const r = new AgentReplay(sample, options);
  r.appendThroughPrompt();
  r.show(screen);
  return r;
}

describe('gemini 0.61.0, 120x45, one shell call', () => {
  it('the dialog is a prompt event with what it shows; its call id is learned when the batch ends', async () => {
    const r = atDialog('shell-deny-option3', 'shell-deny-option3.screen-0-dialog');
    expect(r.recorder.watching).toBe(true);
    const [prompt] = r.sink.rows('prompt');
    expect(prompt).toMatchObject({
      type: 'prompt',
      kind: 'command',
      prompt: {
        title: '? Shell  touch shell_marker.txt',
        details: { tool: 'Shell', description: 'touch shell_marker.txt', command: 'touch shell_marker.txt' },
        options: [{ label: 'Allow once' }, { label: 'Allow for this session' }, { label: NO }],
      },
    });
    expect(prompt!.call_id).toBeUndefined();
    r.press('3');
    r.show('shell-deny-option3.screen-1-after');
    await r.exit();
    const [callId] = r.callIds();
    expect(r.sink.rows('prompt')[0]).toMatchObject({ call_id: callId, tool_name: 'run_shell_command' });
    expect(r.outcomes()).toEqual([
      expect.objectContaining({
        type: 'rejection',
        kind: 'command',
        trigger: 'digit',
        option_label: NO,
        call_id: callId,
        tool_input: { command: 'touch shell_marker.txt', description: 'Create a marker file' },
        ran: 'no',
        native: expect.objectContaining({
          status: 'cancelled',
          model_call_id: callId!.replace('run_shell_command__', ''),
          cancel_reason: 'User denied execution.',
          output: DENIED,
          turn_aborted: 'Request cancelled.',
        }),
        evidence: ['screen', 'keys', 'session_file'],
      }),
    ]);
  });

  it('Down, Down, Enter chooses the third option: a rejection by enter', async () => {
    const r = atDialog('shell-deny-option3', 'shell-deny-down-enter.screen-0-dialog');
    r.press('down', 'down', 'enter');
    await r.exit();
    expect(r.outcomes()).toEqual([expect.objectContaining({ type: 'rejection', trigger: 'enter', option_label: NO, call_id: r.callIds()[0] })]);
  });

  it('Enter approves once; the call ran', async () => {
    const r = atDialog('shell-approve-enter', 'shell-deny-option3.screen-0-dialog');
    r.press('enter');
    await r.exit();
    expect(r.outcomes()).toEqual([
      expect.objectContaining({ type: 'approval', trigger: 'enter', option_label: 'Allow once', scope: 'once', call_id: r.callIds()[0], ran: 'yes' }),
    ]);
  });

  it('Ctrl+C at the dialog cancels the request: a rejection by ctrl_c, Gemini\'s reason kept', async () => {
    const r = atDialog('shell-ctrlc', 'shell-ctrlc.screen-0-dialog');
    r.press('ctrl-c');
    r.show('shell-ctrlc.screen-1-after-ctrlc1');
    await r.exit();
    expect(r.outcomes()).toEqual([
      expect.objectContaining({
        type: 'rejection',
        trigger: 'ctrl_c',
        option_label: null,
        call_id: r.callIds()[0],
        ran: 'no',
        native: expect.objectContaining({ cancel_reason: 'Operation cancelled by user', output: ABORTED }),
      }),
    ]);
  });

  it('Esc in the kitty keyboard protocol (CSI 27 u) is Esc', async () => {
    const r = atDialog('shell-deny-option3', 'shell-deny-option3.screen-0-dialog');
    r.recorder.handleKey({ type: 'key', name: 'esc', bytes: Buffer.from('\x1b[27u') });
    await r.exit();
    expect(r.outcomes()).toEqual([expect.objectContaining({ type: 'rejection', trigger: 'esc', option_label: NO })]);
  });

  it('the dialog redrawn narrower after a resize is the same prompt', async () => {
    const r = atDialog('shell-deny-option3', 'shell-deny-option3.screen-0-dialog');
    r.showSnapshot(narrowed(sampleScreen('shell-deny-option3.screen-0-dialog'), 90));
    r.show('shell-deny-option3.screen-0-dialog');
    expect(r.sink.rows('prompt')).toHaveLength(1);
    r.press('3');
    await r.exit();
    expect(r.outcomes()).toHaveLength(1);
  });

  it('a key read while Gemini is half way through redrawing the dialog still decides it', async () => {
    const r = atDialog('shell-deny-option3', 'shell-deny-option3.screen-0-dialog');
    const whole = sampleScreen('shell-deny-option3.screen-0-dialog');
    // Gemini erases its area line by line before drawing it again: the box's lower half is gone.
    r.showSnapshot({ ...whole, lines: whole.lines.map((l, i) => (i >= whole.lines.length - 5 ? '' : l)) });
    r.press('3');
    await r.exit();
    expect(r.outcomes()).toEqual([expect.objectContaining({ type: 'rejection', trigger: 'digit', option_label: NO, call_id: r.callIds()[0] })]);
  });

  it('the reason is the user\'s next message after the refusal (reason_source next_message)', async () => {
    const r = atDialog('shell-esc-then-feedback', 'shell-deny-option3.screen-0-dialog');
    r.press('esc');
    await r.exit();
    expect(r.sink.rows('rejection')[0]).toMatchObject({
      trigger: 'esc',
      call_id: r.callIds()[0],
      reason: 'No - use a different file name please',
      reason_source: 'next_message',
    });
  });
});

describe('gemini 0.61.0, 120x45, parallel calls', () => {
  it('one Esc cancels the batch: a rejection for the call shown, skipped for the others', async () => {
    const r = atDialog('parallel-shell-esc', 'parallel-shell-esc.screen-0-dialog');
    r.press('esc');
    r.show('parallel-shell-esc.screen-1-after');
    await r.exit();
    const [one, two, three] = r.callIds();
    expect(r.outcomes()).toEqual([
      expect.objectContaining({ type: 'rejection', trigger: 'esc', call_id: one, ran: 'no' }),
      expect.objectContaining({ type: 'skipped', kind: 'command', call_id: two, related_call_id: one, ran: 'no', decided_by: null }),
      expect.objectContaining({ type: 'skipped', kind: 'command', call_id: three, related_call_id: one, ran: 'no', decided_by: null }),
    ]);
  });

  it('the batch\'s next dialog flashed while Gemini cancels, drawn after the file already ended the turn (a loaded screen model), is no new prompt', async () => {
    const r = atDialog('parallel-shell-esc', 'parallel-shell-esc.screen-0-dialog');
    r.press('esc');
    r.append();
    const dialog = sampleScreen('parallel-shell-esc.screen-0-dialog');
    r.showSnapshot({ ...dialog, lines: dialog.lines.map((l) => l.replace('touch one.txt', 'touch two.txt').replace('1 of 3', '2 of 3')), seq: dialog.seq + 1 });
    r.show('parallel-shell-esc.screen-1-after');
    await r.exit();
    const [one, two, three] = r.callIds();
    expect(r.sink.rows('prompt')).toHaveLength(1);
    expect(r.outcomes()).toEqual([
      expect.objectContaining({ type: 'rejection', trigger: 'esc', call_id: one, ran: 'no' }),
      expect.objectContaining({ type: 'skipped', call_id: two, related_call_id: one }),
      expect.objectContaining({ type: 'skipped', call_id: three, related_call_id: one }),
    ]);
  });

  it('Esc at the first write: the queued second write, whose dialog never showed, is skipped ("User cancelled operation")', async () => {
    const r = atDialog('parallel-esc-first', 'parallel-approve-then-esc.screen-0-dialog');
    r.press('esc');
    await r.exit();
    const [b, a] = r.callIds();
    expect(r.outcomes()).toEqual([
      expect.objectContaining({ type: 'rejection', kind: 'edit', call_id: a, tool_input: { file_path: 'a.txt', content: 'alpha\n' } }),
      expect.objectContaining({ type: 'skipped', kind: 'edit', call_id: b, related_call_id: a, native: expect.objectContaining({ output: SIBLING }) }),
    ]);
  });

  it('approve the first write, Esc at the second: each has its own decision', async () => {
    const r = atDialog('parallel-approve-then-esc', 'parallel-approve-then-esc.screen-0-dialog');
    r.press('enter');
    r.show('parallel-approve-then-esc.screen-1-second-dialog');
    r.press('esc');
    r.show('parallel-approve-then-esc.screen-2-after');
    await r.exit();
    const [a, b] = r.callIds();
    expect(r.sink.rows('prompt').map((p) => p.call_id)).toEqual([a, b]);
    expect(r.outcomes()).toEqual([
      expect.objectContaining({ type: 'approval', call_id: a, ran: 'yes' }),
      expect.objectContaining({ type: 'rejection', kind: 'edit', trigger: 'esc', call_id: b, ran: 'no' }),
    ]);
  });
});

describe('gemini 0.61.0, 120x45, interruptions', () => {
  for (const [sample, keyName, trigger] of [
    ['long-esc-running', 'esc', 'esc'],
    ['long-ctrlc-running', 'ctrl-c', 'ctrl_c'],
  ] as const) {
    it(`${keyName} while an approved command runs: an interruption of kind tool, tied to the call once it is read`, async () => {
      const r = atDialog(sample, 'long-esc-running.screen-0-dialog');
      r.press('enter');
      r.show('long-esc-running.screen-1-running');
      r.press(keyName);
      r.show('long-esc-running.screen-2-after');
      await r.exit();
      const [callId] = r.callIds();
      expect(r.outcomes()).toEqual([
        // The screen showed it running (⊷) when it was cut: it had started.
        expect.objectContaining({ type: 'approval', call_id: callId, ran: 'yes' }),
        expect.objectContaining({
          type: 'interruption',
          kind: 'tool',
          trigger,
          call_id: callId,
          related_call_id: callId,
          native: expect.objectContaining({ cancel_reason: 'Operation cancelled by user', turn_aborted: 'Request cancelled.' }),
        }),
      ]);
    });
  }

  for (const [sample, keyName, trigger] of [
    ['stream-esc', 'esc', 'esc'],
    ['stream-ctrlc', 'ctrl-c', 'ctrl_c'],
  ] as const) {
    it(`${keyName} while an answer streams: an interruption of kind response with the answer shown so far`, async () => {
      const r = new AgentReplay(sample);
      r.appendThroughPrompt();
      r.show('stream-esc.screen-0-dialog');
      r.press(keyName);
      await r.exit();
      expect(r.outcomes()).toEqual([
        expect.objectContaining({
          type: 'interruption',
          kind: 'response',
          trigger,
          partial_output: 'Streaming chunk 1 of 40. Streaming chunk 2 of 40. Streaming chunk 3 of 40. Streaming chunk 4 of 40.',
          native: { turn_aborted: 'Request cancelled.' },
        }),
      ]);
      expect(r.outcomes()[0]!.call_id).toBeUndefined();
    });
  }

  it('Esc and Ctrl+C at the empty composer record nothing', async () => {
    const r = new AgentReplay('shell-approve-enter');
    r.show('shell-ctrlc.screen-2-after');
    r.press('esc', 'ctrl-c');
    await r.exit();
    expect(r.outcomes()).toEqual([]);
  });
});

describe('gemini 0.61.0, the chat file', () => {
  it('every record is copied as it is read; the run row gets the session id, the file and the installed version', async () => {
    const r = atDialog('shell-deny-option3', 'shell-deny-option3.screen-0-dialog');
    r.press('3');
    const file = r.chatFile;
    await r.exit();
    expect(r.sink.records.map((x) => x.line_no)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(r.sink.records.every((x) => x.source_file === file)).toBe(true);
    expect(r.sink.run).toMatchObject({ agent_session_id: 'b76bacea-c965-4519-a935-038f53f9e797', agent_session_file: file, agent_version: '0.61.0' });
  });

  it('without a hook, the newest chat file of the project is followed once the screen shows one of its user messages', async () => {
    const r = atDialog('shell-deny-option3', 'shell-deny-option3.screen-0-dialog', { announce: false });
    r.press('3');
    await r.exit();
    expect(r.sink.run.agent_session_file).toBe(r.chatFile);
    expect(r.outcomes()).toEqual([expect.objectContaining({ type: 'rejection', call_id: r.callIds()[0] })]);
  });

  it('a refused edit: the file on disk is checked (as before: ran no; changed anyway: ran yes)', async () => {
    for (const [content, ran, disk] of [
      ['first line\nold line\nlast line\n', 'no', 'as_before'],
      ['first line\nnew line\nlast line\n', 'yes', 'as_proposed'],
    ] as const) {
      const r = atDialog('edit-esc', 'edit-approve.screen-0-dialog');
      writeFileSync(join(r.cwd, 'edit_me.txt'), content);
      r.press('esc');
      await r.exit();
      expect(r.outcomes()).toEqual([expect.objectContaining({ type: 'rejection', kind: 'edit', ran, native: expect.objectContaining({ file_on_disk: disk }) })]);
    }
  });
});
