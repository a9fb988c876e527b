// Where the agent's turns stand, as the session file and the hooks tell it: whether a turn is open
// (each witness's view), how many turns the file has shown ending, the turn it is in, and the count
// when the user's latest message was told. The only writer of that state; every change is a method.
import type { FactSource } from './agentProfile.js';

export class TurnLedger {
  private _openInFile = false;
  private _openByHook = false;
  /** How many turn ends (completed or aborted) the session file has shown so far. */
  private _ends = 0;
  /**
   * The turn-end count when the latest user message was told (by the file or a hook): a message
   * told after a turn's end starts a new turn; one read late, before that end in the file, does not.
   */
  private _endsAtLastUserMessage = -1;
  private _currentTurnId: string | undefined;

  /** Whether the session file shows a turn that has not ended. */
  get openInFile(): boolean {
    return this._openInFile;
  }

  /** Whether the file or the hooks show a turn that has not ended. */
  get open(): boolean {
    return this._openInFile || this._openByHook;
  }

  /** How many turn ends (completed or aborted) the session file has shown so far. */
  get ends(): number {
    return this._ends;
  }

  /** The turn-end count when the latest user message was told. */
  get endsAtLastUserMessage(): number {
    return this._endsAtLastUserMessage;
  }

  /** The turn the session file is in (the latest it started); undefined before the file shows one. */
  get currentTurnId(): string | undefined {
    return this._currentTurnId;
  }

  /**
   * A turn started. A file that never writes a turn's normal end (`endMarked: false`) gives only the
   * turn's id: whether a turn is open is then left to the screen and the hooks.
   */
  started(source: FactSource, turnId?: string, endMarked?: boolean): void {
    if (source === 'hook') {
      this._openByHook = true;
      return;
    }
    if (endMarked !== false) this._openInFile = true;
    this._currentTurnId = turnId ?? this._currentTurnId;
  }

  /** A turn ended normally; true when the session file showed it (a turn end counted). */
  completed(source: FactSource): boolean {
    if (source === 'hook') {
      this._openByHook = false;
      return false;
    }
    this._fileEnded();
    return true;
  }

  /** The session file shows the turn cut (only the file tells that). */
  aborted(): void {
    this._fileEnded();
  }

  /** The user's message was told (by the file or a hook). */
  userMessageTold(): void {
    this._endsAtLastUserMessage = this._ends;
  }

  private _fileEnded(): void {
    this._ends++;
    // The hooks have no event for an aborted turn; the file's end of turn closes both views.
    this._openInFile = false;
    this._openByHook = false;
  }
}
