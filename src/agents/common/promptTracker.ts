// The lifecycle of approval prompts, the same for every agent: a prompt on screen is adopted by its
// identity (a redraw is the same prompt), opens its `prompt` event, a decisive key turns into an
// approval or rejection before the agent sees it, a decision the agent ignored is taken back, and
// a prompt still open when the agent exits is recorded as cut by the exit.
import type { NewEvent } from '../../core/events.js';
import type { KeyEvent } from '../../core/keys.js';
import type { AgentProfile, OptionRules, PromptView } from './agentProfile.js';
import type { CallFacts } from './callFacts.js';
import type { PromptBook, PromptDecision, PromptInstance } from './promptBook.js';
import type { ListOption } from './optionList.js';
import { arrowDelta, choosePromptOption, moveHighlight, settledMeaning, type Choice } from './optionKeys.js';

/** A decision to check later: was its key taken, or did the agent ignore it? */
export interface Decided<P extends PromptView> {
  readonly prompt: PromptInstance<P>;
  readonly eventId: string;
  /** The agent's decision rows on screen when the key came. */
  readonly rowsAtKey: number;
}

export class PromptTracker<P extends PromptView> {
  /** The prompt that is the live bottom pane now; undefined when none is. */
  private _onScreen: PromptInstance<P> | undefined;
  /** How many user messages the screen shows now. */
  private _shownUserMessages = 0;
  /**
   * How many times Enter was pressed with no prompt, menu or decided prompt on screen: a message
   * sent (or an empty input). A full-screen agent whose dialog hides the history shows no more
   * messages after one, and its file may trail the screen: the keys still tell.
   */
  private _submits = 0;
  /** The prompts' owner: every change to a prompt record is asked of it. */
  private readonly _book: PromptBook<P>;

  constructor(
    private readonly _facts: CallFacts<P>,
    private readonly _profile: AgentProfile<P>,
    /** Reads the session file (or looks for it): a new prompt is the best witness of which file is ours. */
    private readonly _readSessionFile: () => void,
  ) {
    this._book = _facts.promptBook;
  }

  /** Whether a live prompt takes keys now. */
  get open(): PromptInstance<P> | undefined {
    return this._onScreen;
  }

  /** The screen's live prompt (undefined when none is live), and how many user messages it shows. */
  show(prompt: P | undefined, shownUserMessages: number): void {
    this._shownUserMessages = shownUserMessages;
    if (!prompt) {
      this._onScreen = undefined;
    } else if (this._onScreen?.parsed.identity === prompt.identity) {
      const open = this._onScreen;
      this._book.redraw(open, prompt);
      if (open.expectedHighlight !== undefined && open.expectedHighlight === prompt.highlighted) this._book.expectHighlight(open, undefined);
    } else {
      this._onScreen = this._adopt(prompt);
    }
  }

  /** Enter at the agent's input, not at a prompt or menu. */
  submitted(): void {
    this._submits++;
    this._facts.userSpoke();
  }

  /** A key at the open prompt; returns the decision it made, if any. */
  key(key: KeyEvent, shown: PromptInstance<P>, decisionRows: number): Decided<P> | undefined {
    // A decided prompt takes no more keys: until the agent redraws, the screen may still show it.
    // Unless its choice made the agent ask again: a key at the same drawing is for the new question.
    if (shown.decision && !shown.decision.reasks) return undefined;
    const open = shown.decision ? this._askAgain(shown, shown.parsed) : shown;
    const facts = this._facts;
    const parsed = open.parsed;
    const rules = parsed.listedKeysOnly ? { ...this._profile.optionRules, hiddenRejectLetters: [], ctrlCRejects: false } : this._profile.optionRules;
    const current = open.expectedHighlight ?? parsed.highlighted ?? 1;
    const delta = arrowDelta(key);
    if (delta !== 0) {
      // Moving the highlight leaves the field: from here the screen tells whether one is open.
      this._book.closeAmend(open);
      this._book.expectHighlight(open, moveHighlight(current, delta, parsed.options.length, rules));
      return undefined;
    }
    // An option that is a text field is one whenever it is highlighted (OptionMeaning.opensField):
    // from the first key on it, the keys count what is typed there.
    if (!open.amend && this._opensField(parsed.options.find((o) => o.number === current), rules)) this._book.openAmend(open, 'highlight');
    if (this._amendKey(key, open, current)) return undefined;
    // The keys know the field before the screen does (its echo may not be in the screen model when
    // Enter comes); the screen knows text the keys could not count (a paste the decoder did not see).
    const field = open.amend || parsed.feedback ? { typed: (open.amend?.typed ?? 0) > 0 || parsed.feedback?.typed === true } : undefined;
    // While a text field is open, characters are its text: only Enter and Esc decide.
    if (field && key.type === 'char') return undefined;
    const choice = choosePromptOption(key, parsed.options, current, rules);
    if (!choice) return undefined;
    const meaning = choice.option ? settledMeaning(rules.meaning(choice.option.label, parsed)) : undefined;
    if (meaning?.opensField && field?.typed !== true && this._holdsField(choice, open)) return undefined;
    const rejects = choice.trigger === 'ctrl_c' || meaning?.decision !== 'approve';
    // Enter on a field with text submits it (the decision came through the field: trigger `tab`
    // for Tab's field, else the key that chose the option); Esc on one throws the typed text away:
    // the rejection says a reason was typed inline (its source) and holds none.
    const submitsText = field?.typed === true && choice.trigger === 'enter';
    const discardsText = field?.typed === true && choice.trigger === 'esc';
    const call = facts.call(open.callId);
    const type = rejects ? 'rejection' : 'approval';
    const eventId = facts.event({
      type,
      kind: parsed.kind,
      trigger: submitsText ? fieldTrigger(open, meaning?.opensField === true) : choice.trigger,
      option_label: choice.option?.label ?? null,
      ...(rejects ? { reason_source: submitsText || discardsText ? 'inline' : 'none', ran: 'no' } : { scope: meaning?.scope ?? 'once', ran: 'unknown' }),
      ...facts.callFields(call),
      prompt_event_id: open.eventId,
      evidence: call ? ['screen', 'keys', call.fromSessionFile ? 'session_file' : 'hook'] : ['screen', 'keys'],
    });
    // Esc and Ctrl+C cancel the turn; of the options, those whose meaning says so, unless a reason
    // goes with the refusal (the agent goes on with it).
    // A subagent's prompt ends nothing: the subagent is told and goes on, and so does the main turn;
    // nor does a dialog whose refusal cancels only its call (refusalKeepsTurn).
    const endsTurn = rejects && parsed.subagent === undefined && parsed.refusalKeepsTurn !== true && (choice.trigger === 'esc' || choice.trigger === 'ctrl_c' || (meaning?.endsTurn !== false && !submitsText));
    const decision: PromptDecision = { eventId, type, endsTurn, ...(meaning?.reasks ? { reasks: true } : {}) };
    this._book.decide(open, decision, { turnEnds: facts.turnEnds, shownUserMessages: this._shownUserMessages, submits: this._submits, spoken: facts.spoken });
    if (rejects && this._profile.reasonPolicy !== 'inline') facts.awaitReason(eventId);
    if (call) facts.bindPrompt(open, call);
    return { prompt: open, eventId, rowsAtKey: decisionRows };
  }

  /**
   * Tab opening the agent's text field on an option that takes one (Claude's amend), and what is
   * typed into it, counted from the keys and never kept. True when the key was the field's.
   */
  private _amendKey(key: KeyEvent, open: PromptInstance<P>, highlighted: number): boolean {
    const amend = open.amend;
    if (amend) {
      if (key.type === 'char' || key.type === 'paste') {
        this._book.typeIntoAmend(open, key.type === 'paste' ? key.text.length : 1);
        return true;
      }
      if (key.type === 'key' && key.name === 'backspace') {
        this._book.typeIntoAmend(open, -1);
        return true;
      }
      return false;
    }
    if (key.type !== 'key' || key.name !== 'tab' || key.alt) return false;
    const option = open.parsed.options.find((o) => o.number === highlighted);
    if (option && this._profile.optionRules.amends?.(option.label, open.parsed)) this._book.openAmend(open);
    return true;
  }

  /**
   * A digit or Enter on an option that opens a text field, with nothing typed in it: the field opens
   * (a digit moves the highlight onto it) and nothing is decided. True when the key was so taken.
   */
  private _holdsField(choice: Choice, open: PromptInstance<P>): boolean {
    if (choice.trigger !== 'digit' && choice.trigger !== 'enter') return false;
    if (choice.trigger === 'digit' && choice.option) this._book.expectHighlight(open, choice.option.number);
    if (!open.amend) this._book.openAmend(open, choice.trigger === 'digit' ? 'digit' : 'highlight');
    return true;
  }

  private _opensField(option: ListOption | undefined, rules: OptionRules): boolean {
    return option !== undefined && rules.meaning(option.label)?.opensField === true;
  }

  /**
   * Takes back a decision whose prompt is still open and unchanged once the screen has settled:
   * no new decision row, no outcome in the session file, and the agent does not deny a prompt waits.
   */
  retractIfIgnored(check: Decided<P>, decisionRowsNow: number): void {
    const facts = this._facts;
    const open = check.prompt;
    if (this._onScreen !== open || open.decision?.eventId !== check.eventId) return;
    const call = facts.call(open.callId);
    if (call?.output !== undefined || decisionRowsNow !== check.rowsAtKey || !this._profile.promptMayBeOpen()) return;
    facts.retractDecision(open, check.eventId, call);
  }

  /**
   * After the agent exited. The prompt may already be gone from the screen (agents clear it on
   * exit): the last prompt without a decision whose call has no outcome is the one left open.
   */
  leftOpenAtExit(): void {
    const facts = this._facts;
    const open = facts.prompts.filter((p) => !p.decision).at(-1);
    const openCall = facts.call(open?.callId);
    if (!open || open !== facts.prompts.at(-1) || openCall?.output !== undefined || openCall?.fate !== undefined) return;
    facts.event({
      type: 'interruption',
      kind: 'prompt',
      trigger: 'exit',
      ...facts.callFields(openCall),
      prompt_event_id: open.eventId,
      ran: 'no',
      evidence: ['screen'],
    });
    if (openCall) facts.promptOpenAtExit(openCall);
  }

  /**
   * A live prompt that was not live in the last frame: the same undecided prompt redrawn (resize,
   * repaint), a new prompt, or what is left of a decided one (undefined: it takes no keys). A
   * decided prompt counts again only when it is redrawn for another call still pending.
   */
  private _adopt(prompt: P): PromptInstance<P> | undefined {
    this._readSessionFile();
    const facts = this._facts;
    const last = [...facts.prompts].reverse().find((p) => p.parsed.identity === prompt.identity);
    if (last && !last.decision) {
      this._book.redraw(last, prompt);
      return last;
    }
    // The agent asks again about the call of a choice that re-asks: the next dialog is that question,
    // whether it looks the same or shows the user's edit.
    const latest = facts.prompts.at(-1);
    if (latest?.decision?.reasks && this._mayAskAgain(latest, prompt)) return this._askAgain(latest, prompt);
    // The dialog drawn once more before the editor opened, then the question asked again: one prompt,
    // which shows what was asked last.
    if (latest?.asksAgainFor && !latest.decision) {
      this._book.redraw(latest, prompt);
      this._facts.updateEvent(latest.eventId, { prompt: promptShown(prompt) });
      return latest;
    }
    // After a refusal that ended the turn, the agent may still draw the batch's other dialogs for a
    // moment while it cancels them (Gemini 0.61 flashes "2 of 3", "3 of 3"), and a loaded screen
    // model may draw them after the file already shows the turn's end: nothing of that turn can be
    // decided any more. The next prompt comes in a next turn, which a user message starts.
    if (latest?.decision?.type === 'rejection' && latest.decision.endsTurn && !this._userSpokeSince(latest)) return undefined;
    // A message sent since the last such prompt was decided: this one is new, not that one redrawn,
    // even while the file has not told its call yet.
    if (last?.decision && !this._submittedSince(last)) {
      const pendingShown = facts.pendingCalls().some((c) => c.callId !== last.callId && this._profile.promptShowsCall(prompt, c));
      if (!pendingShown) return undefined;
    }
    return this._openPrompt(prompt);
  }

  /**
   * Whether the user started a new turn since the prompt was decided: a message told after the file
   * showed a turn's end (the refused one's), or one more message on screen.
   */
  private _userSpokeSince(prompt: PromptInstance<P>): boolean {
    const endsAt = prompt.turnEndsAtDecision;
    const shownAt = prompt.shownUserMessagesAtDecision;
    if (endsAt === undefined || shownAt === undefined) return true;
    return this._facts.turnEndsAtLastUserMessage > endsAt || this._shownUserMessages > shownAt || this._submittedSince(prompt);
  }

  /** Whether Enter sent a message at the agent's input after the prompt was decided. */
  private _submittedSince(prompt: PromptInstance<P>): boolean {
    return prompt.submitsAtDecision !== undefined && this._submits > prompt.submitsAtDecision;
  }

  /**
   * Whether `prompt` may be the question asked again about `latest`'s call: always while that call
   * is not known yet, else only when the prompt shows it (an agent may not ask again after all, and
   * show another call's prompt next: Copilot asks no shell prompt for a command a rule allows).
   */
  private _mayAskAgain(latest: PromptInstance<P>, prompt: P): boolean {
    const call = this._facts.call(latest.callId);
    return call === undefined || this._profile.promptShowsCall(prompt, call);
  }

  /** The dialog shown again after a choice that re-asks (OptionMeaning.reasks): a new prompt, same call. */
  private _askAgain(previous: PromptInstance<P>, parsed: P): PromptInstance<P> {
    const again = this._openPrompt(parsed, previous);
    this._onScreen = again;
    return again;
  }

  private _openPrompt(parsed: P, asksAgainFor?: PromptInstance<P>): PromptInstance<P> {
    const eventId = this._facts.event({ type: 'prompt', kind: parsed.kind, decided_by: null, prompt: promptShown(parsed), evidence: ['screen'] });
    return this._facts.openPrompt(parsed, eventId, asksAgainFor);
  }
}

/**
 * The trigger of a refusal or choice submitted through a text field: `tab` for the field Tab opened
 * (Claude's amend); for an option that is itself a field (Copilot's "No, and tell Copilot…"), the
 * key that chose the option: `digit` when a digit opened the field, else `enter` (arrows moved onto
 * it and Enter submitted: the way an arrowed choice is recorded everywhere).
 */
function fieldTrigger(open: PromptInstance, optionIsField: boolean): 'tab' | 'digit' | 'enter' {
  const openedBy = open.amend?.openedBy;
  if (openedBy === 'tab' || (openedBy === undefined && !optionIsField)) return 'tab';
  return openedBy === 'digit' ? 'digit' : 'enter';
}

/** What a prompt event says the prompt showed. */
function promptShown(parsed: PromptView): NonNullable<NewEvent['prompt']> {
  const details: Record<string, string> = { ...parsed.details, ...(parsed.command !== undefined ? { command: parsed.command } : {}) };
  return { title: parsed.title, details, options: parsed.options.map((o) => ({ label: o.label, ...(o.key ? { key: o.key } : {}) })) };
}
