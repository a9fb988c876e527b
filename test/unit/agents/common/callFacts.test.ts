// The coordinator alone (agents/common/callFacts.ts): prompts tied to the calls they show, the
// call's fate taken from the prompt's decision, a decision taken back, and cuts by Esc filed under
// their turn. The parts it composes have their own tests beside this one.
import { describe, expect, it } from 'vitest';
import { CallFacts } from '../../../../src/agents/common/callFacts.js';
import type { SessionFact } from '../../../../src/agents/common/agentProfile.js';
import { VirtualClock } from '../../../support/virtualClock.js';
import { MemorySink } from '../../../support/memorySink.js';
import { PlainFactsProfile, commandPrompt } from '../../../support/factsProfile.js';

const moment = { turnEnds: 0, shownUserMessages: 1, submits: 0, spoken: 0 };
const call = (callId: string, command: string, turnId = 't1'): SessionFact => ({ type: 'call', callId, toolName: 'shell', toolInput: { command }, turnId, source: 'session_file' });

function setUp() {
  const sink = new MemorySink();
  const facts = new CallFacts(sink, new PlainFactsProfile(), new VirtualClock(0));
  const open = (command: string) => facts.openPrompt(commandPrompt(command), facts.event({ type: 'prompt', kind: 'command', decided_by: null, evidence: ['screen'] }));
  return { sink, facts, open };
}

describe('CallFacts', () => {
  it('a prompt is tied to the first pending call it shows, whichever came first, and its events get the call', () => {
    const { sink, facts, open } = setUp();
    const first = open('ls');
    expect(first.callId).toBeUndefined();
    facts.apply(call('c0', 'pwd'));
    facts.apply(call('c1', 'ls'));
    const second = open('pwd');
    expect([first.callId, second.callId]).toEqual(['c1', 'c0']);
    expect(sink.rows('prompt').map((e) => [e.call_id, e.evidence])).toEqual([
      ['c1', ['screen', 'session_file']],
      ['c0', ['screen', 'session_file']],
    ]);
    expect(facts.pendingCalls()).toEqual([]);
  });

  it('a decided prompt gives its call its fate; a refusal that ends the turn makes the call its cause, so siblings are skipped', () => {
    const { sink, facts, open } = setUp();
    facts.apply({ type: 'turn_started', turnId: 't1', source: 'session_file' });
    facts.apply(call('c1', 'rm x'));
    facts.apply(call('c2', 'ls'));
    const prompt = open('rm x');
    const rejection = facts.event({ type: 'rejection', kind: 'command', evidence: ['screen', 'keys'] });
    facts.promptBook.decide(prompt, { eventId: rejection, type: 'rejection', endsTurn: true }, moment);
    facts.bindPrompt(prompt, facts.call('c1')!);
    expect(facts.call('c1')?.fate).toBe('rejected');
    facts.apply({ type: 'turn_aborted', reason: 'interrupted' });
    expect(sink.rows('skipped').map((e) => [e.call_id, e.related_call_id])).toEqual([['c2', 'c1']]);
  });

  it('a prompt the agent asks while its call runs marks the call ran, refused or not, with no output in the file; another prompt does not', () => {
    const ran = (askedWhileRunning: boolean) => {
      const { sink, facts } = setUp();
      facts.apply(call('c1', 'curl http://one.example.com/'));
      const parsed = { ...commandPrompt('curl http://one.example.com/'), ...(askedWhileRunning ? { askedWhileRunning } : {}) };
      const prompt = facts.openPrompt(parsed, facts.event({ type: 'prompt', kind: 'command', decided_by: null, evidence: ['screen'] }));
      const rejection = facts.event({ type: 'rejection', kind: 'command', ran: 'no', evidence: ['screen', 'keys'] });
      facts.promptBook.decide(prompt, { eventId: rejection, type: 'rejection', endsTurn: true }, moment);
      facts.bindPrompt(prompt, facts.call('c1')!);
      return [facts.call('c1')?.ran, sink.rows('rejection')[0]?.ran];
    };
    expect(ran(true)).toEqual(['yes', 'yes']);
    expect(ran(false)).toEqual([undefined, 'no']);
  });

  it('a decision taken back loses its event, its call\'s fate and its cause; the prompt is open again', () => {
    const { sink, facts, open } = setUp();
    facts.apply(call('c1', 'ls'));
    const prompt = open('ls');
    const approval = facts.event({ type: 'approval', kind: 'command', evidence: ['screen', 'keys'] });
    facts.promptBook.decide(prompt, { eventId: approval, type: 'approval', endsTurn: false }, moment);
    facts.bindPrompt(prompt, facts.call('c1')!);
    expect(facts.runningCall()?.callId).toBe('c1');
    facts.retractDecision(prompt, approval, facts.call('c1'));
    expect([sink.rows('approval'), prompt.decision, facts.call('c1')?.fate, facts.runningCall()]).toEqual([[], undefined, undefined, undefined]);
  });

  it('an Esc during an approved prompt whose call the file has not shown yet cuts that call once it is read', () => {
    const { sink, facts, open } = setUp();
    const prompt = open('make');
    const approval = facts.event({ type: 'approval', kind: 'command', evidence: ['screen', 'keys'] });
    facts.promptBook.decide(prompt, { eventId: approval, type: 'approval', endsTurn: false }, moment);
    const esc = facts.event({ type: 'interruption', kind: 'tool', evidence: ['screen', 'keys'] });
    facts.interrupted(esc, undefined, prompt);
    facts.apply(call('c1', 'make'));
    expect(facts.call('c1')?.fate).toBe('interrupted');
    expect(sink.rows('interruption')[0]).toMatchObject({ call_id: 'c1', related_call_id: 'c1' });
  });

  it('an Esc with no session file yet waits for the next turn the file shows cut', () => {
    const { sink, facts } = setUp();
    const esc = facts.event({ type: 'interruption', kind: 'response', evidence: ['screen', 'keys'] });
    facts.interrupted(esc, undefined, undefined);
    facts.apply({ type: 'turn_started', turnId: 't9', source: 'session_file' });
    facts.apply({ type: 'turn_aborted', reason: 'interrupted' });
    expect(sink.rows('interruption')[0]).toMatchObject({ native: { turn_aborted: 'interrupted' } });
  });

  it('a prompt left open at exit ends its call\'s turn: the call is prompt_open and the cause of the cut', () => {
    const { sink, facts, open } = setUp();
    facts.apply({ type: 'turn_started', turnId: 't1', source: 'session_file' });
    facts.apply(call('c1', 'ls'));
    facts.apply(call('c2', 'pwd'));
    open('ls');
    facts.promptOpenAtExit(facts.call('c1')!);
    facts.apply({ type: 'turn_aborted', reason: 'exit' });
    expect(facts.call('c1')?.fate).toBe('prompt_open');
    expect(sink.rows('skipped').map((e) => [e.call_id, e.related_call_id])).toEqual([['c2', 'c1']]);
  });
});
