// The shared prompt tracker's keys at an option that is a text field (OptionMeaning.opensField,
// Copilot's "No, and tell Copilot what to do differently"): a digit or Enter on it with nothing typed
// decides nothing, Enter with text refuses with the reason typed inline, Esc refuses; and Tab's field
// (Claude's amend) keeps its trigger. A small fake agent; the real agents' keys are their replays'.
import { describe, expect, it } from 'vitest';
import type { AgentProfile, OptionRules, PromptView } from '../../../../src/agents/common/agentProfile.js';
import { CallFacts } from '../../../../src/agents/common/callFacts.js';
import { PromptTracker } from '../../../../src/agents/common/promptTracker.js';
import type { KeyEvent } from '../../../../src/core/keys.js';
import { keyEvent } from '../../../../src/lab/keys.js';
import { MemorySink } from '../../../support/memorySink.js';
import { PlainFactsProfile } from '../../../support/factsProfile.js';
import { VirtualClock } from '../../../support/virtualClock.js';

const FIELD = 'No, and tell the agent what to do differently (Esc to stop)';

const RULES: OptionRules = {
  meaning: (label) => {
    if (label.startsWith('Yes')) return { decision: 'approve', scope: label === 'Yes' ? 'once' : 'always' };
    if (label === FIELD) return { decision: 'reject', endsTurn: true, opensField: true };
    return undefined;
  },
  hiddenRejectLetters: [],
  selectionWraps: false,
  ctrlCRejects: true,
  ctrlCInterrupts: false,
  escChoosesRejectOption: false,
  amends: (label) => label === 'Yes',
};

function prompt(highlighted = 1, feedback?: { typed: boolean }): PromptView {
  return {
    identity: 'p',
    kind: 'command',
    title: 'Run shell command',
    command: 'touch m',
    details: {},
    options: [
      { number: 1, label: 'Yes', highlighted: highlighted === 1, row: 5 },
      { number: 2, label: "Yes, and don't ask again", highlighted: highlighted === 2, row: 6 },
      { number: 3, label: FIELD, highlighted: highlighted === 3, row: 7 },
    ],
    highlighted,
    ...(feedback ? { feedback } : {}),
  };
}

function setUp() {
  const sink = new MemorySink();
  const facts = new CallFacts(sink, new PlainFactsProfile(), new VirtualClock(0));
  const profile = { optionRules: RULES, reasonPolicy: 'inline', promptMayBeOpen: () => true, promptShowsCall: () => false } as unknown as AgentProfile;
  const tracker = new PromptTracker(facts, profile, () => undefined);
  tracker.show(prompt(), 0);
  /** Presses the keys in turn; the decisions they made. */
  const press = (...keys: Array<string | KeyEvent>) => {
    for (const k of keys) tracker.key(typeof k === 'string' ? keyEvent(k) : k, tracker.open!, 0);
    return sink.events.filter((e) => e.type === 'rejection' || e.type === 'approval');
  };
  return { tracker, press };
}

const typed = (text: string) => [...text];

describe('an option that opens a text field (OptionMeaning.opensField)', () => {
  it('a digit on it, then Enter with nothing typed: nothing is decided, the highlight moved to it', () => {
    const { tracker, press } = setUp();
    expect(press('3', 'enter')).toEqual([]);
    expect(tracker.open?.expectedHighlight).toBe(3);
    expect(tracker.open?.decision).toBeUndefined();
  });

  it('a digit, text, Enter: a rejection with trigger digit and the reason typed inline; the turn goes on', () => {
    const { tracker, press } = setUp();
    // The field's characters are never option keys, digits included.
    expect(press('3', ...typed('use 1 printf'))).toEqual([]);
    const [rejection, ...more] = press('enter');
    expect(more).toEqual([]);
    expect(rejection).toMatchObject({ type: 'rejection', trigger: 'digit', option_label: FIELD, reason_source: 'inline' });
    expect(tracker.open?.decision).toMatchObject({ type: 'rejection', endsTurn: false });
  });

  it('text erased again leaves the field empty: Enter decides nothing', () => {
    const { press } = setUp();
    expect(press('3', 'a', 'b', 'backspace', 'backspace', 'enter')).toEqual([]);
  });

  it('a digit, text, Esc: a rejection with trigger esc, reason typed inline (and thrown away); the turn ends', () => {
    const { tracker, press } = setUp();
    const [rejection] = press('3', ...typed('no'), 'esc');
    expect(rejection).toMatchObject({ type: 'rejection', trigger: 'esc', option_label: null, reason_source: 'inline' });
    expect(tracker.open?.decision).toMatchObject({ endsTurn: true });
  });

  it('a digit, then Esc with nothing typed: a rejection whose reason source is none', () => {
    const { press } = setUp();
    expect(press('3', 'esc')).toMatchObject([{ type: 'rejection', trigger: 'esc', reason_source: 'none' }]);
  });

  it('arrows onto it, then Enter: nothing; text and Enter then refuse with trigger enter', () => {
    const { tracker, press } = setUp();
    expect(press('down', 'down', 'enter')).toEqual([]);
    expect(tracker.open?.amend).toEqual({ typed: 0, openedBy: 'highlight' });
    expect(press(...typed('x'), 'enter')).toMatchObject([{ type: 'rejection', trigger: 'enter', option_label: FIELD, reason_source: 'inline' }]);
  });

  it('the screen showing the field highlighted: Enter decides nothing until text was typed (by the keys or the screen)', () => {
    const { tracker, press } = setUp();
    tracker.show(prompt(3, { typed: false }), 0);
    expect(press('enter', 'y')).toEqual([]);
    tracker.show(prompt(3, { typed: true }), 0);
    expect(press('enter')).toMatchObject([{ type: 'rejection', trigger: 'enter', reason_source: 'inline' }]);
  });

  it('the field highlighted on screen counts the keys typed into it, before the screen echoes them', () => {
    const { tracker, press } = setUp();
    tracker.show(prompt(3, { typed: false }), 0);
    expect(press('a')).toEqual([]);
    expect(press('enter')).toMatchObject([{ type: 'rejection', trigger: 'enter', reason_source: 'inline' }]);
  });

  it('arrows away close the field: the keys are option keys again', () => {
    const { tracker, press } = setUp();
    expect(press('3', ...typed('ab'), 'up')).toEqual([]);
    expect(tracker.open?.amend).toBeUndefined();
    expect(tracker.open?.expectedHighlight).toBe(2);
    expect(press('1')).toMatchObject([{ type: 'approval', trigger: 'digit', option_label: 'Yes', scope: 'once' }]);
  });

  it('arrows away, then Enter: the option highlighted is chosen', () => {
    const { press } = setUp();
    expect(press('down', 'down', 'up', 'enter')).toMatchObject([{ type: 'approval', trigger: 'enter', option_label: "Yes, and don't ask again", scope: 'always' }]);
  });

  it("Tab's field (Claude's amend) on an option that decides: Enter with text keeps trigger tab", () => {
    const { tracker, press } = setUp();
    expect(press('tab', ...typed('ok'))).toEqual([]);
    expect(tracker.open?.amend).toEqual({ typed: 2, openedBy: 'tab' });
    expect(press('enter')).toMatchObject([{ type: 'approval', trigger: 'tab', option_label: 'Yes' }]);
  });

  it('options without a field decide at once, as before', () => {
    const { press } = setUp();
    expect(press('2')).toMatchObject([{ type: 'approval', trigger: 'digit', scope: 'always' }]);
  });
});
