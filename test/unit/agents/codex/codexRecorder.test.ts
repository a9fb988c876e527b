import { describe, expect, it } from 'vitest';
import { CodexReplay } from './codexReplay.js';

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
function atExecPrompt(sample: string): CodexReplay {
  const r = new CodexReplay(sample);
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
