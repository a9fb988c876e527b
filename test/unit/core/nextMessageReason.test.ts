// The next-message reason rule alone (core/nextMessageReason.ts); that the live recorder and merge
// agree when both use it is test/integration/merge/nextMessageReason.test.ts.
import { describe, expect, it } from 'vitest';
import { NextMessageReasons } from '../../../src/core/nextMessageReason.js';

describe('NextMessageReasons', () => {
  it('an armed rejection takes the next user message, once', () => {
    const r = new NextMessageReasons<string>();
    r.rejected('e1', true);
    expect(r.userMessage()).toEqual(['e1']);
    expect(r.userMessage()).toEqual([]);
  });

  it('an unarmed rejection ignores a message read before its outcome (the one that started the turn)', () => {
    const r = new NextMessageReasons<string>();
    r.rejected('e1');
    expect(r.userMessage()).toEqual([]);
    r.arm(new Set(['e1']));
    expect(r.userMessage()).toEqual(['e1']);
  });

  it("a tool call drops armed rejections (the agent went on), but not unarmed ones (a sibling of their batch)", () => {
    const r = new NextMessageReasons<string>();
    r.rejected('armed', true);
    r.rejected('waiting');
    r.toolCall();
    r.armAll();
    expect(r.userMessage()).toEqual(['waiting']);
  });

  it('a completed turn and a retraction forget rejections', () => {
    const r = new NextMessageReasons<string>();
    r.rejected('a', true);
    r.turnCompleted();
    r.rejected('b', true);
    r.rejected('c', true);
    r.retract('b');
    expect(r.userMessage()).toEqual(['c']);
  });
});
