// Every approval prompt this run showed, with its decision and the call it was tied to. The book is
// the only writer of its prompts: the prompt tracker (keys, redraws) and the call facts (call ids,
// cuts) read them through the read-only PromptInstance and ask the book for every change.
import type { PromptView } from './agentProfile.js';

/** What opened a prompt's text field: Tab (Claude's amend), a digit, or arrows or Enter on its option. */
export type FieldOpener = 'tab' | 'digit' | 'highlight';

export interface PromptDecision {
  readonly eventId: string;
  readonly type: 'approval' | 'rejection';
  readonly endsTurn: boolean;
  readonly reasks?: boolean;
}

/** Where the run stood when a prompt was decided: later, what changed since tells a new turn. */
export interface DecisionMoment {
  /** The file's turn-end count (a turn ended since: nothing of it runs). */
  readonly turnEnds: number;
  /** How many user messages the screen showed. */
  readonly shownUserMessages: number;
  /** How many messages the keys had submitted (Enter with no prompt open). */
  readonly submits: number;
  /** How many messages the call ledger had counted (CallLedger.spoken). */
  readonly spoken: number;
}

export interface PromptInstance<P extends PromptView = PromptView> {
  /** The latest drawing of the prompt (the highlight moves, a resize re-wraps it). */
  readonly parsed: P;
  readonly eventId: string;
  readonly callId?: string;
  readonly decision?: PromptDecision;
  /** The prompt whose choice made the agent ask again about the same call (OptionMeaning.reasks). */
  readonly asksAgainFor?: PromptInstance<P>;
  /** Where arrows moved the highlight, until the screen shows it. */
  readonly expectedHighlight?: number;
  /**
   * The text field open on the highlighted option: how many characters the keys typed into it, and
   * the key that opened it (Tab, Claude's amend; a digit or arrows onto an option that opens one).
   */
  readonly amend?: { readonly typed: number; readonly openedBy: FieldOpener };
  /**
   * An interruption written while this approved prompt's call was not in the session file yet (the
   * file trails the screen): it gets the call, and the call its fate, once the call is read.
   */
  readonly interruptionEventId?: string;
  /** The file's turn-end count when the prompt was decided (a turn ended since: nothing of it runs). */
  readonly turnEndsAtDecision?: number;
  /** How many user messages the screen showed when it was decided. */
  readonly shownUserMessagesAtDecision?: number;
  /** How many messages the keys had submitted (Enter with no prompt open) when it was decided. */
  readonly submitsAtDecision?: number;
  /** CallLedger.spoken when it was decided. */
  readonly spokenAtDecision?: number;
}

/** The book's own, writable copy of a prompt. */
type BookPrompt<P extends PromptView> = { -readonly [K in keyof PromptInstance<P>]: PromptInstance<P>[K] } & { amend?: { typed: number; openedBy: FieldOpener } };

export class PromptBook<P extends PromptView = PromptView> {
  private readonly _prompts: Array<BookPrompt<P>> = [];

  /** Every prompt seen, in order. */
  get all(): ReadonlyArray<PromptInstance<P>> {
    return this._prompts;
  }

  /** A prompt newly on screen, whose `prompt` event is `eventId`; `asksAgainFor` the one whose choice re-asked. */
  open(parsed: P, eventId: string, asksAgainFor?: PromptInstance<P>): PromptInstance<P> {
    const prompt: BookPrompt<P> = { parsed, eventId, ...(asksAgainFor ? { asksAgainFor } : {}) };
    this._prompts.push(prompt);
    return prompt;
  }

  /** The same prompt drawn again (the highlight moved, a resize re-wrapped it, the user's edit shows). */
  redraw(prompt: PromptInstance<P>, parsed: P): void {
    this._own(prompt).parsed = parsed;
  }

  /** Where arrows moved the highlight; undefined once the screen shows it. */
  expectHighlight(prompt: PromptInstance<P>, highlighted: number | undefined): void {
    const own = this._own(prompt);
    if (highlighted === undefined) delete own.expectedHighlight;
    else own.expectedHighlight = highlighted;
  }

  /** `openedBy` opened the prompt's text field (nothing typed yet). */
  openAmend(prompt: PromptInstance<P>, openedBy: FieldOpener = 'tab'): void {
    this._own(prompt).amend = { typed: 0, openedBy };
  }

  /** Characters typed into (positive) or erased from (negative) the open text field; never below none. */
  typeIntoAmend(prompt: PromptInstance<P>, characters: number): void {
    const amend = this._own(prompt).amend;
    if (amend) amend.typed = Math.max(0, amend.typed + characters);
  }

  /** The highlight left the text field: from here the screen tells whether one is open. */
  closeAmend(prompt: PromptInstance<P>): void {
    delete this._own(prompt).amend;
  }

  /** A decisive key decided the prompt, at `moment`. */
  decide(prompt: PromptInstance<P>, decision: PromptDecision, moment: DecisionMoment): void {
    const own = this._own(prompt);
    own.decision = decision;
    own.turnEndsAtDecision = moment.turnEnds;
    own.shownUserMessagesAtDecision = moment.shownUserMessages;
    own.submitsAtDecision = moment.submits;
    own.spokenAtDecision = moment.spoken;
  }

  /** Takes back a decision the agent ignored: the prompt is open again. */
  undecide(prompt: PromptInstance<P>): void {
    delete this._own(prompt).decision;
  }

  /** Ties the prompt to the call it shows. */
  tieCall(prompt: PromptInstance<P>, callId: string): void {
    this._own(prompt).callId = callId;
  }

  /** An interruption cut this approved prompt's call before the session file showed the call. */
  noteInterruption(prompt: PromptInstance<P>, eventId: string): void {
    this._own(prompt).interruptionEventId = eventId;
  }

  /** The call ids prompts were tied to. */
  claimedCallIds(): Set<string> {
    return new Set(this._prompts.map((p) => p.callId).filter((id): id is string => id !== undefined));
  }

  /** The prompt whose decision wrote `eventId`. */
  decidedBy(eventId: string): PromptInstance<P> | undefined {
    return this._prompts.find((p) => p.decision?.eventId === eventId);
  }

  /** The rejection events of the prompts tied to `callId`. */
  rejectionsOf(callId: string): Set<string> {
    return new Set(this._prompts.filter((p) => p.callId === callId && p.decision?.type === 'rejection').map((p) => p.decision!.eventId));
  }

  // The book hands out its own records as read-only views: taking one back is the only way to write it.
  private _own(prompt: PromptInstance<P>): BookPrompt<P> {
    return prompt as BookPrompt<P>;
  }
}
