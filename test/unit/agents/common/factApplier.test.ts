// The fact applier alone (agents/common/factApplier.ts): what the session file and hooks say, applied
// to the parts that own each kind of state, and what follows for the events already written.
import { describe, expect, it } from 'vitest';
import { BatchFates } from '../../../../src/agents/common/batchFates.js';
import { CallEvents } from '../../../../src/agents/common/callEvents.js';
import { CallLedger } from '../../../../src/agents/common/callLedger.js';
import { EventBook } from '../../../../src/agents/common/eventBook.js';
import { FactApplier } from '../../../../src/agents/common/factApplier.js';
import { MissCheck } from '../../../../src/agents/common/missCheck.js';
import { PromptBook } from '../../../../src/agents/common/promptBook.js';
import { SessionFileFollower } from '../../../../src/agents/common/sessionFileFollower.js';
import { TurnLedger } from '../../../../src/agents/common/turnLedger.js';
import { NextMessageReasons } from '../../../../src/core/nextMessageReason.js';
import type { SessionFact } from '../../../../src/agents/common/agentProfile.js';
import { VirtualClock } from '../../../support/virtualClock.js';
import { MemorySink } from '../../../support/memorySink.js';
import { PlainFactsProfile, commandPrompt } from '../../../support/factsProfile.js';

function setUp(writesRefusedCalls = false, decisionsNameTheirCall = false) {
  const sink = new MemorySink();
  const profile = new PlainFactsProfile(writesRefusedCalls, decisionsNameTheirCall);
  const book = new EventBook(sink);
  const calls = new CallLedger();
  const events = new CallEvents(book, calls, new VirtualClock(0));
  const prompts = new PromptBook();
  const turns = new TurnLedger();
  const fates = new BatchFates();
  const reasons = new NextMessageReasons<string>();
  let applier: FactApplier | undefined;
  const file = new SessionFileFollower((line) => applier!.onLine(line), () => []);
  const misses = new MissCheck({ calls: () => calls.all(), events: () => book.all(), promptedCalls: () => prompts.claimedCallIds(), kindOf: () => 'command', screen: () => '' }, (e) => events.write(e));
  let matched = 0;
  applier = new FactApplier({ sink, profile, book, events, calls, prompts, turns, fates, reasons, file, misses, matchPrompts: () => matched++ });
  const apply = (...facts: SessionFact[]) => facts.forEach((f) => applier.apply(f));
  return { sink, profile, applier, apply, calls, prompts, turns, fates, reasons, events, matches: () => matched };
}

const call = (callId: string, command: string, turnId?: string): SessionFact => ({ type: 'call', callId, toolName: 'shell', toolInput: { command }, ...(turnId ? { turnId } : {}), source: 'session_file' });

describe('FactApplier', () => {
  it('the banner fills only a version no other witness told; the file\'s version stands over the package\'s', () => {
    const { apply, applier, profile, sink } = setUp();
    applier.versionTold();
    apply({ type: 'session', version: '1.0', versionWitness: 'banner' });
    expect([profile.versions, sink.run.agent_version]).toEqual([[], undefined]);
    apply({ type: 'session', version: '1.1', sessionId: 's1' });
    expect(profile.versions).toEqual(['1.1']);
    expect(sink.run).toMatchObject({ agent_version: '1.1', agent_version_source: 'session_file', agent_session_id: 's1' });
  });

  it('a call from the file is filed under the current turn and asks for prompts to be matched; a hook\'s call is not filed under a turn', () => {
    const { apply, calls, matches } = setUp();
    apply({ type: 'turn_started', turnId: 't1', source: 'session_file' }, call('c1', 'ls'));
    apply({ type: 'call', callId: 'h1', toolName: 'shell', toolInput: {}, source: 'hook' });
    expect([calls.get('c1')?.turnId, calls.get('h1')?.turnId, matches()]).toEqual(['t1', undefined, 2]);
    apply(call('c1', 'ls'));
    expect(matches()).toBe(2);
  });

  it('a refused call no prompt decided gets a rejection of its own; one a prompt decided gets none', () => {
    const { apply, sink, events, calls } = setUp();
    apply(call('c1', 'rm -rf /'), call('c2', 'ls'));
    events.write({ type: 'approval', kind: 'command', call_id: 'c2', evidence: ['screen', 'keys'] });
    apply({ type: 'refused', callId: 'c1', decidedBy: 'reviewer', trigger: 'rule', source: 'hook' });
    apply({ type: 'refused', callId: 'c2', decidedBy: 'reviewer', trigger: 'rule', source: 'hook' });
    expect(sink.rows('rejection').map((e) => [e.call_id, e.decided_by, e.trigger])).toEqual([['c1', 'reviewer', 'rule']]);
    expect([calls.get('c1')?.fate, calls.get('c2')?.fate]).toEqual(['rejected', undefined]);
  });

  it('a cut turn skips the batch\'s undecided calls because of its cause, and not a call that finished', () => {
    const { apply, sink, fates, calls } = setUp();
    apply({ type: 'turn_started', turnId: 't1', source: 'session_file' }, call('c1', 'a'), call('c2', 'b'), call('c3', 'c'));
    apply({ type: 'output', callId: 'c3', text: 'done', aborted: false });
    calls.setFate('c1', 'rejected');
    fates.setCause('t1', 'c1');
    apply({ type: 'turn_aborted', turnId: 't1', reason: 'interrupted' });
    expect(sink.rows('skipped').map((e) => [e.call_id, e.related_call_id, e.ran])).toEqual([['c2', 'c1', 'no']]);
    expect(calls.all().map((c) => [c.callId, c.fate, c.native.turn_aborted])).toEqual([
      ['c1', 'rejected', 'interrupted'],
      ['c2', 'skipped', 'interrupted'],
      ['c3', undefined, 'interrupted'],
    ]);
  });

  it('a cut turn skips a call the file marks decided only where the agent marks its batch alike; a call its own prompt decided is left to the miss check', () => {
    for (const decisionsNameTheirCall of [false, true]) {
      const { apply, sink, fates, calls } = setUp(true, decisionsNameTheirCall);
      apply({ type: 'turn_started', turnId: 't1', source: 'session_file' }, call('c1', 'a'), call('c2', 'b'));
      // c2 was refused at a prompt the recorder never read (the file's word for it), then c1 was cut.
      apply({ type: 'output', callId: 'c2', text: '', aborted: true, decision: 'denied-interactively-by-user' });
      calls.setFate('c1', 'interrupted');
      fates.setCause('t1', 'c1');
      apply({ type: 'turn_aborted', turnId: 't1', reason: 'user_abort' });
      expect(sink.rows('skipped').map((e) => e.call_id), String(decisionsNameTheirCall)).toEqual(decisionsNameTheirCall ? [] : ['c2']);
      expect(calls.get('c2')?.fate).toBe(decisionsNameTheirCall ? undefined : 'skipped');
    }
  });

  it('an Esc written before the file was known is claimed by the turn the file shows cut, and says why', () => {
    const { apply, sink, events, fates, turns } = setUp();
    const esc = events.write({ type: 'interruption', kind: 'response', evidence: ['screen', 'keys'] });
    fates.addUnboundTurnEvent(esc);
    apply({ type: 'turn_started', turnId: 't1', source: 'session_file' }, { type: 'turn_aborted', reason: 'interrupted', native: { cut: 'message' } });
    expect(sink.events[0]).toMatchObject({ native: { turn_aborted: 'interrupted', cut: 'message' }, evidence: ['screen', 'keys', 'session_file'] });
    expect([turns.ends, turns.open]).toEqual([1, false]);
  });

  it('the file\'s cut of a call ties the turn\'s Esc that named no call to it', () => {
    const { apply, sink, events, fates, calls } = setUp();
    apply({ type: 'turn_started', turnId: 't1', source: 'session_file' }, call('a1', 'agent'));
    const esc = events.write({ type: 'interruption', kind: 'response', evidence: ['screen', 'keys'] });
    fates.addTurnEvent('t1', esc);
    apply({ type: 'cut', callId: 'a1', kind: 'subagent' });
    expect(sink.events[0]).toMatchObject({ kind: 'subagent', call_id: 'a1', related_call_id: 'a1', partial_output: null });
    expect([calls.get('a1')?.fate, fates.causeOf('t1')]).toEqual(['interrupted', 'a1']);
  });

  it('a rejection waits for the next user message as its reason once the file reached its call\'s outcome', () => {
    const { apply, sink, events, prompts, reasons } = setUp();
    apply({ type: 'turn_started', turnId: 't1', source: 'session_file' }, call('c1', 'rm x'));
    const prompt = prompts.open(commandPrompt('rm x'), events.write({ type: 'prompt', kind: 'command', decided_by: null, evidence: ['screen'] }));
    const rejection = events.write({ type: 'rejection', kind: 'command', call_id: 'c1', evidence: ['screen', 'keys'] });
    prompts.decide(prompt, { eventId: rejection, type: 'rejection', endsTurn: false }, { turnEnds: 0, shownUserMessages: 1, submits: 0, spoken: 0 });
    prompts.tieCall(prompt, 'c1');
    reasons.rejected(rejection);
    apply({ type: 'user_message', text: 'too early', source: 'session_file' });
    expect(sink.rows('rejection')[0]!.reason).toBeUndefined();
    apply({ type: 'output', callId: 'c1', text: 'refused', aborted: true }, { type: 'user_message', text: 'keep x', source: 'session_file' });
    expect(sink.rows('rejection')[0]).toMatchObject({ reason: 'keep x', reason_source: 'next_message' });
  });

  it('a turn cut arms only the rejections of that turn; with a file that writes refused calls, not those with no call yet', () => {
    const { apply, sink, events, prompts, reasons } = setUp(true);
    const unbound = events.write({ type: 'rejection', kind: 'command', evidence: ['screen', 'keys'] });
    const prompt = prompts.open(commandPrompt('ls'), 'p1');
    prompts.decide(prompt, { eventId: unbound, type: 'rejection', endsTurn: true }, { turnEnds: 0, shownUserMessages: 1, submits: 0, spoken: 0 });
    reasons.rejected(unbound);
    apply({ type: 'turn_started', turnId: 't1', source: 'session_file' }, { type: 'turn_aborted', reason: 'interrupted' }, { type: 'user_message', text: 'next', source: 'session_file' });
    expect(sink.rows('rejection')[0]!.reason).toBeUndefined();
  });

  it('the file\'s lines are copied to agent_records before their facts apply', () => {
    const { applier, sink, calls } = setUp();
    applier.onLine({ file: '/s.jsonl', lineNo: 1, byteOffset: 0, text: JSON.stringify(call('c1', 'ls')), earlier: false });
    expect(sink.records).toEqual([{ source_file: '/s.jsonl', line_no: 1, byte_offset: 0, record: JSON.stringify(call('c1', 'ls')) }]);
    expect(calls.get('c1')?.fromSessionFile).toBe(true);
  });
});
