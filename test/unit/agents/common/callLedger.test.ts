// The call ledger alone (agents/common/callLedger.ts): calls learned from a session file or a hook,
// pending ones, and the one running now.
import { describe, expect, it } from 'vitest';
import { CallLedger } from '../../../../src/agents/common/callLedger.js';

describe('CallLedger', () => {
  it('a call a hook announced takes the session file\'s name and input once the file describes it', () => {
    const ledger = new CallLedger();
    expect(ledger.learn('c1', 'Bash', { command: 'ls' }, undefined, false)?.isNew).toBe(true);
    expect(ledger.learn('c1', 'Bash', { command: 'ls' }, undefined, false)).toBeUndefined();
    const upgraded = ledger.learn('c1', 'exec_command', { cmd: 'ls' }, 't1', true);
    expect(upgraded).toMatchObject({ isNew: false, call: { toolName: 'exec_command', toolInput: { cmd: 'ls' }, turnId: 't1', fromSessionFile: true } });
    expect(ledger.learn('c1', 'other', {}, undefined, true)).toBeUndefined();
  });

  it('pending calls have no fate, no output and no prompt; the running call is the latest approved without output', () => {
    const ledger = new CallLedger();
    for (const id of ['a', 'b', 'c', 'd']) ledger.learn(id, 'exec_command', {}, 't', true);
    ledger.setFate('a', 'approved');
    ledger.setFate('b', 'approved');
    ledger.recordOutput('b', { text: 'done', aborted: false });
    expect(ledger.pending(new Set(['c'])).map((c) => c.callId)).toEqual(['d']);
    expect(ledger.running()?.callId).toBe('a');
    ledger.setFate('d', 'approved');
    expect(ledger.running()?.callId).toBe('d');
  });

  it('an output marks the call ran unless it was cut, keeps the file\'s word and cuts long text in native', () => {
    const ledger = new CallLedger();
    ledger.learn('ok', 'exec_command', {}, 't', true);
    ledger.learn('cut', 'exec_command', {}, 't', true);
    ledger.recordOutput('ok', { text: 'x'.repeat(2_500), aborted: false, decision: 'approved', native: { status: 'done' } });
    ledger.recordOutput('cut', { text: 'partial', aborted: true });
    expect(ledger.get('ok')).toMatchObject({ output: 'x'.repeat(2_500), aborted: false, ran: 'yes', fileDecision: 'approved', native: { status: 'done' } });
    expect(ledger.get('ok')!.native.output).toBe('x'.repeat(2_000) + '…');
    expect(ledger.get('cut')).toMatchObject({ output: 'partial', aborted: true, native: { output: 'partial' } });
    expect(ledger.get('cut')!.ran).toBeUndefined();
  });

  it('a fate taken back leaves the call pending again; changes to unknown calls are ignored', () => {
    const ledger = new CallLedger();
    ledger.learn('a', 'Bash', {}, 't', true);
    ledger.setFate('a', 'rejected');
    expect(ledger.pending(new Set())).toEqual([]);
    ledger.setFate('a', undefined);
    expect('fate' in ledger.get('a')!).toBe(false);
    expect(ledger.pending(new Set()).map((c) => c.callId)).toEqual(['a']);
    ledger.setFate('nope', 'approved');
    ledger.markRan('nope');
    ledger.addNative('nope', { x: 1 });
    expect(ledger.all().map((c) => c.callId)).toEqual(['a']);
  });

  it('ran and native words are added by the ledger; inTurn lists a turn\'s calls in order', () => {
    const ledger = new CallLedger();
    ledger.learn('a', 'Bash', {}, 't1', true);
    ledger.learn('b', 'Bash', {}, 't2', true);
    ledger.learn('c', 'Bash', {}, 't1', false);
    ledger.markRan('a');
    ledger.addNative('a', { turn_aborted: 'interrupted' });
    expect(ledger.get('a')).toMatchObject({ ran: 'yes', native: { turn_aborted: 'interrupted' } });
    expect(ledger.inTurn('t1').map((c) => c.callId)).toEqual(['a', 'c']);
  });
});
