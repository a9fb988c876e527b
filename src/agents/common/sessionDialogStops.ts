// Keys at a dialog about the session, not about a call, that holds the turn (ScreenReading.sessionDialog;
// Claude's auto-mode "can't check actions in this session"): they decide no call and send no message.
// One that stops the turn there is the user's interruption of the call the dialog holds (callFacts.ts
// stoppedAtDialog), taken back when the agent dropped the key: the dialog still drawn once the screen
// settled, as a dropped key at a prompt is.
import type { KeyEvent } from '../../core/keys.js';
import type { SessionDialog } from './agentProfile.js';
import type { CallFacts, DialogStop } from './callFacts.js';

export class SessionDialogStops {
  /** The latest stop, until the screen has settled and shown it taken. */
  private _pending: DialogStop | undefined;

  constructor(
    private readonly _facts: Pick<CallFacts, 'stoppedAtDialog' | 'retractDialogStop'>,
    /** Runs a check once a key had time to be taken; undefined for an agent that drops no key. */
    private readonly _afterKeySettled: ((check: () => void) => void) | undefined,
    /** Whether the dialog is still drawn, on the screen as it is now; undefined once the recorder is gone. */
    private readonly _dialogShown: () => boolean | undefined,
  ) {}

  /** A key at the dialog; says what it did, for the debug log. */
  key(key: KeyEvent, dialog: SessionDialog): string {
    const trigger = stopTrigger(key, dialog);
    if (trigger === undefined) return 'at a dialog about the session: nothing';
    // The dialog still shows after an earlier stop: that key was not taken (yet), this one is the
    // stop; unless the file already ended the call (the screen trails it), and the earlier one stands.
    if (this._pending && !this._facts.retractDialogStop(this._pending)) return 'at a dialog about the session, stopped already: nothing';
    const stop = this._facts.stoppedAtDialog(trigger);
    this._pending = stop;
    this._afterKeySettled?.(() => this._check(stop));
    return 'at a dialog about the session: the turn stopped there';
  }

  private _check(stop: DialogStop): void {
    if (this._pending !== stop) return;
    const shown = this._dialogShown();
    if (shown === undefined) return;
    this._pending = undefined;
    if (shown) this._facts.retractDialogStop(stop);
  }
}

/** The trigger of a key that stops the turn at the dialog, or undefined for a key that does not. */
function stopTrigger(key: KeyEvent, dialog: SessionDialog): 'esc' | 'shift_tab' | undefined {
  if (key.type !== 'key' || key.alt) return undefined;
  if (key.name === 'esc' && dialog.stops.includes('esc')) return 'esc';
  const shiftTab = key.name === 'shift-tab' || (key.name === 'tab' && key.modifiers?.shift === true);
  return shiftTab && dialog.stops.includes('shift-tab') ? 'shift_tab' : undefined;
}
