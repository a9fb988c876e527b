// Batch fates alone (agents/common/batchFates.ts): the call that ended each turn, the events filed
// under a turn, and the events written before any turn id was known, which go to the next turn the
// file shows cut that nothing else explains.
import { describe, expect, it } from 'vitest';
import { BatchFates } from '../../../../src/agents/common/batchFates.js';

describe('BatchFates', () => {
  it('a cause is set per turn, cleared only by the call that set it, and never for an unknown turn', () => {
    const fates = new BatchFates();
    fates.setCause(undefined, 'c0');
    fates.setCause('t1', 'c1');
    fates.clearCause('t1', 'other');
    expect(fates.causeOf('t1')).toBe('c1');
    fates.clearCause('t1', 'c1');
    expect(fates.causeOf('t1')).toBeUndefined();
  });

  it('events filed under a turn are kept in order; those with no turn are dropped', () => {
    const fates = new BatchFates();
    fates.addTurnEvent('t1', 'e1');
    fates.addTurnEvent(undefined, 'e0');
    fates.addTurnEvent('t1', 'e2');
    expect(fates.turnEvents('t1')).toEqual(['e1', 'e2']);
    expect(fates.turnEvents('t2')).toEqual([]);
  });

  it('an unbound event goes, oldest first, to a cut turn that has no cause and no event of its own', () => {
    const fates = new BatchFates();
    fates.addUnboundTurnEvent('u1');
    fates.addUnboundTurnEvent('u2');
    fates.setCause('refused', 'c1');
    fates.claimUnboundTurnEvent('refused');
    fates.addTurnEvent('own', 'e1');
    fates.claimUnboundTurnEvent('own');
    expect([fates.turnEvents('refused'), fates.turnEvents('own')]).toEqual([[], ['e1']]);
    fates.claimUnboundTurnEvent('t3');
    fates.claimUnboundTurnEvent('t4');
    fates.claimUnboundTurnEvent('t5');
    expect([fates.turnEvents('t3'), fates.turnEvents('t4'), fates.turnEvents('t5')]).toEqual([['u1'], ['u2'], []]);
  });
});
