// Applies what this run's session file and hooks say (SessionFact, translated by the agent's profile)
// to the parts that own each kind of state: calls to the call ledger, turns to the turn ledger, cut
// batches to the batch fates, reasons to the reason rule, and what follows for the events already
// written (call ids, tool inputs, `ran`, `native`, skipped siblings, reasons). It owns only whether a
// witness has told the agent's version.
import type { DecidedBy, ReasonSource } from '../../core/events.js';
import type { NextMessageReasons } from '../../core/nextMessageReason.js';
import type { EventSink } from '../../core/sink.js';
import type { AgentProfile, PromptView, SessionFact } from './agentProfile.js';
import type { BatchFates } from './batchFates.js';
import { callFields, type CallEvents } from './callEvents.js';
import type { CallLedger } from './callLedger.js';
import type { EventBook } from './eventBook.js';
import type { JsonlLine } from './jsonlFollower.js';
import type { MissCheck } from './missCheck.js';
import type { PromptBook } from './promptBook.js';
import type { SessionFileFollower } from './sessionFileFollower.js';
import type { TurnLedger } from './turnLedger.js';

type FactOf<T extends SessionFact['type']> = Extract<SessionFact, { type: T }>;

/**
 * Whose words a refusal's reason is, by who refused: a reviewer's rationale, a hook's message. A
 * rule's or a setting's refusal keeps no reason (none has been measured with one).
 */
const REASON_SOURCES: Partial<Record<DecidedBy, ReasonSource>> = { reviewer: 'reviewer', hook: 'hook' };

/** What the facts side needs of the agent's profile: its records' facts, and how it shows and names calls. */
export type FactsProfile<P extends PromptView> = Pick<
  AgentProfile<P>,
  'setVersion' | 'translateRecord' | 'companionFiles' | 'runStartsAt' | 'promptShowsCall' | 'callKind' | 'writesRefusedCalls' | 'decisionsNameTheirCall'
>;

/** The parts a fact changes, each through its own methods. */
export interface FactTargets<P extends PromptView> {
  readonly sink: EventSink;
  readonly profile: FactsProfile<P>;
  readonly book: EventBook;
  readonly events: CallEvents;
  readonly calls: CallLedger;
  /** Read only here: the prompts tell which rejection is about which call. */
  readonly prompts: PromptBook<P>;
  readonly turns: TurnLedger;
  readonly fates: BatchFates;
  /** Rejection events waiting for the user's next message as their reason (the rule merge uses too). */
  readonly reasons: NextMessageReasons<string>;
  readonly file: SessionFileFollower;
  readonly misses: MissCheck;
  /** Ties prompts still without a call to the calls now known. */
  matchPrompts(): void;
}

export class FactApplier<P extends PromptView = PromptView> {
  /** Whether a witness (the package, the session file) has told the agent's version. */
  private _versionKnown = false;

  constructor(private readonly _t: FactTargets<P>) {}

  /** Whether a witness (the package, the session file) has told the agent's version. */
  get versionKnown(): boolean {
    return this._versionKnown;
  }

  /** The package told the agent's version before anything was drawn. */
  versionTold(): void {
    this._versionKnown = true;
  }

  /** Applies what the session file or a hook says. */
  apply(fact: SessionFact): void {
    switch (fact.type) {
      case 'session':
        return this._session(fact);
      case 'session_file':
        // A hook names a resumed session's file too: its earlier turns are not this run's.
        this._t.file.follow(fact.file, true, this._t.profile.runStartsAt?.(fact.file) ?? 0);
        return;
      case 'turn_started':
        return this._t.turns.started(fact.source, fact.turnId, fact.endMarked);
      case 'turn_completed':
        return this._turnCompleted(fact);
      case 'turn_aborted':
        return this._turnAborted(fact);
      case 'call':
        return this._call(fact);
      case 'output':
        return this._output(fact);
      case 'refused':
        return this._refused(fact);
      case 'reviewed':
        return this._reviewed(fact);
      case 'ran':
        return this._ran(fact);
      case 'cut':
        return this._cut(fact);
      case 'user_message':
        return this._userMessage(fact);
    }
  }

  /** A line the session follower read: copied to agent_records, then its facts applied. */
  onLine(line: JsonlLine): void {
    const { profile, sink, file } = this._t;
    if (line.earlier) {
      // A resumed session's earlier turns: only who the session is (its id, the agent's version).
      for (const fact of profile.translateRecord(line.text)) if (fact.type === 'session') this.apply({ ...fact, file: line.file });
      return;
    }
    sink.insertAgentRecord({ source_file: line.file, line_no: line.lineNo, byte_offset: line.byteOffset, record: line.text });
    const companion = line.file !== file.file ? line.file : undefined;
    for (const fact of profile.translateRecord(line.text, companion)) this.apply(fact.type === 'session' && companion === undefined ? { ...fact, file: line.file } : fact);
  }

  private _session(fact: FactOf<'session'>): void {
    // The banner only fills a version no other witness gave; the session file's own field is
    // what the running agent wrote, so it stands over the package's.
    const version = fact.version !== undefined && !(fact.versionWitness === 'banner' && this._versionKnown) ? fact.version : undefined;
    if (version !== undefined) {
      this._t.profile.setVersion(version);
      this._versionKnown = true;
    }
    this._t.sink.updateRun({
      ...(fact.sessionId !== undefined ? { agent_session_id: fact.sessionId } : {}),
      ...(fact.file !== undefined ? { agent_session_file: fact.file } : {}),
      ...(version !== undefined ? { agent_version: version, agent_version_source: fact.versionWitness ?? 'session_file' } : {}),
    });
  }

  private _turnCompleted(fact: FactOf<'turn_completed'>): void {
    if (!this._t.turns.completed(fact.source)) return;
    this._t.reasons.turnCompleted();
    this._t.misses.check();
  }

  private _turnAborted(fact: FactOf<'turn_aborted'>): void {
    const { turns, reasons, fates } = this._t;
    const turnId = fact.turnId ?? turns.currentTurnId;
    if (fact.unlessUserCut !== undefined && !this._userCutOrDecided(undefined, turnId)) {
      // No key of the user's cut it: the agent did, on the account of whoever refused before.
      const id = this._t.events.write({
        type: 'interruption',
        kind: 'system',
        call_id: null,
        decided_by: fact.unlessUserCut,
        trigger: null,
        related_call_id: turnId !== undefined ? (fates.causeOf(turnId) ?? this._lastRefusedBy(fact.unlessUserCut, turnId) ?? null) : null,
        evidence: ['session_file'],
      });
      fates.addTurnEvent(turnId, id);
    }
    turns.aborted();
    reasons.armAll((eventId) => this._rejectedInTurn(eventId, fact.turnId ?? turns.currentTurnId));
    fates.claimUnboundTurnEvent(fact.turnId ?? turns.currentTurnId ?? '');
    this._markTurnAborted(fact.turnId ?? turns.currentTurnId ?? '', fact.reason, fact.native);
    this._t.misses.check();
  }

  private _call(fact: FactOf<'call'>): void {
    const fromSessionFile = fact.source === 'session_file';
    // A new call means the user's reason, if any, came before it; rejections whose effects the
    // file has not reached yet are about this batch (a sibling call) and keep waiting.
    if (fromSessionFile) this._t.reasons.toolCall();
    const turnId = fact.turnId ?? (fromSessionFile ? this._t.turns.currentTurnId : undefined);
    const learned = this._t.calls.learn(fact.callId, fact.toolName, fact.toolInput, turnId, fromSessionFile);
    if (!learned) return;
    if (fact.native) this._t.calls.addNative(fact.callId, fact.native);
    if (!learned.isNew) this._t.events.refresh(fact.callId);
    // A call a hook told first may match a prompt only now that the file gave its whole input.
    this._t.matchPrompts();
  }

  private _userMessage(fact: FactOf<'user_message'>): void {
    this._t.turns.userMessageTold();
    // Read the file first: the end of the rejected turn there arms the rejection for this message.
    if (fact.source === 'hook') this._t.file.poll();
    for (const eventId of this._t.reasons.userMessage()) this._t.book.update(eventId, { reason: fact.text, reason_source: 'next_message' });
  }

  private _output(fact: FactOf<'output'>): void {
    const { calls, book } = this._t;
    const call = calls.get(fact.callId);
    if (!call) return;
    if (fact.aborted && fact.unlessUserCut !== undefined && !this._userCutOrDecided(call.callId, call.turnId)) {
      // No key of the user's: the agent cut it itself, and its words for the cut are not a decision.
      const { decision: _decision, ...output } = fact;
      calls.recordOutput(fact.callId, output);
      this._refused({ type: 'refused', callId: fact.callId, decidedBy: fact.unlessUserCut, source: 'session_file' });
      this._t.fates.setCause(call.turnId, call.callId);
      return;
    }
    calls.recordOutput(fact.callId, fact);
    // The file reached the outcome of the call: its rejection now waits for the next message.
    this._t.reasons.arm(this._t.prompts.rejectionsOf(fact.callId));
    if (fact.reason !== undefined) {
      for (const e of book.forCall(fact.callId)) if (e.type === 'rejection') book.update(e.id, { reason: fact.reason, reason_source: 'inline' });
    }
    this._t.events.refresh(fact.callId);
  }

  private _refused(fact: FactOf<'refused'>): void {
    const call = this._t.calls.get(fact.callId);
    if (!call) return;
    const decided = this._t.book.forCall(call.callId).filter((e) => e.type === 'rejection' || e.type === 'approval');
    if (decided.length > 0) {
      // A prompt's decision already stands for it (a person was asked after all), or this refusal,
      // told by another witness first (a hook, then the file): at most the reason it lacked is added.
      const reasonSource = REASON_SOURCES[fact.decidedBy];
      for (const e of decided) {
        if (e.type === 'rejection' && e.decided_by === fact.decidedBy && reasonSource !== undefined && !e.reason && fact.reason !== undefined) {
          this._t.book.update(e.id, { reason: fact.reason, reason_source: reasonSource });
        }
        if (fact.source !== 'hook' && e.decided_by === fact.decidedBy) for (const witness of fact.evidence ?? [fact.source]) this._t.book.addEvidence(e.id, witness);
      }
      return;
    }
    this._t.calls.setFate(call.callId, 'rejected');
    if (fact.native) this._t.calls.addNative(call.callId, fact.native);
    const reasonSource = fact.reason !== undefined ? REASON_SOURCES[fact.decidedBy] : undefined;
    this._t.events.write({
      type: 'rejection',
      kind: fact.kind ?? this._t.profile.callKind(call),
      ...callFields(call),
      decided_by: fact.decidedBy,
      trigger: fact.trigger ?? null,
      ...(reasonSource !== undefined ? { reason: fact.reason } : {}),
      reason_source: reasonSource ?? 'none',
      ran: 'no',
      evidence: [...(fact.evidence ?? [fact.source])],
    });
    this._t.events.refresh(call.callId);
  }

  /** The last call of the turn that `decider` refused (the one whose refusal the agent cut the turn after). */
  private _lastRefusedBy(decider: string, turnId: string): string | undefined {
    const { calls, book } = this._t;
    const refused = calls.inTurn(turnId).filter((c) => book.forCall(c.callId).some((e) => e.type === 'rejection' && e.decided_by === decider));
    return refused.at(-1)?.callId;
  }

  /**
   * Whether the recorder wrote anything of the user's about this call or its turn: a decision on
   * it, or a cut of the turn (a key while it worked, waiting for its turn or bound to it).
   */
  private _userCutOrDecided(callId: string | undefined, turnId: string | undefined): boolean {
    const { book, fates } = this._t;
    if (callId !== undefined && book.forCall(callId).some((e) => e.decided_by === 'user')) return true;
    if (fates.hasUnboundTurnEvents) return true;
    return turnId !== undefined && fates.turnEvents(turnId).some((id) => book.get(id)?.decided_by === 'user');
  }

  private _reviewed(fact: FactOf<'reviewed'>): void {
    const { calls, book } = this._t;
    const call = calls.get(fact.callId);
    if (!call) return;
    if (fact.outcome === 'deny') {
      // The refusal may stand already (from the call's output): _refused adds the rationale it lacked.
      this._refused({ type: 'refused', callId: call.callId, decidedBy: 'reviewer', ...(fact.rationale !== undefined ? { reason: fact.rationale } : {}), source: fact.source });
      return;
    }
    if (book.forCall(call.callId).some((e) => e.type === 'rejection' || e.type === 'approval')) return;
    calls.setFate(call.callId, 'approved');
    this._t.events.write({
      type: 'approval',
      kind: this._t.profile.callKind(call),
      ...callFields(call),
      decided_by: 'reviewer',
      trigger: null,
      scope: 'once',
      ran: call.ran ?? 'unknown',
      evidence: [fact.source],
    });
    this._t.events.refresh(call.callId);
  }

  private _ran(fact: FactOf<'ran'>): void {
    const { calls, book } = this._t;
    if (!calls.get(fact.callId)) return;
    calls.markRan(fact.callId);
    this._t.events.refresh(fact.callId);
    if (fact.source === 'hook') for (const e of book.forCall(fact.callId)) book.addEvidence(e.id, 'hook');
  }

  private _cut(fact: FactOf<'cut'>): void {
    const { calls, book, fates } = this._t;
    const call = calls.get(fact.callId);
    if (!call || book.forCall(call.callId).some((e) => e.type === 'interruption')) return;
    // The Esc's event of this turn that named no call (nothing approved was running on screen).
    const eventId = [...fates.turnEvents(this._t.turns.currentTurnId ?? '')].reverse().find((id) => {
      const e = book.get(id);
      return e?.type === 'interruption' && !e.call_id;
    });
    if (eventId === undefined) return;
    calls.setFate(call.callId, 'interrupted');
    // A stop at a dialog about the session (kind `prompt`) keeps its kind: the call waited there and never ran.
    const atDialog = book.get(eventId)?.kind === 'prompt';
    book.update(eventId, atDialog ? callFields(call) : { kind: fact.kind, ...callFields(call), related_call_id: call.callId, partial_output: null });
    fates.setCause(call.turnId, call.callId);
    this._t.events.refresh(call.callId);
  }

  /**
   * Whether a rejection may belong to the turn the file just showed ending: its call is in that
   * turn (or its turn is unknown), or it has no call yet and the file may never show one. The file
   * is read in order, so with a file that writes every refused call, a rejection with no call yet
   * was made in a later turn (the file runs behind the screen).
   */
  private _rejectedInTurn(eventId: string, turnId: string | undefined): boolean {
    const call = this._t.calls.get(this._t.prompts.decidedBy(eventId)?.callId);
    if (call) return call.turnId === undefined || turnId === undefined || call.turnId === turnId;
    return !this._t.profile.writesRefusedCalls;
  }

  /** The file shows the turn cut: its undecided calls were skipped because of the cause; its events say why. */
  private _markTurnAborted(turnId: string, reason: string, native?: Readonly<Record<string, unknown>>): void {
    const { calls, book, fates } = this._t;
    const cause = fates.causeOf(turnId);
    for (const call of calls.inTurn(turnId)) {
      calls.addNative(call.callId, { turn_aborted: reason });
      // A call that finished on its own (output not cut) ran: it was not skipped (a tool the agent
      // allowed without asking, in the same batch).
      const finished = call.output !== undefined && call.aborted !== true;
      // The file says a person decided it at its own prompt (one the recorder missed): not skipped.
      const decidedAlone = this._t.profile.decisionsNameTheirCall === true && call.fileDecision !== undefined;
      if (call.fate === undefined && !finished && !decidedAlone && cause !== undefined && cause !== call.callId) {
        calls.setFate(call.callId, 'skipped');
        this._t.events.write({
          type: 'skipped',
          kind: this._t.profile.callKind(call),
          ...callFields(call),
          decided_by: null,
          related_call_id: cause,
          ran: call.ran === 'yes' ? 'yes' : 'no',
          evidence: ['session_file'],
        });
      }
      this._t.events.refresh(call.callId);
    }
    for (const id of fates.turnEvents(turnId)) {
      const event = book.get(id);
      book.update(id, { native: { ...((event?.native as object | null) ?? {}), turn_aborted: reason, ...(native ?? {}) } });
      book.addEvidence(id, 'session_file');
    }
  }
}
