// Keys pressed while the agent is drawing a screen. An agent writes a frame in one go, but the pty
// may hand it to rec in pieces (Claude Code sets the window title, then draws the prompt a
// millisecond later), and a key can come between them. The agent reads that key only after its
// write, so it answers the prompt the next piece shows; judged at once, against the piece already
// rendered, it would be lost (and the keys after it counted from the wrong option). Such a key is
// held, in memory and only as the key event, until the screen shows a prompt (then it is that
// prompt's), another key comes, or KEY_HOLD_MS pass (then it is judged on the screen it was pressed
// on, as it would have been at once).
import type { KeyEvent } from '../../core/keys.js';
import type { Disposable } from '../../core/lifecycle.js';
import type { RecorderClock } from './recorderClock.js';

/**
 * How long after the last output a key may still be inside a frame being drawn, and how long it is
 * held at most: far longer than the pieces of one write lie apart, far shorter than a person's
 * reaction to a screen.
 */
export const KEY_HOLD_MS = 50;

export interface HeldKey<S> {
  readonly key: KeyEvent;
  /** What the screen showed when the key was pressed. */
  readonly screen: S;
}

export class KeyHold<S> {
  private _held: Array<HeldKey<S>> = [];
  private _timer: Disposable | undefined;
  /** The latest holdUntil the held keys wait for (the screen model to catch up), not KEY_HOLD_MS; undefined when none. */
  private _waiting: number | undefined;
  private _waits = 0;

  constructor(
    private readonly _clock: RecorderClock,
    /** Judges a key, in the order the keys came. */
    private readonly _judge: (held: HeldKey<S>) => void,
  ) {}

  get holding(): boolean {
    return this._held.length > 0;
  }

  /** Whether the held keys wait for the screen model (holdUntil): only the prompt they answer, or the model, releases them. */
  get waitingForScreen(): boolean {
    return this._waiting !== undefined && this._held.length > 0;
  }

  /** Whether output this recent may be the first piece of a frame still being drawn. */
  drawing(lastOutputAt: number): boolean {
    return this._clock.now() - lastOutputAt < KEY_HOLD_MS;
  }

  hold(held: HeldKey<S>): void {
    this._held.push(held);
    if (this._waiting !== undefined) return;
    this._timer ??= this._clock.setTimeout(() => {
      this._timer = undefined;
      this.release();
    }, KEY_HOLD_MS);
  }

  /**
   * Holds the key until `ready`: the screen model has parsed what the agent wrote before the key
   * (a frame still in its backlog may be the prompt the key answers), however long that takes. An
   * earlier holdUntil's `ready` no longer releases: the model had not caught up with this key then.
   */
  holdUntil(held: HeldKey<S>, ready: Promise<void>): void {
    this._held.push(held);
    this._timer?.dispose();
    this._timer = undefined;
    const wait = ++this._waits;
    this._waiting = wait;
    void ready.then(() => {
      if (this._waiting === wait) this.release();
    });
  }

  /** Judges every held key now, oldest first. */
  release(): void {
    this._waiting = undefined;
    this._timer?.dispose();
    this._timer = undefined;
    const held = this._held;
    this._held = [];
    for (const h of held) this._judge(h);
  }

  dispose(): void {
    this._timer?.dispose();
    this._timer = undefined;
    this._waiting = undefined;
    this._held = [];
  }
}
