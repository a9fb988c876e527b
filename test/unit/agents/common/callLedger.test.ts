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
    ledger.get('a')!.fate = 'approved';
    ledger.get('b')!.fate = 'approved';
    ledger.get('b')!.output = 'done';
    expect(ledger.pending(new Set(['c'])).map((c) => c.callId)).toEqual(['d']);
    expect(ledger.running()?.callId).toBe('a');
    ledger.get('d')!.fate = 'approved';
    expect(ledger.running()?.callId).toBe('d');
  });
});
