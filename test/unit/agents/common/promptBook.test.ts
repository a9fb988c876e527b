// The prompt book alone (agents/common/promptBook.ts): every prompt the run showed, its decision and
// its call, changed only through the book's methods (the records it hands out are read-only).
import { describe, expect, it } from 'vitest';
import { PromptBook } from '../../../../src/agents/common/promptBook.js';
import type { PromptView } from '../../../../src/agents/common/agentProfile.js';

function view(identity: string, highlighted = 1): PromptView {
  return { identity, kind: 'command', title: `Run ${identity}?`, details: {}, options: [{ number: 1, label: 'Yes', highlighted: highlighted === 1, row: 5 }, { number: 2, label: 'No', highlighted: highlighted === 2, row: 6 }], highlighted };
}

const moment = { turnEnds: 2, shownUserMessages: 3, submits: 1, spoken: 1 };

describe('PromptBook', () => {
  it('keeps prompts in the order they opened, with the prompt they ask again for', () => {
    const book = new PromptBook();
    const first = book.open(view('a'), 'p1');
    const again = book.open(view('a'), 'p2', first);
    expect(book.all).toEqual([first, again]);
    expect(again.asksAgainFor).toBe(first);
    expect('asksAgainFor' in first).toBe(false);
  });

  it('a redraw replaces the drawing; the expected highlight stays until it is cleared', () => {
    const book = new PromptBook();
    const prompt = book.open(view('a', 1), 'p1');
    book.expectHighlight(prompt, 2);
    book.redraw(prompt, view('a', 2));
    expect([prompt.parsed.highlighted, prompt.expectedHighlight]).toEqual([2, 2]);
    book.expectHighlight(prompt, undefined);
    expect('expectedHighlight' in prompt).toBe(false);
  });

  it('the text field counts characters typed and erased, never below none, until it closes', () => {
    const book = new PromptBook();
    const prompt = book.open(view('a'), 'p1');
    book.typeIntoAmend(prompt, 3);
    expect(prompt.amend).toBeUndefined();
    book.openAmend(prompt);
    book.typeIntoAmend(prompt, 5);
    book.typeIntoAmend(prompt, -1);
    expect(prompt.amend).toEqual({ typed: 4, openedBy: 'tab' });
    for (let i = 0; i < 6; i++) book.typeIntoAmend(prompt, -1);
    expect(prompt.amend).toEqual({ typed: 0, openedBy: 'tab' });
    book.closeAmend(prompt);
    expect('amend' in prompt).toBe(false);
  });

  it('a decision keeps the moment it was made; taking it back leaves the moment', () => {
    const book = new PromptBook();
    const prompt = book.open(view('a'), 'p1');
    book.decide(prompt, { eventId: 'r1', type: 'rejection', endsTurn: true }, moment);
    expect(prompt).toMatchObject({ decision: { eventId: 'r1', type: 'rejection', endsTurn: true }, turnEndsAtDecision: 2, shownUserMessagesAtDecision: 3, submitsAtDecision: 1 });
    expect(book.decidedBy('r1')).toBe(prompt);
    book.undecide(prompt);
    expect('decision' in prompt).toBe(false);
    expect(book.decidedBy('r1')).toBeUndefined();
    expect(prompt.turnEndsAtDecision).toBe(2);
  });

  it('call ids tied to prompts are claimed; the rejections of a call are its rejected prompts\' decisions', () => {
    const book = new PromptBook();
    const approved = book.open(view('a'), 'p1');
    const refused = book.open(view('b'), 'p2');
    const open = book.open(view('c'), 'p3');
    book.decide(approved, { eventId: 'a1', type: 'approval', endsTurn: false }, moment);
    book.decide(refused, { eventId: 'r1', type: 'rejection', endsTurn: true }, moment);
    book.tieCall(approved, 'c1');
    book.tieCall(refused, 'c2');
    book.noteInterruption(approved, 'i1');
    expect(book.claimedCallIds()).toEqual(new Set(['c1', 'c2']));
    expect(book.rejectionsOf('c2')).toEqual(new Set(['r1']));
    expect(book.rejectionsOf('c1')).toEqual(new Set());
    expect([approved.interruptionEventId, open.callId]).toEqual(['i1', undefined]);
  });
});
