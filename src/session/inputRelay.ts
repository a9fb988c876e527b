// The user's keystrokes on their way to the agent. Bytes are forwarded untouched and in order; on
// the way, decoded keys are shown to the recorder, which may commit an event before the key is
// forwarded (the event for a decisive key is durable before the agent sees the key).
import { KeyDecoder, LONE_ESC_TIMEOUT_MS } from '../core/keyDecoder.js';
import type { KeyEvent } from '../core/keys.js';

const ESC = 0x1b;

export interface KeyObserver {
  /** True while keys are decisive (a prompt or a running tool is on screen). */
  readonly watching: boolean;
  /** Sees each key before its bytes are forwarded. The caller guards it against throwing. */
  handleKey(key: KeyEvent): void;
}

export class InputRelay {
  private readonly _decoder = new KeyDecoder();
  private _heldTimer: NodeJS.Timeout | undefined;
  /** Bytes the decoder still holds (an incomplete sequence at the end of the input so far). */
  private _pendingLength = 0;
  /** How many of those pending bytes were already forwarded (we forward at once when not watching). */
  private _forwardedAhead = 0;

  constructor(
    private readonly _forward: (bytes: Buffer) => void,
    private _observer: KeyObserver | undefined = undefined,
  ) {}

  setObserver(observer: KeyObserver | undefined): void {
    this._observer = observer;
  }

  handleInput(chunk: Buffer): void {
    if (this._heldTimer) {
      clearTimeout(this._heldTimer);
      this._heldTimer = undefined;
    }
    const keys = this._decoder.feed(chunk);
    const completed = totalLength(keys);
    const heldBefore = this._pendingLength;
    this._pendingLength = heldBefore + chunk.length - completed;
    this._notify(keys);

    if (heldBefore === 0 && this._pendingLength === 0) {
      // The common case: the chunk is exactly the completed keys; forward it as it came.
      this._forward(chunk);
      return;
    }
    this._forwardCompleted(keys, completed);
    const unforwarded = this._pendingLength - this._forwardedAhead;
    if (unforwarded <= 0) return;
    const loneEsc = this._pendingLength === 1 && chunk[chunk.length - 1] === ESC;
    if (!this._observer?.watching) {
      // Nothing decisive on screen: never delay the user's bytes. The held bytes are still decided
      // as keys, now for a lone Esc and after the silence otherwise, never joined to a later read
      // (an Esc pressed here then a digit at the next prompt would be one Alt+digit).
      this._forward(chunk.subarray(chunk.length - unforwarded));
      this._forwardedAhead = this._pendingLength;
      if (loneEsc) this._flushHeld();
      else this._heldTimer = setTimeout(() => this._flushHeld(), LONE_ESC_TIMEOUT_MS);
      return;
    }
    if (loneEsc) {
      // An ESC that ends a read is the Esc key, as the agents' own TUIs (crossterm, ink) take it:
      // decide it now — commit, then forward — with no delay.
      this._flushHeld();
      return;
    }
    // The start of a longer sequence split across reads: wait the short silence terminals use to
    // tell a key from a sequence, then decide, commit and forward.
    this._heldTimer = setTimeout(() => this._flushHeld(), LONE_ESC_TIMEOUT_MS);
  }

  /** Forwards whatever is still held; input is never swallowed. */
  dispose(): void {
    if (this._heldTimer) clearTimeout(this._heldTimer);
    this._heldTimer = undefined;
    this._flushHeld();
  }

  private _flushHeld(): void {
    this._heldTimer = undefined;
    const keys = this._decoder.flush();
    const completed = totalLength(keys);
    this._pendingLength -= completed;
    this._notify(keys);
    this._forwardCompleted(keys, completed);
  }

  /** Forwards the bytes of completed keys, minus the head that was already forwarded. */
  private _forwardCompleted(keys: KeyEvent[], completed: number): void {
    if (completed === 0) return;
    const skip = Math.min(this._forwardedAhead, completed);
    this._forwardedAhead -= skip;
    if (skip === completed) return;
    const bytes = keys.length === 1 ? keys[0]!.bytes : Buffer.concat(keys.map((k) => k.bytes));
    this._forward(skip ? bytes.subarray(skip) : bytes);
  }

  private _notify(keys: KeyEvent[]): void {
    const observer = this._observer;
    if (!observer) return;
    for (const key of keys) observer.handleKey(key);
  }
}

function totalLength(keys: KeyEvent[]): number {
  let n = 0;
  for (const k of keys) n += k.bytes.length;
  return n;
}
