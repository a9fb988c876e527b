// Call events alone (agents/common/callEvents.ts): events stamped on the recorder's clock, and what
// the call ledger knows of a call copied onto every event about it.
import { describe, expect, it } from 'vitest';
import { CallEvents, callFields } from '../../../../src/agents/common/callEvents.js';
import { CallLedger } from '../../../../src/agents/common/callLedger.js';
import { EventBook } from '../../../../src/agents/common/eventBook.js';
import { VirtualClock } from '../../../support/virtualClock.js';
import { MemorySink } from '../../../support/memorySink.js';

function setUp() {
  const sink = new MemorySink();
  const calls = new CallLedger();
  const events = new CallEvents(new EventBook(sink), calls, new VirtualClock(Date.UTC(2026, 0, 2, 3, 4, 5)));
  return { sink, calls, events };
}

describe('CallEvents', () => {
  it('stamps events on the recorder\'s clock, decided by the user unless they say otherwise', () => {
    const { sink, events } = setUp();
    events.write({ type: 'prompt', kind: 'command', decided_by: null, evidence: ['screen'] });
    events.write({ type: 'approval', kind: 'command', evidence: ['screen', 'keys'] });
    expect(sink.events.map((e) => [e.type, e.decided_by, e.ts])).toEqual([
      ['prompt', null, '2026-01-02T03:04:05.000Z'],
      ['approval', 'user', '2026-01-02T03:04:05.000Z'],
    ]);
  });

  it('an event about a call carries its id, name and input; one about no call carries nothing', () => {
    const { calls } = setUp();
    const call = calls.learn('c1', 'Bash', { command: 'ls' }, 't1', true)!.call;
    expect(callFields(call)).toEqual({ call_id: 'c1', tool_name: 'Bash', tool_input: { command: 'ls' } });
    expect(callFields(undefined)).toEqual({});
  });

  it('refresh copies the file\'s name and input, `ran` (not onto an interruption) and native words, with the file as evidence once it told the outcome', () => {
    const { sink, calls, events } = setUp();
    calls.learn('c1', 'Bash', { command: 'ls' }, 't1', false);
    events.write({ type: 'approval', kind: 'command', call_id: 'c1', evidence: ['screen', 'keys'] });
    events.write({ type: 'interruption', kind: 'tool', call_id: 'c1', evidence: ['screen', 'keys'] });
    events.refresh('c1');
    expect(sink.events.map((e) => [e.tool_name, e.ran, e.evidence])).toEqual([
      [undefined, undefined, ['screen', 'keys']],
      [undefined, undefined, ['screen', 'keys']],
    ]);
    calls.learn('c1', 'exec_command', { cmd: 'ls' }, 't1', true);
    calls.recordOutput('c1', { text: 'ok', aborted: false });
    events.refresh('c1');
    expect(sink.events.map((e) => [e.tool_name, e.tool_input, e.ran, e.native, e.evidence])).toEqual([
      ['exec_command', { cmd: 'ls' }, 'yes', { output: 'ok' }, ['screen', 'keys', 'session_file']],
      ['exec_command', { cmd: 'ls' }, undefined, { output: 'ok' }, ['screen', 'keys', 'session_file']],
    ]);
  });
});
