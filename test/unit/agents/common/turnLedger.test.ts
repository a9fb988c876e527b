// The turn ledger alone (agents/common/turnLedger.ts): where the agent's turns stand, as the session
// file and the hooks tell it, changed only through its methods.
import { describe, expect, it } from 'vitest';
import { TurnLedger } from '../../../../src/agents/common/turnLedger.js';

describe('TurnLedger', () => {
  it('starts with no turn open, no turn end counted and no user message told', () => {
    const turns = new TurnLedger();
    expect({ open: turns.open, openInFile: turns.openInFile, ends: turns.ends, endsAtLastUserMessage: turns.endsAtLastUserMessage, currentTurnId: turns.currentTurnId }).toEqual({
      open: false,
      openInFile: false,
      ends: 0,
      endsAtLastUserMessage: -1,
      currentTurnId: undefined,
    });
  });

  it('a hook opens and closes only its own view of the turn, and counts no turn end', () => {
    const turns = new TurnLedger();
    turns.started('hook');
    expect([turns.open, turns.openInFile]).toEqual([true, false]);
    expect(turns.completed('hook')).toBe(false);
    expect([turns.open, turns.ends]).toEqual([false, 0]);
  });

  it('the file\'s end of a turn, completed or aborted, counts one end and closes both views', () => {
    const turns = new TurnLedger();
    turns.started('hook');
    turns.started('session_file', 't1');
    expect([turns.open, turns.openInFile, turns.currentTurnId]).toEqual([true, true, 't1']);
    expect(turns.completed('session_file')).toBe(true);
    expect([turns.open, turns.openInFile, turns.ends]).toEqual([false, false, 1]);
    turns.started('hook');
    turns.started('session_file', 't2');
    turns.aborted();
    expect([turns.open, turns.openInFile, turns.ends, turns.currentTurnId]).toEqual([false, false, 2, 't2']);
  });

  it('a file that never marks a turn\'s end gives the turn id only; a start without an id keeps the last one', () => {
    const turns = new TurnLedger();
    turns.started('session_file', 'g1', false);
    expect([turns.openInFile, turns.currentTurnId]).toEqual([false, 'g1']);
    turns.started('session_file');
    expect([turns.openInFile, turns.currentTurnId]).toEqual([true, 'g1']);
  });

  it('a user message keeps the turn-end count it was told at', () => {
    const turns = new TurnLedger();
    turns.userMessageTold();
    expect(turns.endsAtLastUserMessage).toBe(0);
    turns.started('session_file', 't1');
    turns.completed('session_file');
    expect(turns.endsAtLastUserMessage).toBe(0);
    turns.userMessageTold();
    expect(turns.endsAtLastUserMessage).toBe(1);
  });
});
