// The CopilotRecorder on recordings of the real GitHub Copilot CLI 1.0.102: the recorded frames shown
// in order, the recorded keys handed over, events.jsonl appended as Copilot wrote it around them
// (test/support/copilot/sampleReplay.ts). Each case asserts the rows rec must write, with the call
// ids of the session file.
import { describe, expect, it } from 'vitest';
import { REASON } from '../../../../src/agents/copilot/bench/mockScenarios.js';
import { AgentReplay } from '../../../support/copilot/sampleReplay.js';
import { VirtualClock } from '../../../support/virtualClock.js';

const NO_AND_TELL = 'No, and tell Copilot what to do differently (Esc to stop)';
const decisions = (r: AgentReplay) => r.sink.rows('approval', 'rejection', 'skipped', 'interruption');

describe('copilot 1.0.102, 120x40, the shell prompt', () => {
  it('1 approves once: a prompt row and an approval with the call id, and the call ran', async () => {
    const r = new AgentReplay('bash-approve-digit');
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
    const r = new AgentReplay('bash-reject-reason');
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
    const r = new AgentReplay('bash-reject-esc');
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

describe('copilot 1.0.102, keys and a screen model that lags the output', () => {
  it('1 sent the instant the prompt is drawn, while rec\'s screen model has not parsed it yet: the key waits for the model and approves that prompt', async () => {
    const clock = new VirtualClock(Date.now());
    const r = new AgentReplay('bash-approve-digit', undefined, undefined, clock);
    const [callId] = r.callIds();
    r.show('start');
    // Long after the last frame rec read: no frame was being drawn as far as the clock tells.
    await clock.advanceTo(clock.now() + 5_000);
    r.appendThrough('permission.requested');
    r.screen.lag();
    r.press('1');
    expect(decisions(r)).toEqual([]);
    r.show('prompt');
    r.screen.catchUp();
    r.appendThrough('tool.execution_complete');
    r.show('after');
    await r.exit();
    expect(decisions(r)).toEqual([expect.objectContaining({ type: 'approval', trigger: 'digit', option_label: 'Yes', call_id: callId })]);
    expect(r.sink.rows('miss')).toEqual([]);
  });

  it('a key rec never saw answered the prompt (the file says approved): Ctrl+C on the idle screen after it refuses nothing', async () => {
    const clock = new VirtualClock(Date.now());
    const r = new AgentReplay('bash-approve-digit', undefined, undefined, clock);
    r.appendThrough('permission.requested');
    r.show('prompt');
    // Copilot took a "1" rec did not read as an answer: its file tells the approval, the prompt is gone.
    r.appendThrough('tool.execution_complete');
    r.show('idle');
    await clock.advanceTo(clock.now() + 1_000);
    r.press('ctrl-c');
    await r.exit();
    // The prompt stays without a decision: no rejection made of the quit's Ctrl+C.
    expect(decisions(r)).toEqual([]);
    expect(r.sink.rows('prompt')).toHaveLength(1);
  });
});

/**
 * The file as Copilot also writes it after Esc at a prompt (seen on the real 1.0.102 under rec, one
 * run in a few): the turn's `abort` before the cancelled call's `permission.completed`.
 */
function abortFirst(lines: string[]): string[] {
  const typeOf = (l: string) => (JSON.parse(l) as { type: string }).type;
  const abort = lines.findIndex((l) => typeOf(l) === 'abort');
  const firstCancel = lines.findIndex((l) => typeOf(l) === 'permission.completed' && l.includes('"kind":"cancelled"'));
  if (abort < 0 || firstCancel < 0 || firstCancel > abort) throw new Error('no cancel before the abort to move');
  const out = lines.filter((_, i) => i !== abort);
  out.splice(firstCancel, 0, lines[abort]!);
  return out;
}

describe('copilot 1.0.102, the abort written before the cancelled calls', () => {
  it('Esc, the file read only after the key: the refusal of the call on screen, with its call id, never a call that ran', async () => {
    const r = new AgentReplay('bash-reject-esc', undefined, abortFirst);
    const [callId] = r.callIds();
    r.appendThrough('user.message');
    r.show('prompt');
    r.press('esc');
    r.appendThrough();
    r.show('after');
    await r.exit();
    expect(r.sink.rows('prompt')).toEqual([expect.objectContaining({ call_id: callId })]);
    expect(decisions(r)).toEqual([expect.objectContaining({ type: 'rejection', trigger: 'esc', call_id: callId, ran: 'no' })]);
    expect(r.sink.rows('miss')).toEqual([]);
  });

  it('a queue, Esc at the first prompt: the one on screen refused, the others skipped after it', async () => {
    const r = new AgentReplay('hooks-parallel-esc', undefined, abortFirst);
    r.appendThrough('permission.requested', 3);
    r.show('prompt');
    r.press('esc');
    r.appendThrough();
    r.show('after');
    await r.exit();
    const rows = decisions(r);
    expect(rows.map((e) => e.type)).toEqual(['rejection', 'skipped', 'skipped']);
    expect(rows[0]).toMatchObject({ trigger: 'esc', ran: 'no' });
    expect(rows.slice(1).map((e) => e.related_call_id)).toEqual([rows[0]!.call_id, rows[0]!.call_id]);
  });
});

describe('copilot 1.0.102, a prompt drawn before its permission.requested is read', () => {
  it.each([
    ['create-reject-esc', 'edit'],
    ['path-reject-esc', 'permission'],
    ['mcp-reject-esc', 'mcp'],
  ] as const)('%s: the prompt and its refusal get the call from its own input', async (name, kind) => {
    const r = new AgentReplay(name);
    const callId = r.callIds().at(-1);
    r.appendThrough('tool.execution_start', r.callIds().length);
    r.show('prompt');
    r.press('esc');
    r.appendThrough();
    r.show('after');
    await r.exit();
    expect(r.sink.rows('prompt')).toEqual([expect.objectContaining({ kind, call_id: callId })]);
    expect(decisions(r)).toEqual([expect.objectContaining({ type: 'rejection', kind, trigger: 'esc', call_id: callId, ran: 'no' })]);
  });
});

describe('copilot 1.0.102, a queue of three prompts', () => {
  it('1 at the first, Esc at the second: one approval that ran, the second refused, the third skipped after it', async () => {
    const r = new AgentReplay('parallel-second-esc');
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
    const r = new AgentReplay('sleep-esc-esc-running');
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
    const r = new AgentReplay('deny-tool-rule');
    const [callId] = r.callIds();
    r.show('prompt');
    await r.exit();
    expect(decisions(r)).toEqual([expect.objectContaining({ type: 'rejection', decided_by: 'rule', trigger: 'rule', call_id: callId, ran: 'no' })]);
    expect(r.sink.rows('prompt')).toEqual([]);
  });
});

/** One step of a recording replayed: its events up to a line, a frame, the keys the recording sent. */
type Step = readonly ['lines', string, number?] | readonly ['show', string] | readonly ['press', ...string[]];

async function replay(name: string, steps: readonly Step[]): Promise<AgentReplay> {
  const r = new AgentReplay(name);
  for (const step of steps) {
    if (step[0] === 'lines') r.appendThrough(step[1], step[2] ?? 1);
    else if (step[0] === 'show') r.show(step[1]);
    else r.press(...step.slice(1));
  }
  await r.exit();
  return r;
}

/** At the one prompt: its request written, the prompt shown, the keys, then the rest. */
const atPrompt = (...keys: string[]): Step[] => [['lines', 'permission.requested'], ['show', 'prompt'], ['press', ...keys], ['lines', 'permission.completed'], ['show', 'after']];
const typed = [...REASON];

describe('copilot 1.0.102, every prompt and key the recordings hold', () => {
  it.each([
    ['bash-approve-enter', atPrompt('enter'), [{ type: 'approval', kind: 'command', trigger: 'enter', option_label: 'Yes', scope: 'once', ran: 'yes' }]],
    ['bash-approve-arrows', [['lines', 'permission.requested'], ['show', 'prompt'], ['press', 'down'], ['show', 'down'], ['press', 'enter'], ['show', 'enter-on-empty-no'], ['press', 'up'], ['show', 'up'], ['press', 'enter'], ['lines', 'permission.completed'], ['show', 'after']], [{ type: 'approval', trigger: 'enter', option_label: 'Yes', ran: 'yes' }]],
    ['bash-pipe-approve', atPrompt('1'), [{ type: 'approval', kind: 'command', trigger: 'digit', ran: 'yes' }]],
    ['bash-reject-ctrlc', atPrompt('ctrl-c'), [{ type: 'rejection', kind: 'command', trigger: 'ctrl_c', ran: 'no' }]],
    ['bash-and-reject-esc', atPrompt('esc'), [{ type: 'rejection', kind: 'command', trigger: 'esc', ran: 'no' }]],
    // The reason typed is thrown away by Esc: typed, so `inline`, and none kept.
    ['bash-reject-reason-esc', [['lines', 'permission.requested'], ['show', 'prompt'], ['press', '2', ...typed], ['show', 'reason-typed'], ['press', 'esc'], ['lines', 'abort'], ['show', 'after']], [{ type: 'rejection', trigger: 'esc', reason_source: 'inline', ran: 'no' }]],
    ['bash-approve-location', atPrompt('2'), [{ type: 'approval', kind: 'command', trigger: 'digit', scope: 'always', ran: 'yes' }]],
    ['create-approve', atPrompt('1'), [{ type: 'approval', kind: 'edit', trigger: 'digit', scope: 'once', ran: 'yes' }]],
    ['create-reject-esc', atPrompt('esc'), [{ type: 'rejection', kind: 'edit', trigger: 'esc', ran: 'no' }]],
    ['create-approve-location', atPrompt('2'), [{ type: 'approval', kind: 'edit', scope: 'always', ran: 'yes' }]],
    ['edit-reject-reason', [['lines', 'permission.requested'], ['show', 'prompt'], ['press', '3', ...typed], ['show', 'reason-typed'], ['press', 'enter'], ['lines', 'tool.execution_complete', 2], ['show', 'after']], [{ type: 'rejection', kind: 'edit', reason: REASON, reason_source: 'inline', ran: 'no' }]],
    ['path-reject-digit', atPrompt('4'), [{ type: 'rejection', kind: 'permission', trigger: 'digit', option_label: 'No (Esc)', ran: 'no' }]],
    ['path-reject-esc', atPrompt('esc'), [{ type: 'rejection', kind: 'permission', trigger: 'esc', ran: 'no' }]],
    ['path-approve-session', atPrompt('2'), [{ type: 'approval', kind: 'permission', trigger: 'digit', scope: 'session', ran: 'yes' }]],
    ['mcp-approve', atPrompt('1'), [{ type: 'approval', kind: 'mcp', trigger: 'digit', scope: 'once', ran: 'yes' }]],
    ['mcp-reject-esc', atPrompt('esc'), [{ type: 'rejection', kind: 'mcp', trigger: 'esc', ran: 'no' }]],
    ['mcp-approve-location', atPrompt('2'), [{ type: 'approval', kind: 'mcp', scope: 'always', ran: 'yes' }]],
    ['url-reject-esc', atPrompt('esc'), [{ type: 'rejection', kind: 'network', trigger: 'esc', ran: 'no' }]],
    // The URL prompt, then the shell prompt of the same call: two prompts, two decisions, one call.
    [
      'url-approve',
      [['lines', 'permission.requested'], ['show', 'prompt'], ['press', '1'], ['lines', 'permission.requested', 2], ['show', 'shell-prompt'], ['press', '1'], ['lines', 'tool.execution_complete'], ['show', 'after']],
      [{ type: 'approval', kind: 'network', trigger: 'digit' }, { type: 'approval', kind: 'command', trigger: 'digit', ran: 'yes' }],
    ],
    [
      'url-approve-always',
      [['lines', 'permission.requested'], ['show', 'prompt'], ['press', '3'], ['lines', 'permission.requested', 2], ['show', 'shell-prompt'], ['press', 'esc'], ['lines', 'abort'], ['show', 'after']],
      [{ type: 'approval', kind: 'network', scope: 'always' }, { type: 'rejection', kind: 'command', trigger: 'esc', ran: 'no' }],
    ],
    ['sleep-ctrlc-running', [['lines', 'permission.requested'], ['show', 'prompt'], ['press', '1'], ['lines', 'permission.completed'], ['show', 'running'], ['press', 'ctrl-c'], ['lines', 'abort'], ['show', 'after']], [{ type: 'approval' }, { type: 'interruption', kind: 'tool', trigger: 'ctrl_c' }]],
    ['slowtext-esc-esc', [['lines', 'user.message'], ['show', 'streaming'], ['press', 'esc'], ['show', 'esc-once'], ['press', 'esc'], ['lines', 'abort'], ['show', 'after']], [{ type: 'interruption', kind: 'response', trigger: 'esc' }]],
    ['slowtext-ctrlc', [['lines', 'user.message'], ['show', 'streaming'], ['press', 'ctrl-c'], ['lines', 'abort'], ['show', 'after']], [{ type: 'interruption', kind: 'response', trigger: 'ctrl_c' }]],
    ['askuser-esc', [['lines', 'tool.execution_start'], ['show', 'prompt'], ['press', 'esc'], ['lines', 'tool.execution_complete'], ['show', 'after']], []],
    ['askuser-answer', [['lines', 'tool.execution_start'], ['show', 'prompt'], ['press', 'enter'], ['lines', 'tool.execution_complete'], ['show', 'after']], []],
    ['trust-esc', [['show', 'trust'], ['press', 'esc'], ['show', 'after-esc']], []],
    ['bash-read-auto', [['show', 'prompt'], ['show', 'after']], []],
    ['allow-tool-rule', [['show', 'prompt'], ['show', 'after']], []],
  ] as ReadonlyArray<readonly [string, readonly Step[], ReadonlyArray<Record<string, unknown>>]>)('%s', async (name, steps, expected) => {
    const r = await replay(name, steps);
    const rows = decisions(r);
    expect(rows).toEqual(expected.map((e) => expect.objectContaining({ decided_by: 'user', ...e })));
    // Every decision about a call carries a call of the session file (a streamed answer cut has none).
    for (const row of rows) if (row.kind !== 'response') expect(r.callIds()).toContain(row.call_id);
    // Each decision answers a prompt of its own (the URL and shell prompts of one call are two).
    expect(new Set(rows.filter((row) => row.type === 'approval' || row.type === 'rejection').map((row) => row.prompt_event_id)).size).toBe(rows.filter((row) => row.type === 'approval' || row.type === 'rejection').length);
    expect(r.sink.rows('miss')).toEqual([]);
  });
});

describe('copilot 1.0.102, queues, hooks and a resumed session', () => {
  it('a queue: 2 + a reason at the first prompt, 1 at each that follows: a rejection with its reason, then two approvals that ran', async () => {
    const r = await replay('parallel-first-reason', [
      ['lines', 'permission.requested', 3],
      ['show', 'prompt'],
      ['press', '2', ...typed],
      ['show', 'reason-typed'],
      ['press', 'enter'],
      ['lines', 'permission.completed'],
      ['show', 'next-prompt-1'],
      ['press', '1'],
      ['lines', 'permission.completed', 2],
      ['show', 'next-prompt-2'],
      ['press', '1'],
      ['lines', 'permission.completed', 3],
      ['show', 'after'],
    ]);
    const rows = decisions(r);
    expect(rows).toEqual([
      expect.objectContaining({ type: 'rejection', reason: REASON, reason_source: 'inline', ran: 'no' }),
      expect.objectContaining({ type: 'approval', trigger: 'digit', ran: 'yes' }),
      expect.objectContaining({ type: 'approval', trigger: 'digit', ran: 'yes' }),
    ]);
    expect(new Set(rows.map((e) => e.call_id))).toEqual(new Set(r.callIds()));
    expect(r.sink.rows('miss')).toEqual([]);
  });

  it('with hooks writing to events.jsonl: Esc at the first of three prompts refuses it and skips the other two', async () => {
    const r = await replay('hooks-parallel-esc', [['lines', 'permission.requested', 3], ['show', 'prompt'], ['press', 'esc'], ['lines', 'abort'], ['show', 'after']]);
    const rows = decisions(r);
    expect(rows.map((e) => e.type)).toEqual(['rejection', 'skipped', 'skipped']);
    expect(rows[0]).toMatchObject({ trigger: 'esc', ran: 'no' });
    for (const skipped of rows.slice(1)) expect(skipped).toMatchObject({ related_call_id: rows[0]!.call_id });
    expect(new Set(rows.map((e) => e.call_id))).toEqual(new Set(r.callIds()));
  });

  it('with hooks writing to events.jsonl: 2, a reason, Enter is the same rejection as without them', async () => {
    const r = await replay('hooks-bash-reject-reason', [['lines', 'permission.requested'], ['show', 'prompt'], ['press', '2', ...typed], ['show', 'reason-typed'], ['press', 'enter'], ['lines', 'tool.execution_complete'], ['show', 'after']]);
    expect(decisions(r)).toEqual([expect.objectContaining({ type: 'rejection', reason: REASON, reason_source: 'inline', call_id: r.callIds()[0], ran: 'no' })]);
  });

  it('copilot --continue: the resumed run records its own approval with the new call id, and nothing of the earlier run', async () => {
    const first = await replay('resume-continue', atPrompt('1'));
    const [earlierCall, newCall] = first.callIds();
    expect(decisions(first)).toEqual([expect.objectContaining({ type: 'approval', call_id: earlierCall, ran: 'yes' })]);
    const resumed = new AgentReplay('resume-continue', 2);
    resumed.show('resumed');
    // Counted from the resumed start on: the earlier start's lines are in the file already.
    resumed.appendThrough('permission.requested');
    resumed.show('prompt');
    resumed.press('1');
    resumed.appendThrough('tool.execution_complete');
    resumed.show('after');
    await resumed.exit();
    expect(decisions(resumed)).toEqual([expect.objectContaining({ type: 'approval', trigger: 'digit', call_id: newCall, ran: 'yes' })]);
    expect(newCall).not.toBe(earlierCall);
    expect(resumed.sink.rows('miss')).toEqual([]);
  });
});
