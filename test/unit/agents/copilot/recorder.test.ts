// The CopilotRecorder on recordings of the real GitHub Copilot CLI 1.0.102: the recorded frames shown
// in order, the recorded keys handed over, events.jsonl appended as Copilot wrote it around them
// (test/support/copilot/sampleReplay.ts). Each case asserts the rows rec must write, with the call
// ids of the session file.
import { describe, expect, it } from 'vitest';
import { REASON } from '../../../../src/agents/copilot/bench/mockScenarios.js';
import { CopilotReplay } from '../../../support/copilot/sampleReplay.js';

const NO_AND_TELL = 'No, and tell Copilot what to do differently (Esc to stop)';
const decisions = (r: CopilotReplay) => r.sink.rows('approval', 'rejection', 'skipped', 'interruption');

describe('copilot 1.0.102, 120x40, the shell prompt', () => {
  it('1 approves once: a prompt row and an approval with the call id, and the call ran', async () => {
    const r = new CopilotReplay('bash-approve-digit');
    const [callId] = r.callIds();
    r.appendThrough('permission.requested');
    r.show('prompt');
    expect(r.sink.rows('prompt')).toEqual([expect.objectContaining({ type: 'prompt', kind: 'command', call_id: callId, tool_name: 'bash' })]);
    r.press('1');
    r.appendThrough('tool.execution_complete');
    r.show('after');
    await r.exit();
    expect(decisions(r)).toEqual([
      expect.objectContaining({ type: 'approval', decided_by: 'user', trigger: 'digit', option_label: 'Yes', scope: 'once', call_id: callId, ran: 'yes', prompt_event_id: r.sink.rows('prompt')[0]!.id }),
    ]);
    expect(r.sink.rows('miss')).toEqual([]);
  });

  it('2, a typed reason, Enter: a rejection with the reason Copilot stored, inline; the call did not run', async () => {
    const r = new CopilotReplay('bash-reject-reason');
    const [callId] = r.callIds();
    r.appendThrough('permission.requested');
    r.show('prompt');
    r.press('2');
    r.press(...REASON);
    r.show('reason-typed');
    r.press('enter');
    r.appendThrough('tool.execution_complete');
    r.show('after');
    await r.exit();
    expect(decisions(r)).toEqual([
      expect.objectContaining({ type: 'rejection', kind: 'command', decided_by: 'user', option_label: NO_AND_TELL, call_id: callId, ran: 'no', reason: REASON, reason_source: 'inline' }),
    ]);
    expect(r.sink.rows('miss')).toEqual([]);
  });

  it('Esc: a rejection with trigger esc and no option; the turn ends', async () => {
    const r = new CopilotReplay('bash-reject-esc');
    const [callId] = r.callIds();
    r.appendThrough('permission.requested');
    r.show('prompt');
    r.press('esc');
    r.appendThrough('abort');
    r.show('after');
    await r.exit();
    expect(decisions(r)).toEqual([expect.objectContaining({ type: 'rejection', kind: 'command', decided_by: 'user', trigger: 'esc', option_label: null, call_id: callId, ran: 'no' })]);
    expect(r.sink.rows('miss')).toEqual([]);
  });
});

describe('copilot 1.0.102, a queue of three prompts', () => {
  it('1 at the first, Esc at the second: one approval that ran, the second refused, the third skipped after it', async () => {
    const r = new CopilotReplay('parallel-second-esc');
    r.appendThrough('permission.requested', 3);
    r.show('prompt');
    r.press('1');
    r.appendThrough('tool.execution_complete');
    r.show('second-prompt');
    r.press('esc');
    r.appendThrough('abort');
    r.show('after');
    await r.exit();
    const rows = decisions(r);
    expect(rows.map((e) => e.type)).toEqual(['approval', 'rejection', 'skipped']);
    const [approval, rejection, skipped] = rows;
    expect(approval).toMatchObject({ trigger: 'digit', ran: 'yes' });
    expect(rejection).toMatchObject({ trigger: 'esc', ran: 'no' });
    expect(skipped).toMatchObject({ related_call_id: rejection!.call_id });
    expect(new Set(rows.map((e) => e.call_id)).size).toBe(3);
    expect(r.callIds()).toEqual(expect.arrayContaining(rows.map((e) => e.call_id)));
    expect(r.sink.rows('miss')).toEqual([]);
  });
});

describe('copilot 1.0.102, cutting a turn', () => {
  it('Esc, Esc while an approved command runs: the first Esc only arms, the second is one interruption of the call', async () => {
    const r = new CopilotReplay('sleep-esc-esc-running');
    const [callId] = r.callIds();
    r.appendThrough('permission.requested');
    r.show('prompt');
    r.press('1');
    r.appendThrough('permission.completed');
    r.show('running');
    r.press('esc');
    expect(r.sink.rows('interruption')).toEqual([]);
    r.show('esc-once');
    r.press('esc');
    r.appendThrough('abort');
    r.show('after');
    await r.exit();
    expect(decisions(r)).toEqual([
      expect.objectContaining({ type: 'approval', call_id: callId }),
      expect.objectContaining({ type: 'interruption', kind: 'tool', trigger: 'esc', call_id: callId }),
    ]);
    expect(r.sink.rows('miss')).toEqual([]);
  });
});

describe('copilot 1.0.102, rules', () => {
  it("--deny-tool 'shell(rm)': a rejection decided by the rule, no prompt, no key", async () => {
    const r = new CopilotReplay('deny-tool-rule');
    const [callId] = r.callIds();
    r.show('prompt');
    await r.exit();
    expect(decisions(r)).toEqual([expect.objectContaining({ type: 'rejection', decided_by: 'rule', trigger: 'rule', call_id: callId, ran: 'no' })]);
    expect(r.sink.rows('prompt')).toEqual([]);
  });
});
