// The facts side of the shared recorder, as a thin coordinator: what this run's session file and
// hooks say about calls and turns, turned into call_ids, tool inputs, `ran`, `native`, skipped
// siblings and reasons on the events the screen-and-keys side (agentRecorder.ts, promptTracker.ts)
// wrote. Each kind of state has one owner, and only the owner changes it: the call ledger (calls),
// the prompt book (prompts and their decisions), the turn ledger (turns), batch fates (what cut a
// turn), the reason rule, the event book (events). The fact applier applies the file's and the
// hooks' facts to them; what is left here ties prompts to calls and takes a decision back or cuts one.
import type { NewEvent } from '../../core/events.js';
import { NextMessageReasons } from '../../core/nextMessageReason.js';
import type { EventSink } from '../../core/sink.js';
import type { PromptView, SessionFact, SessionFileRef } from './agentProfile.js';
import { BatchFates } from './batchFates.js';
import { CallEvents, callFields } from './callEvents.js';
import { CallLedger, type CallState } from './callLedger.js';
import { EventBook } from './eventBook.js';
import { FactApplier, type FactsProfile } from './factApplier.js';
import { MissCheck, type MissCount } from './missCheck.js';
import { PromptBook, type PromptInstance } from './promptBook.js';
import { SessionFileFollower } from './sessionFileFollower.js';
import { systemClock, type RecorderClock } from './recorderClock.js';
import { TurnLedger } from './turnLedger.js';

/** A stop at a session dialog, as written: taken back if the agent did not take its key. */
export interface DialogStop {
  readonly eventId: string;
  readonly callId?: string;
}

export class CallFacts<P extends PromptView = PromptView> {
  private readonly _book: EventBook;
  private readonly _events: CallEvents;
  private readonly _calls = new CallLedger();
  private readonly _prompts = new PromptBook<P>();
  private readonly _turns = new TurnLedger();
  private readonly _fates = new BatchFates();
  private readonly _reasons = new NextMessageReasons<string>();
  private readonly _file: SessionFileFollower;
  private readonly _misses: MissCheck;
  private readonly _applier: FactApplier<P>;

  constructor(
    sink: EventSink,
    private readonly _profile: FactsProfile<P>,
    /** Events are stamped on the recorder's clock: a replay's events get the recording's times. */
    clock: RecorderClock = systemClock,
    /** The screen as last seen where a decision may have been made (kept with a miss). */
    screen: () => string = () => '',
  ) {
    this._book = new EventBook(sink);
    this._events = new CallEvents(this._book, this._calls, clock);
    this._file = new SessionFileFollower((line) => this._applier.onLine(line), (main) => _profile.companionFiles?.(main) ?? []);
    this._misses = new MissCheck(
      {
        calls: () => this._calls.all(),
        events: () => this._book.all(),
        promptedCalls: () => this._prompts.claimedCallIds(),
        kindOf: (call) => this._profile.callKind(call),
        screen,
      },
      (event) => this.event(event),
    );
    this._applier = new FactApplier<P>({
      sink,
      profile: _profile,
      book: this._book,
      events: this._events,
      calls: this._calls,
      prompts: this._prompts,
      turns: this._turns,
      fates: this._fates,
      reasons: this._reasons,
      file: this._file,
      misses: this._misses,
      matchPrompts: () => this.matchPrompts(),
    });
  }

  /** The decisions the agent's file showed a person took, and how many of them the recorder missed. */
  get missCount(): MissCount {
    return this._misses.count;
  }

  /** Compares the file's decisions with the recorder's events now (each turn's end does; so does the exit). */
  checkMisses(): void {
    this._misses.check();
  }

  /** Whether a witness (the package, the session file) has told the agent's version. */
  get versionKnown(): boolean {
    return this._applier.versionKnown;
  }

  /** The package told the agent's version before anything was drawn. */
  versionTold(): void {
    this._applier.versionTold();
  }

  /** Whether the session file shows a turn that has not ended. */
  get turnOpenInFile(): boolean {
    return this._turns.openInFile;
  }

  /** Whether the file or the hooks show a turn that has not ended. */
  get turnOpen(): boolean {
    return this._turns.open;
  }

  /** How many turn ends (completed or aborted) the session file has shown so far. */
  get turnEnds(): number {
    return this._turns.ends;
  }

  /** The turn-end count when the latest user message was told. */
  get turnEndsAtLastUserMessage(): number {
    return this._turns.endsAtLastUserMessage;
  }

  /** The session file followed; undefined until one is bound. */
  get sessionFile(): string | undefined {
    return this._file.file;
  }

  /** Follows the session file the screen's witnesses bound to this run (not one a hook named). */
  followSessionFile(ref: SessionFileRef): void {
    this._file.follow(ref.file, false, ref.from, ref.heldFd);
  }

  /** Closes the session files followed (the run is over). */
  close(): void {
    this._file.close();
  }

  /** Reads what the followed files appended. */
  pollSessionFiles(): void {
    this._file.poll();
  }

  /** Companion files that appeared (a directory listing), then what every file appended. */
  readSessionFiles(): void {
    this._file.discover();
    this._file.poll();
  }

  /** Whether any event was recorded. */
  hasEvents(): boolean {
    return this._book.all().length > 0;
  }

  /** Every prompt seen, in order. */
  get prompts(): ReadonlyArray<PromptInstance<P>> {
    return this._prompts.all;
  }

  /** The prompts' owner: the prompt tracker changes prompt records through it. */
  get promptBook(): PromptBook<P> {
    return this._prompts;
  }

  /** A prompt newly on screen, with its `prompt` event: it gets a call now if one known fits it. */
  openPrompt(parsed: P, eventId: string, asksAgainFor?: PromptInstance<P>): PromptInstance<P> {
    const prompt = this._prompts.open(parsed, eventId, asksAgainFor);
    this.matchPrompts();
    return prompt;
  }

  call(callId: string | undefined): CallState | undefined {
    return this._calls.get(callId);
  }

  /** The call running now, if any. */
  runningCall(): CallState | undefined {
    return this._calls.running();
  }

  updateEvent(eventId: string, patch: Parameters<EventBook['update']>[1]): void {
    this._book.update(eventId, patch);
  }

  /** A rejection that waits for the user's next message as its reason. */
  awaitReason(eventId: string): void {
    this._reasons.rejected(eventId);
  }

  /** The agent exited with the prompt of `call` open: that ended its turn, and the batch's other calls are skipped because of it. */
  promptOpenAtExit(call: CallState): void {
    this._calls.setFate(call.callId, 'prompt_open');
    this._fates.setCause(call.turnId, call.callId);
  }

  /** Takes back a decision the agent ignored: its event, its wait for a reason, its call's fate, the prompt's decision. */
  retractDecision(prompt: PromptInstance<P>, eventId: string, call: CallState | undefined): void {
    this._book.retract(eventId);
    this._reasons.retract(eventId);
    if (call) {
      this._calls.setFate(call.callId, undefined);
      this._fates.clearCause(call.turnId, call.callId);
    }
    this._prompts.undecide(prompt);
  }

  /**
   * An Esc or an interrupt-menu choice wrote `eventId`: the running call (if any) was cut by it, and
   * `unread` (an approved prompt whose call the file has not shown yet) gets the cut once it is read.
   */
  interrupted(eventId: string, running: CallState | undefined, unread: PromptInstance<P> | undefined): void {
    if (unread) this._prompts.noteInterruption(unread, eventId);
    if (running) {
      this._calls.setFate(running.callId, 'interrupted');
      this._fates.setCause(running.turnId, running.callId);
    }
    const turnId = running?.turnId ?? this._turns.currentTurnId;
    // No turn id known yet (no file yet, or the file has not shown this run's first turn: Claude's
    // transcript may trail the screen by a second or more): the event goes to the next turn the
    // file shows cut.
    if (turnId === undefined) this._fates.addUnboundTurnEvent(eventId);
    else this._fates.addTurnEvent(turnId, eventId);
  }

  /**
   * The user stopped the turn at a dialog about the session (ScreenReading.sessionDialog): the call
   * it held never runs, an interruption of kind `prompt`, and the batch's other calls are skipped
   * because of it. Only a call that is the one pending is named: with none or several, no call id.
   */
  stoppedAtDialog(trigger: 'esc' | 'shift_tab'): DialogStop {
    const pending = this.pendingCalls();
    const held = pending.length === 1 ? pending[0] : undefined;
    const eventId = this.event({
      type: 'interruption',
      kind: 'prompt',
      trigger,
      ...callFields(held),
      ran: 'no',
      evidence: held ? ['screen', 'keys', held.fromSessionFile ? 'session_file' : 'hook'] : ['screen', 'keys'],
    });
    // As an Esc that cuts a running call: the call's fate and its batch's, or, with no call known
    // yet, the call the file then shows cut (a run cut short, in its words) is this stop's.
    this.interrupted(eventId, held, undefined);
    return { eventId, ...(held ? { callId: held.callId } : {}) };
  }

  /**
   * Takes back a stop at a dialog the agent did not take (it still shows), unless the file already
   * tells the call's end; returns whether it was taken back.
   */
  retractDialogStop(stop: DialogStop): boolean {
    const call = this._calls.get(stop.callId);
    if (call?.output !== undefined) return false;
    this._book.retract(stop.eventId);
    if (call) {
      this._calls.setFate(call.callId, undefined);
      this._fates.clearCause(call.turnId, call.callId);
    }
    return true;
  }

  event(event: Omit<NewEvent, 'ts'>): string {
    return this._events.write(event);
  }

  callFields(call: CallState | undefined): Partial<NewEvent> {
    return callFields(call);
  }

  /** The user sent a message (Enter at the agent's input): see CallLedger.userSpoke. */
  userSpoke(): void {
    this._calls.userSpoke();
  }

  get spoken(): number {
    return this._calls.spoken;
  }

  pendingCalls(): CallState[] {
    return this._calls.pending(this._prompts.claimedCallIds());
  }

  /** Ties prompts still without a call to the calls now known (in call order, the first one each shows). */
  matchPrompts(): void {
    let after = -1;
    for (const prompt of this._prompts.all) {
      const bound = prompt.callId !== undefined ? this._calls.get(prompt.callId) : undefined;
      if (bound) after = Math.max(after, bound.order);
      if (prompt.callId !== undefined) continue;
      const asked = prompt.asksAgainFor?.callId;
      const call =
        asked !== undefined
          ? this._calls.get(asked)
          : this._candidates(prompt, after)
              .sort((a, b) => a.order - b.order)
              .find((c) => this._profile.promptShowsCall(prompt.parsed, c));
      if (call) {
        this._bindAskedAgain(prompt, call);
        after = Math.max(after, call.order);
      }
    }
  }

  /**
   * The calls a prompt may show: pending ones; for a decided prompt also a call whose outcome the
   * file told in the same read that first told the call (Claude writes a refused call and its
   * refusal together, after the key), as long as it comes after the calls earlier prompts showed.
   */
  private _candidates(prompt: PromptInstance<P>, after: number): CallState[] {
    if (!prompt.decision) return this.pendingCalls();
    const claimed = this._prompts.claimedCallIds();
    // A call a hook told first after the user spoke again is of a later turn (its own prompt's).
    const laterTurn = (c: CallState) => c.hookToldAt !== undefined && prompt.spokenAtDecision !== undefined && c.hookToldAt > prompt.spokenAtDecision;
    return this._calls.all().filter((c) => c.fate === undefined && !claimed.has(c.callId) && c.order > after && !laterTurn(c));
  }

  /**
   * Binds a prompt and the prompts it asked again for (one call: the first shows the arguments
   * before the user changed them, so only a later one may match the call), earliest first, so that
   * the call's fate is the last decision.
   */
  private _bindAskedAgain(prompt: PromptInstance<P>, call: CallState): void {
    const chain: Array<PromptInstance<P>> = [];
    for (let p: PromptInstance<P> | undefined = prompt; p; p = p.asksAgainFor) if (p.callId === undefined) chain.unshift(p);
    for (const p of chain) this.bindPrompt(p, call);
  }

  /** Ties the prompt to the call it shows: the call takes the prompt's decision as its fate, the prompt's events the call. */
  bindPrompt(prompt: PromptInstance<P>, call: CallState): void {
    this._prompts.tieCall(prompt, call.callId);
    if (prompt.parsed.askedWhileRunning === true) this._calls.markRan(call.callId);
    if (prompt.decision) {
      this._calls.setFate(call.callId, prompt.decision.type === 'approval' ? 'approved' : 'rejected');
      if (prompt.interruptionEventId !== undefined && call.output === undefined) {
        this._calls.setFate(call.callId, 'interrupted');
        this._book.update(prompt.interruptionEventId, { ...callFields(call), related_call_id: call.callId });
        this._fates.setCause(call.turnId, call.callId);
      }
      if (prompt.decision.type === 'rejection' && prompt.decision.endsTurn) this._fates.setCause(call.turnId, call.callId);
    }
    for (const id of [prompt.eventId, prompt.decision?.eventId]) {
      if (!id) continue;
      this._book.update(id, callFields(call));
      this._book.addEvidence(id, call.fromSessionFile ? 'session_file' : 'hook');
    }
    this._events.refresh(call.callId);
  }

  /** Applies what the session file or a hook says. */
  apply(fact: SessionFact): void {
    this._applier.apply(fact);
  }

  /**
   * The run ended with several session files fitting the screen equally and nothing to separate
   * them: the events that wait for a call keep none, and say why (a wrong call id is worse than none).
   */
  noteSessionAmbiguous(candidates: number): void {
    for (const event of this._book.all()) {
      if (event.call_id) continue;
      const native = (event.native as Record<string, unknown> | null | undefined) ?? {};
      this._book.update(event.id, { native: { ...native, session: 'ambiguous', session_candidates: candidates } });
    }
  }
}
