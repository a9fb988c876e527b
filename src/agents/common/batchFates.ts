// The fate of every call of a batch once one of them was refused or cut: the turn's end names the
// call that ended it (the cause), and each sibling that got no decision of its own was skipped
// because of it (`skipped` with `related_call_id`). Interruptions not tied to a call wait here for
// the turn's end to confirm them; those written before any turn id could be known (no session file
// yet) wait unbound for the next turn the file shows cut.
export class BatchFates {
  /** Per turn: the call whose rejection or interruption ended it. */
  private readonly _cause = new Map<string, string>();
  /** Per turn: interruption events not tied to a call. */
  private readonly _turnEvents = new Map<string, string[]>();
  /** Events about a turn written with no turn id known, oldest first. */
  private readonly _unboundTurnEvents: string[] = [];

  setCause(turnId: string | undefined, callId: string): void {
    if (turnId) this._cause.set(turnId, callId);
  }

  /** Forgets a cause that turned out not to be one (a key the agent ignored). */
  clearCause(turnId: string | undefined, callId: string): void {
    if (turnId && this._cause.get(turnId) === callId) this._cause.delete(turnId);
  }

  causeOf(turnId: string): string | undefined {
    return this._cause.get(turnId);
  }

  addTurnEvent(turnId: string | undefined, eventId: string): void {
    if (turnId === undefined) return;
    this._turnEvents.set(turnId, [...(this._turnEvents.get(turnId) ?? []), eventId]);
  }

  turnEvents(turnId: string): readonly string[] {
    return this._turnEvents.get(turnId) ?? [];
  }

  /** Whether an event about a turn waits for the turn the file shows cut next. */
  get hasUnboundTurnEvents(): boolean {
    return this._unboundTurnEvents.length > 0;
  }

  /** An event about a turn (an Esc while it worked) written while no turn id could be known. */
  addUnboundTurnEvent(eventId: string): void {
    this._unboundTurnEvents.push(eventId);
  }

  /**
   * The file shows `turnId` cut: it takes the oldest unbound event, unless a cause or an event of
   * its own already explains the cut (that event was about a later turn).
   */
  claimUnboundTurnEvent(turnId: string): void {
    if (this._unboundTurnEvents.length === 0 || this.causeOf(turnId) !== undefined || this.turnEvents(turnId).length > 0) return;
    this.addTurnEvent(turnId, this._unboundTurnEvents.shift()!);
  }
}
