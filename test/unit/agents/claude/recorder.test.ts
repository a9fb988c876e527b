import { describe, expect, it } from 'vitest';
import { AgentReplay, IDLE_PANE } from '../../../support/claude/sampleReplay.js';

const BASH_INPUT = { command: 'echo mock-bash-ran > <SCRATCH>/ws/bash-out.txt', description: 'Write a marker file' };
const REJECT_STOP = /^The user doesn't want to proceed with this tool use\..*STOP what you are doing/;
const decisions = (r: AgentReplay) => r.sink.rows('approval', 'rejection', 'skipped', 'interruption');

/** A Bash prompt on screen with its tool_use already in the transcript. */
function atBashPrompt(sample: string, screen = 'bash-approve--screen-prompt'): AgentReplay {
  const r = new AgentReplay(sample);
  r.appendThroughCall();
  r.show(screen);
  return r;
}

describe('claude 2.1.330, Bash permission prompt', () => {
  it('records the prompt as shown, with the call it is about (tool_use id, name, input)', async () => {
    const r = atBashPrompt('01-bash-approve');
    expect(r.recorder.watching).toBe(true);
    expect(r.sink.rows('prompt')).toEqual([
      expect.objectContaining({
        kind: 'command',
        call_id: r.callIds()[0],
        tool_name: 'Bash',
        tool_input: BASH_INPUT,
        prompt: {
          title: 'Bash command',
          details: { description: 'Write a marker file', question: 'Do you want to proceed?', command: BASH_INPUT.command },
          options: [
            { label: 'Yes' },
            { label: 'Yes, and always allow access to <SCRATCH>/ws from this project' },
            { label: 'Yes, and switch to auto mode · auto mode handles these prompts for you' },
            { label: 'No' },
          ],
        },
      }),
    ]);
    expect(r.sink.run).toMatchObject({ agent_session_id: '7c9876ed-9741-42c2-83ab-75da0d31c136' });
    await r.exit();
  });

  it('1 approves once; the transcript’s permissionDecision and output complete it', async () => {
    const r = atBashPrompt('01-bash-approve');
    r.press('1');
    r.showText(IDLE_PANE);
    await r.exit();
    expect(decisions(r)).toEqual([
      expect.objectContaining({
        type: 'approval',
        decided_by: 'user',
        trigger: 'digit',
        option_label: 'Yes',
        scope: 'once',
        call_id: r.callIds()[0],
        ran: 'yes',
        native: expect.objectContaining({ permissionDecision: expect.objectContaining({ decision: 'accept', grantScope: 'once' }) }),
        evidence: ['screen', 'keys', 'session_file'],
      }),
    ]);
  });

  it('4 (No) rejects; Claude’s rejection text and fields are kept in native; no next-message reason', async () => {
    const r = atBashPrompt('02-bash-reject-No');
    r.press('4');
    r.showText(IDLE_PANE);
    await r.exit();
    expect(decisions(r)).toEqual([
      expect.objectContaining({
        type: 'rejection',
        kind: 'command',
        trigger: 'digit',
        option_label: 'No',
        reason_source: 'none',
        ran: 'no',
        call_id: r.callIds()[0],
        native: expect.objectContaining({ output: expect.stringMatching(REJECT_STOP), toolDenialKind: 'user-rejected', toolDenialBeforeRun: true, turn_aborted: '[Request interrupted by user for tool use]' }),
      }),
    ]);
    expect(decisions(r)[0]!.reason ?? null).toBeNull();
  });

  it('Esc rejects with trigger esc (the transcript is byte-identical to No: only the keys tell)', async () => {
    const r = atBashPrompt('03-bash-reject-Esc');
    r.press('esc');
    r.showText(IDLE_PANE);
    await r.exit();
    expect(decisions(r)).toEqual([expect.objectContaining({ type: 'rejection', trigger: 'esc', option_label: null, reason_source: 'none', call_id: r.callIds()[0] })]);
  });

  it('Down ×3 then Enter rejects with the highlighted No', async () => {
    const r = atBashPrompt('04-bash-reject-arrows-Enter');
    r.press('down', 'down', 'down');
    r.show('bash-no-arrows--screen-sel');
    r.press('enter');
    await r.exit();
    expect(decisions(r)).toEqual([expect.objectContaining({ type: 'rejection', trigger: 'enter', option_label: 'No' })]);
  });

  it('Ctrl+C at the prompt records nothing; Tab, a typed reason and Enter reject with the reason Claude stored (inline)', async () => {
    const r = atBashPrompt('05-bash-reject-with-reason');
    r.press('ctrl-c', 'ctrl-c');
    expect(decisions(r)).toEqual([]);
    r.press('down', 'down', 'down', 'tab');
    r.show('bash-amend-then-esc--screen-typed');
    r.press('p', 'l', 'e', 'a', 's', 'e', '4');
    expect(decisions(r)).toEqual([]);
    r.press('enter');
    r.showText(IDLE_PANE);
    await r.exit();
    expect(decisions(r)).toEqual([
      expect.objectContaining({
        type: 'rejection',
        trigger: 'tab',
        option_label: 'No',
        reason: 'please use printf instead',
        reason_source: 'inline',
        call_id: r.callIds()[0],
        native: expect.objectContaining({ permissionDecision: expect.objectContaining({ decision: 'reject', source: 'user_reject' }) }),
      }),
    ]);
  });

  it('Tab, a reason with digits in it, and Enter before the screen model shows the field: still trigger tab and the reason inline', async () => {
    // The keys run ahead of the screen model (the agent's echo is still being parsed): none of the
    // typed characters may choose an option, and Enter submits the field the keys opened.
    const r = atBashPrompt('05-bash-reject-with-reason');
    r.press('down', 'down', 'down', 'tab', 'u', 's', 'e', ' ', '1');
    expect(decisions(r)).toEqual([]);
    r.press('enter');
    r.showText(IDLE_PANE);
    await r.exit();
    expect(decisions(r)).toEqual([
      expect.objectContaining({ type: 'rejection', trigger: 'tab', option_label: 'No', reason: 'please use printf instead', reason_source: 'inline', call_id: r.callIds()[0] }),
    ]);
  });

  it('Tab on an option without a field opens nothing: a digit after it still decides', async () => {
    const r = atBashPrompt('01-bash-approve');
    r.press('down', 'tab', '1');
    r.showText(IDLE_PANE);
    await r.exit();
    expect(decisions(r)).toEqual([expect.objectContaining({ type: 'approval', trigger: 'digit', option_label: 'Yes' })]);
  });

  it('Tab, text typed and all of it erased, then Enter: a plain No (nothing typed)', async () => {
    const r = atBashPrompt('02-bash-reject-No');
    r.press('down', 'down', 'down', 'tab', 'a', 'b', 'backspace', 'backspace', 'enter');
    r.showText(IDLE_PANE);
    await r.exit();
    expect(decisions(r)).toEqual([expect.objectContaining({ type: 'rejection', trigger: 'enter', option_label: 'No', reason_source: 'none' })]);
  });

  it('Tab, typed text, then Esc: a rejection that says a reason was typed inline and thrown away, without its text', async () => {
    const r = atBashPrompt('06-bash-amend-then-Esc');
    r.press('down', 'down', 'down', 'tab');
    r.show('bash-amend-then-esc--screen-typed');
    r.press('t', 'y', 'p', 'e', 'd');
    r.press('esc');
    r.showText(IDLE_PANE);
    await r.exit();
    const rows = decisions(r);
    expect(rows).toEqual([expect.objectContaining({ type: 'rejection', trigger: 'esc', option_label: null, reason_source: 'inline', call_id: r.callIds()[0] })]);
    expect(rows[0]!.reason ?? null).toBeNull();
    expect(JSON.stringify(r.sink.events)).not.toContain('typed but not submitted');
  });
});

describe('claude 2.1.330, interruptions', () => {
  it('Enter then Esc on the running Bash: the approval, then an interruption of kind tool (the transcript’s "rejected" kept in native)', async () => {
    const r = new AgentReplay('07-bash-running-Esc');
    r.appendThroughCall();
    r.show('sleep-esc--screen-prompt');
    r.press('enter');
    r.show('sleep-esc--screen-running');
    r.press('esc');
    r.showText(IDLE_PANE);
    await r.exit();
    const [callId] = r.callIds();
    expect(decisions(r)).toEqual([
      expect.objectContaining({ type: 'approval', trigger: 'enter', option_label: 'Yes', call_id: callId, ran: 'yes' }),
      expect.objectContaining({
        type: 'interruption',
        kind: 'tool',
        trigger: 'esc',
        call_id: callId,
        related_call_id: callId,
        native: expect.objectContaining({ toolDenialKind: 'user-rejected', output: expect.stringMatching(REJECT_STOP) }),
      }),
    ]);
    expect(r.sink.rows('rejection')).toEqual([]);
  });

  it('Ctrl+C on the running Bash interrupts too, with trigger ctrl_c', async () => {
    const r = new AgentReplay('08-bash-running-CtrlC');
    r.appendThroughCall();
    r.show('sleep-esc--screen-prompt');
    r.press('enter');
    r.show('sleep-esc--screen-running');
    r.press('ctrl-c');
    await r.exit();
    expect(r.sink.rows('interruption')).toEqual([expect.objectContaining({ kind: 'tool', trigger: 'ctrl_c', related_call_id: r.callIds()[0] })]);
  });

  it('Esc while the reply streams: kind response, pointing at the partial message Claude kept (isAbortedMidStream)', async () => {
    const r = new AgentReplay('09-text-streaming-Esc');
    r.appendThrough('SCENARIO slowtext');
    r.show('slowtext-esc--screen-streaming');
    r.press('esc');
    await r.exit();
    expect(r.sink.rows('interruption')).toEqual([
      expect.objectContaining({
        kind: 'response',
        trigger: 'esc',
        native: { turn_aborted: '[Request interrupted by user]', interruptedMessageId: 'msg_mockmwrn2s7y001e', isAbortedMidStream: true },
      }),
    ]);
  });
});

describe('claude 2.1.330, an answer cut while its mark blinks', () => {
  it('Esc on a frame where the answer\'s ● is blanked: partial_output is the answer text last shown in this turn', async () => {
    const r = new AgentReplay('09-text-streaming-Esc');
    r.appendThrough('SCENARIO slowtext');
    const frame = (bullet: string) => [
      '❯ SCENARIO slowtext',
      '',
      `${bullet} word0 word1 word2 word3`,
      '',
      '✽ Burrowing… (3s · ↓ 10 tokens)',
      '',
      '─'.repeat(120),
      '❯ ',
      '─'.repeat(120),
      '  ⏸ manual mode on · esc to interrupt',
    ];
    r.showText(frame('●'));
    r.showText(frame(' '));
    r.press('esc');
    await r.exit();
    expect(r.sink.rows('interruption')).toEqual([expect.objectContaining({ kind: 'response', trigger: 'esc', partial_output: 'word0 word1 word2 word3' })]);
  });
});

describe('claude 2.1.330, parallel calls and refusals no person made', () => {
  it('No on the first of three: that call is the rejection, its unprompted siblings are skipped because of it', async () => {
    const r = new AgentReplay('13-parallel-reject-first-No');
    r.appendThroughCall(3);
    r.show('par-approve--screen-prompt');
    r.press('3');
    r.showText(IDLE_PANE);
    await r.exit();
    const [first, second, third] = r.callIds();
    expect(decisions(r)).toEqual([
      expect.objectContaining({ type: 'rejection', kind: 'edit', trigger: 'digit', option_label: 'No', call_id: first }),
      expect.objectContaining({ type: 'skipped', kind: 'edit', call_id: second, related_call_id: first, ran: 'no', decided_by: null }),
      expect.objectContaining({ type: 'skipped', kind: 'command', call_id: third, related_call_id: first, ran: 'no' }),
    ]);
  });

  it('a deny rule refuses with no prompt: a rejection decided by a rule, kind permission', async () => {
    const r = new AgentReplay('19-deny-rule');
    await r.exit();
    expect(decisions(r)).toEqual([
      expect.objectContaining({ type: 'rejection', kind: 'permission', decided_by: 'rule', trigger: 'rule', ran: 'no', call_id: r.callIds()[0], evidence: ['session_file'] }),
    ]);
  });

  it('a PreToolUse hook’s denial: decided by the hook', async () => {
    const r = new AgentReplay('20-pretooluse-hook-deny');
    await r.exit();
    expect(decisions(r)).toEqual([expect.objectContaining({ type: 'rejection', kind: 'permission', decided_by: 'hook', trigger: 'hook' })]);
  });
});

describe('claude 2.1.330, hooks', () => {
  it('PreToolUse gives the call before the transcript does; PostToolUse and the transcript then say it ran', async () => {
    const r = new AgentReplay('01-bash-approve');
    r.fireHooks('01-bash-approve', ['UserPromptSubmit', 'PreToolUse', 'PermissionRequest']);
    r.show('bash-approve--screen-prompt');
    expect(r.sink.rows('prompt')).toEqual([expect.objectContaining({ call_id: 'toolu_mockmwrmx4og0003', tool_name: 'Bash', evidence: ['screen', 'hook'] })]);
    r.press('1');
    await r.exit();
    expect(r.sink.rows('approval')).toEqual([expect.objectContaining({ call_id: 'toolu_mockmwrmx4og0003', ran: 'yes' })]);
  });
});

describe('claude 2.1.330, a refusal whose call no witness told yet', () => {
  // Seen once on a loaded machine (CI): the PreToolUse hook of the refused call never came, the
  // transcript trailed, and the refusal was tied to the call of the user's next turn, whose hook
  // came first. A call a hook tells after the user spoke again is of a later turn.
  const COMMAND = 'echo mock-bash-ran > <SCRATCH>/ws/bash-out.txt';
  const hookOf = (r: AgentReplay) => (event: string, payload: Record<string, unknown>) =>
    r.hooks.fire({ agent: 'claude', event, payload: { hook_event_name: event, ...payload }, sent_at: '2026-11-22T09:28:00.000Z' });

  it('is not tied to a call a hook tells once the user sent the next message; the next prompt takes that call', async () => {
    const r = new AgentReplay('01-bash-approve', { announceTranscript: false });
    const hook = hookOf(r);
    r.show('bash-approve--screen-prompt');
    r.press('esc');
    r.show('bash-no--screen-after');
    r.press('enter');
    hook('PreToolUse', { tool_name: 'Bash', tool_input: { command: COMMAND }, tool_use_id: 'toolu_next_turn' });
    expect(r.sink.rows('rejection').map((e) => e.call_id ?? null)).toEqual([null]);
    r.show('bash-approve--screen-prompt');
    r.press('1');
    expect(r.sink.rows('approval')).toEqual([expect.objectContaining({ call_id: 'toolu_next_turn' })]);
    expect(r.sink.rows('rejection').map((e) => e.call_id ?? null)).toEqual([null]);
    r.dispose();
  });

  it('is tied to a call a hook tells before the user spoke again (the hook only came late)', async () => {
    const r = new AgentReplay('01-bash-approve', { announceTranscript: false });
    const hook = hookOf(r);
    r.show('bash-approve--screen-prompt');
    r.press('esc');
    hook('PreToolUse', { tool_name: 'Bash', tool_input: { command: COMMAND }, tool_use_id: 'toolu_late_hook' });
    expect(r.sink.rows('rejection')).toEqual([expect.objectContaining({ call_id: 'toolu_late_hook' })]);
    r.dispose();
  });
});

describe('claude 2.1.330, hooks that carry what the transcript has not said yet', () => {
  it('PostToolBatch carries the reason typed after Tab (before the transcript is read)', async () => {
    const r = new AgentReplay('05-bash-reject-with-reason', { announceTranscript: false });
    r.fireHooks('05-bash-CtrlC-ignored-then-reject-with-reason', ['PreToolUse']);
    r.show('bash-approve--screen-prompt');
    r.press('down', 'down', 'down', 'tab');
    r.show('bash-amend-then-esc--screen-typed');
    r.press('enter');
    r.fireHooks('05-bash-CtrlC-ignored-then-reject-with-reason', ['PostToolBatch']);
    expect(r.sink.rows('rejection')).toEqual([expect.objectContaining({ trigger: 'tab', reason: 'please use printf instead', reason_source: 'inline' })]);
    await r.exit();
  });

  it('PermissionDenied (the auto-mode classifier) refuses with decided_by reviewer; a call a prompt decided is left to it', async () => {
    const r = new AgentReplay('01-bash-approve');
    const hook = (event: string, payload: Record<string, unknown>) => r.hooks.fire({ agent: 'claude', event, payload: { hook_event_name: event, ...payload }, sent_at: '2026-11-22T09:28:00.000Z' });
    hook('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'rm -rf build' }, tool_use_id: 'toolu_classified' });
    hook('PermissionDenied', { tool_name: 'Bash', tool_input: { command: 'rm -rf build' }, tool_use_id: 'toolu_classified', reason: 'destructive' });
    expect(r.sink.rows('rejection')).toEqual([expect.objectContaining({ call_id: 'toolu_classified', decided_by: 'reviewer', trigger: null, reason: 'destructive', reason_source: 'reviewer', kind: 'command', ran: 'no', evidence: ['hook'] })]);
    await r.exit();
  });
});
