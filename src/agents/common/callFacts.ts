// The facts side of the shared recorder: what this run's session file and hooks say about calls and
// turns (SessionFact, translated by the agent's profile), turned into call_ids, tool inputs, `ran`,
// `native`, skipped siblings and reasons on the events the screen-and-keys side (agentRecorder.ts)
// wrote. Composed of the call ledger, batch fates, the reason rule and the session-file follower.
import type { NewEvent } from '../../core/events.js';
import { NextMessageReasons } from '../../core/nextMessageReason.js';
import type { EventSink } from '../../core/sink.js';
import type { AgentProfile, PromptView, SessionFact, SessionFileRef } from './agentProfile.js';
import { BatchFates } from './batchFates.js';
import { CallLedger, type CallState } from './callLedger.js';
import { EventBook } from './eventBook.js';
import { MissCheck, type MissCount } from './missCheck.js';
import type { JsonlLine } from './jsonlFollower.js';
import { SessionFileFollower } from './sessionFileFollower.js';
import { systemClock, type RecorderClock } from './recorderClock.js';

/** `native` keeps the session file's own words; long tool output is cut to this many characters. */
const NATIVE_OUTPUT_MAX_CHARS = 2_000;

type FactOf<T extends SessionFact['type']> = Extract<SessionFact, { type: T }>;

export interface PromptInstance<P extends PromptView = PromptView> {
  /** The latest drawing of the prompt (the highlight moves, a resize re-wraps it). */
  parsed: P;
  readonly eventId: string;
  callId?: string;
  decision?: { readonly eventId: string; readonly type: 'approval' | 'rejection'; readonly endsTurn: boolean; readonly reasks?: boolean };
  /** The prompt whose choice made the agent ask again about the same call (OptionMeaning.reasks). */
  asksAgainFor?: PromptInstance<P>;
  /** Where arrows moved the highlight, until the screen shows it. */
  expectedHighlight?: number;
  /** The text field Tab opened (Claude's amend): how many characters the keys typed into it. */
  amend?: { typed: number };
  /**
   * An interruption written while this approved prompt's call was not in the session file yet (the
   * file trails the screen): it gets the call, and the call its fate, once the call is read.
   */
  interruptionEventId?: string;
  /** The file's turn-end count when the prompt was decided (a turn ended since: nothing of it runs). */
  turnEndsAtDecision?: number;
  /** How many user messages the screen showed when it was decided. */
  shownUserMessagesAtDecision?: number;
  /** How many messages the keys had submitted (Enter with no prompt open) when it was decided. */
  submitsAtDecision?: number;
}

export class CallFacts<P extends PromptView = PromptView> {
  private readonly _book: EventBook;
  private readonly _calls = new CallLedger();
  private readonly _prompts: Array<PromptInstance<P>> = [];
  private readonly _fates = new BatchFates();
  /** Rejection events waiting for the user's next message as their reason (the rule merge uses too). */
  private readonly _reasons = new NextMessageReasons<string>();
  private readonly _file: SessionFileFollower;
  private _turnOpenInFile = false;
  private _turnOpenByHook = false;
  /** How many turn ends (completed or aborted) the session file has shown so far. */
  private _turnEnds = 0;
  /**
   * The turn-end count when the latest user message was told (by the file or a hook): a message
   * told after a turn's end starts a new turn; one read late, before that end in the file, does not.
   */
  private _turnEndsAtLastUserMessage = -1;
  private _currentTurnId: string | undefined;
  /**
   * Events about a turn (an Esc while it worked) written while no session file was followed yet, so
   * with no turn id known: each goes to the next turn the file shows cut that no refusal cut.
   */
  private readonly _unboundTurnEvents: string[] = [];
  /** Whether a witness (the package, the session file) has told the agent's version. */
  private _versionKnown = false;
  private readonly _misses: MissCheck;

  constructor(
    private readonly _sink: EventSink,
    private readonly _profile: AgentProfile<P>,
    /** Events are stamped on the recorder's clock: a replay's events get the recording's times. */
    private readonly _clock: RecorderClock = systemClock,
    /** The screen as last seen where a decision may have been made (kept with a miss). */
    screen: () => string = () => '',
  ) {
    this._book = new EventBook(_sink);
    this._file = new SessionFileFollower((line) => this._onLine(line), (main) => _profile.companionFiles?.(main) ?? []);
    this._misses = new MissCheck(
      {
        calls: () => this._calls.all(),
        events: () => this._book.all(),
        promptedCalls: () => new Set(this._prompts.map((p) => p.callId).filter((id): id is string => id !== undefined)),
        kindOf: (call) => this._profile.callKind(call),
        screen,
      },
      (event) => this.event(event),
    );
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
    return this._versionKnown;
  }

  /** The package told the agent's version before anything was drawn. */
  versionTold(): void {
    this._versionKnown = true;
  }

  /** Whether the session file shows a turn that has not ended. */
  get turnOpenInFile(): boolean {
    return this._turnOpenInFile;
  }

  /** Whether the file or the hooks show a turn that has not ended. */
  get turnOpen(): boolean {
    return this._turnOpenInFile || this._turnOpenByHook;
  }

  /** How many turn ends (completed or aborted) the session file has shown so far. */
  get turnEnds(): number {
    return this._turnEnds;
  }

  /** The turn-end count when the latest user message was told. */
  get turnEndsAtLastUserMessage(): number {
    return this._turnEndsAtLastUserMessage;
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
    return this._prompts;
  }

  /** A prompt newly on screen: it gets a call now if one known fits it. */
  addPrompt(prompt: PromptInstance<P>): void {
    this._prompts.push(prompt);
    this.matchPrompts();
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

  /** The call's fate ended its turn: the batch's other calls are skipped because of it. */
  causedTurnEnd(call: CallState): void {
    this._fates.setCause(call.turnId, call.callId);
  }

  /** Takes back a decision the agent ignored: its event, its wait for a reason, its call's fate. */
  retractDecision(eventId: string, call: CallState | undefined): void {
    this._book.retract(eventId);
    this._reasons.retract(eventId);
    if (call) {
      delete call.fate;
      this._fates.clearCause(call.turnId, call.callId);
    }
  }

  /**
   * An Esc or an interrupt-menu choice wrote `eventId`: the running call (if any) was cut by it, and
   * `unread` (an approved prompt whose call the file has not shown yet) gets the cut once it is read.
   */
  interrupted(eventId: string, running: CallState | undefined, unread: PromptInstance<P> | undefined): void {
    if (unread) unread.interruptionEventId = eventId;
    if (running) {
      running.fate = 'interrupted';
      this._fates.setCause(running.turnId, running.callId);
    }
    this._addTurnEvent(running?.turnId ?? this._currentTurnId, eventId);
  }

  event(event: Omit<NewEvent, 'ts'>): string {
    return this._book.insert({ decided_by: 'user', ...event, ts: new Date(this._clock.now()).toISOString() }).id;
  }

  callFields(call: CallState | undefined): Partial<NewEvent> {
    if (!call) return {};
    return { call_id: call.callId, tool_name: call.toolName, tool_input: call.toolInput as NewEvent['tool_input'] };
  }

  pendingCalls(): CallState[] {
    const claimed = new Set(this._prompts.map((p) => p.callId).filter((id): id is string => id !== undefined));
    return this._calls.pending(claimed);
  }

  /** Ties prompts still without a call to the calls now known (in call order, the first one each shows). */
  matchPrompts(): void {
    let after = -1;
    for (const prompt of this._prompts) {
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
    const claimed = new Set(this._prompts.map((p) => p.callId).filter((id): id is string => id !== undefined));
    return this._calls.all().filter((c) => c.fate === undefined && !claimed.has(c.callId) && c.order > after);
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

  bindPrompt(prompt: PromptInstance<P>, call: CallState): void {
    prompt.callId = call.callId;
    if (prompt.decision) {
      call.fate = prompt.decision.type === 'approval' ? 'approved' : 'rejected';
      if (prompt.interruptionEventId !== undefined && call.output === undefined) {
        call.fate = 'interrupted';
        this._book.update(prompt.interruptionEventId, { ...this.callFields(call), related_call_id: call.callId });
        this._fates.setCause(call.turnId, call.callId);
      }
      if (prompt.decision.type === 'rejection' && prompt.decision.endsTurn) this._fates.setCause(call.turnId, call.callId);
    }
    for (const id of [prompt.eventId, prompt.decision?.eventId]) {
      if (!id) continue;
      this._book.update(id, this.callFields(call));
      this._book.addEvidence(id, call.fromSessionFile ? 'session_file' : 'hook');
    }
    this.refreshCallEvents(call);
  }

  /** Writes what is known about a call's outcome onto every event about it. */
  refreshCallEvents(call: CallState): void {
    for (const event of this._book.forCall(call.callId)) {
      const patch: Record<string, unknown> = {};
      if (Object.keys(call.native).length) patch.native = { ...call.native };
      if (call.ran === 'yes' && event.type !== 'interruption') patch.ran = 'yes';
      if (call.fromSessionFile) {
        patch.tool_name = call.toolName;
        patch.tool_input = call.toolInput;
      }
      this._book.update(event.id, patch);
      if (call.output !== undefined || call.native.turn_aborted !== undefined) this._book.addEvidence(event.id, 'session_file');
    }
  }

  /** Applies what the session file or a hook says. */
  apply(fact: SessionFact): void {
    switch (fact.type) {
      case 'session':
        return this._session(fact);
      case 'session_file':
        // A hook names a resumed session's file too: its earlier turns are not this run's.
        this._file.follow(fact.file, true, this._profile.runStartsAt?.(fact.file) ?? 0);
        return;
      case 'turn_started':
        return this._turnStarted(fact);
      case 'turn_completed':
        return this._turnCompleted(fact);
      case 'turn_aborted':
        this._turnEnds++;
        this._turnOpenInFile = false;
        this._turnOpenByHook = false;
        this._reasons.armAll((eventId) => this._rejectedInTurn(eventId, fact.turnId ?? this._currentTurnId));
        this._claimUnboundTurnEvent(fact.turnId ?? this._currentTurnId ?? '');
        this._onTurnAborted(fact.turnId ?? this._currentTurnId ?? '', fact.reason, fact.native);
        this._misses.check();
        return;
      case 'call':
        // A new call means the user's reason, if any, came before it; rejections whose effects the
        // file has not reached yet are about this batch (a sibling call) and keep waiting.
        if (fact.source === 'session_file') this._reasons.toolCall();
        this._learnCall(fact.callId, fact.toolName, fact.toolInput, fact.turnId ?? (fact.source === 'session_file' ? this._currentTurnId : undefined), fact.source === 'session_file', fact.native);
        return;
      case 'output':
        return this._output(fact);
      case 'refused':
        return this._refused(fact);
      case 'ran':
        return this._ran(fact);
      case 'cut':
        return this._cut(fact);
      case 'user_message':
        this._turnEndsAtLastUserMessage = this._turnEnds;
        // Read the file first: the end of the rejected turn there arms the rejection for this message.
        if (fact.source === 'hook') this._file.poll();
        for (const eventId of this._reasons.userMessage()) this._book.update(eventId, { reason: fact.text, reason_source: 'next_message' });
        return;
    }
  }

  private _session(fact: FactOf<'session'>): void {
    // The banner only fills a version no other witness gave; the session file's own field is
    // what the running agent wrote, so it stands over the package's.
    const version = fact.version !== undefined && !(fact.versionWitness === 'banner' && this._versionKnown) ? fact.version : undefined;
    if (version !== undefined) {
      this._profile.setVersion(version);
      this._versionKnown = true;
    }
    this._sink.updateRun({
      ...(fact.sessionId !== undefined ? { agent_session_id: fact.sessionId } : {}),
      ...(fact.file !== undefined ? { agent_session_file: fact.file } : {}),
      ...(version !== undefined ? { agent_version: version, agent_version_source: fact.versionWitness ?? 'session_file' } : {}),
    });
  }

  private _turnStarted(fact: FactOf<'turn_started'>): void {
    if (fact.source === 'hook') {
      this._turnOpenByHook = true;
      return;
    }
    if (fact.endMarked !== false) this._turnOpenInFile = true;
    this._currentTurnId = fact.turnId ?? this._currentTurnId;
  }

  private _turnCompleted(fact: FactOf<'turn_completed'>): void {
    if (fact.source === 'hook') {
      this._turnOpenByHook = false;
      return;
    }
    this._turnEnds++;
    // The hooks have no event for an aborted turn; the file's end of turn closes both views.
    this._turnOpenInFile = false;
    this._turnOpenByHook = false;
    this._reasons.turnCompleted();
    this._misses.check();
  }

  private _output(fact: FactOf<'output'>): void {
    const call = this._calls.get(fact.callId);
    if (!call) return;
    call.output = fact.text;
    call.aborted = fact.aborted;
    this._armReasonsOf(call.callId);
    call.native.output = fact.text.length > NATIVE_OUTPUT_MAX_CHARS ? fact.text.slice(0, NATIVE_OUTPUT_MAX_CHARS) + '…' : fact.text;
    if (fact.native) Object.assign(call.native, fact.native);
    if (!fact.aborted) call.ran = 'yes';
    if (fact.decision !== undefined) call.fileDecision = fact.decision;
    if (fact.reason !== undefined) {
      for (const e of this._book.forCall(call.callId)) if (e.type === 'rejection') this._book.update(e.id, { reason: fact.reason, reason_source: 'inline' });
    }
    this.refreshCallEvents(call);
  }

  private _refused(fact: FactOf<'refused'>): void {
    const call = this._calls.get(fact.callId);
    // A prompt's decision already stands for it (a person was asked after all): nothing to add.
    if (!call || this._book.forCall(call.callId).some((e) => e.type === 'rejection' || e.type === 'approval')) return;
    call.fate = 'rejected';
    this.event({
      type: 'rejection',
      kind: fact.kind ?? this._profile.callKind(call),
      ...this.callFields(call),
      decided_by: fact.decidedBy,
      trigger: fact.trigger,
      reason_source: 'none',
      ran: 'no',
      evidence: [fact.source],
    });
    this.refreshCallEvents(call);
  }

  private _ran(fact: FactOf<'ran'>): void {
    const call = this._calls.get(fact.callId);
    if (!call) return;
    call.ran = 'yes';
    this.refreshCallEvents(call);
    if (fact.source === 'hook') for (const e of this._book.forCall(call.callId)) this._book.addEvidence(e.id, 'hook');
  }

  private _cut(fact: FactOf<'cut'>): void {
    const call = this._calls.get(fact.callId);
    if (!call || this._book.forCall(call.callId).some((e) => e.type === 'interruption')) return;
    // The Esc's event of this turn that named no call (nothing approved was running on screen).
    const eventId = [...this._fates.turnEvents(this._currentTurnId ?? '')].reverse().find((id) => {
      const e = this._book.get(id);
      return e?.type === 'interruption' && !e.call_id;
    });
    if (eventId === undefined) return;
    call.fate = 'interrupted';
    this._book.update(eventId, { kind: fact.kind, ...this.callFields(call), related_call_id: call.callId, partial_output: null });
    this._fates.setCause(call.turnId, call.callId);
    this.refreshCallEvents(call);
  }

  /** Files an event under the turn it cut; without a file yet, under the next turn the file shows cut. */
  private _addTurnEvent(turnId: string | undefined, eventId: string): void {
    if (turnId === undefined && this._file.file === undefined) this._unboundTurnEvents.push(eventId);
    else this._fates.addTurnEvent(turnId, eventId);
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

  private _onLine(line: JsonlLine): void {
    if (line.earlier) {
      // A resumed session's earlier turns: only who the session is (its id, the agent's version).
      for (const fact of this._profile.translateRecord(line.text)) if (fact.type === 'session') this.apply({ ...fact, file: line.file });
      return;
    }
    this._sink.insertAgentRecord({ source_file: line.file, line_no: line.lineNo, byte_offset: line.byteOffset, record: line.text });
    const companion = line.file !== this._file.file ? line.file : undefined;
    for (const fact of this._profile.translateRecord(line.text, companion)) this.apply(fact.type === 'session' && companion === undefined ? { ...fact, file: line.file } : fact);
  }

  private _learnCall(callId: string, toolName: string, toolInput: unknown, turnId: string | undefined, fromSessionFile: boolean, native?: Readonly<Record<string, unknown>>): void {
    const learned = this._calls.learn(callId, toolName, toolInput, turnId, fromSessionFile);
    if (!learned) return;
    if (native) Object.assign(learned.call.native, native);
    if (!learned.isNew) this.refreshCallEvents(learned.call);
    // A call a hook told first may match a prompt only now that the file gave its whole input.
    this.matchPrompts();
  }

  /**
   * Whether a rejection may belong to the turn the file just showed ending: its call is in that
   * turn (or its turn is unknown), or it has no call yet and the file may never show one. The file
   * is read in order, so with a file that writes every refused call, a rejection with no call yet
   * was made in a later turn (the file runs behind the screen).
   */
  private _rejectedInTurn(eventId: string, turnId: string | undefined): boolean {
    const prompt = this._prompts.find((p) => p.decision?.eventId === eventId);
    const call = this._calls.get(prompt?.callId);
    if (call) return call.turnId === undefined || turnId === undefined || call.turnId === turnId;
    return !this._profile.writesRefusedCalls;
  }

  /** The file reached the outcome of `callId`: its rejection now waits for the next message. */
  private _armReasonsOf(callId: string): void {
    const eventIds = new Set(this._prompts.filter((p) => p.callId === callId && p.decision?.type === 'rejection').map((p) => p.decision!.eventId));
    this._reasons.arm(eventIds);
  }

  private _claimUnboundTurnEvent(turnId: string): void {
    if (this._unboundTurnEvents.length === 0 || this._fates.causeOf(turnId) !== undefined || this._fates.turnEvents(turnId).length > 0) return;
    this._fates.addTurnEvent(turnId, this._unboundTurnEvents.shift()!);
  }

  private _onTurnAborted(turnId: string, reason: string, native?: Readonly<Record<string, unknown>>): void {
    const cause = this._fates.causeOf(turnId);
    for (const call of this._calls.inTurn(turnId)) {
      call.native.turn_aborted = reason;
      // A call that finished on its own (output not cut) ran: it was not skipped (a tool the agent
      // allowed without asking, in the same batch).
      const finished = call.output !== undefined && call.aborted !== true;
      if (call.fate === undefined && !finished && cause !== undefined && cause !== call.callId) {
        call.fate = 'skipped';
        this.event({
          type: 'skipped',
          kind: this._profile.callKind(call),
          ...this.callFields(call),
          decided_by: null,
          related_call_id: cause,
          ran: call.ran === 'yes' ? 'yes' : 'no',
          evidence: ['session_file'],
        });
      }
      this.refreshCallEvents(call);
    }
    for (const id of this._fates.turnEvents(turnId)) {
      const event = this._book.get(id);
      this._book.update(id, { native: { ...((event?.native as object | null) ?? {}), turn_aborted: reason, ...(native ?? {}) } });
      this._book.addEvidence(id, 'session_file');
    }
  }
}
