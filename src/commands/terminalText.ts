// Text bound for a terminal. Much of what rec prints comes from places an attacker can write to: an
// agent's session file holds model output and tool output verbatim, the sidecar holds commands and
// reasons, a file name is whatever the file system allows. Printed raw, such text can set the
// window title (OSC), move the cursor and overwrite lines (CSI, backspace, carriage return), ring
// the bell, switch character sets (SO/SI), or reorder what is shown (bidi overrides). So every
// such string is escaped before it is shown — visibly, as `\x1b`, so that nothing is hidden either.
// JSON output never goes through here: programs get the exact bytes.
import { StringDecoder } from 'node:string_decoder';
import { Writable } from 'node:stream';
import { escapeControlsKeepLines } from '../core/controlText.js';

// The escaping itself is core's: a recorder escapes the screen it keeps with a miss the same way.
export { escapeControls, escapeControlsKeepLines } from '../core/controlText.js';

/**
 * A stream for messages: whatever is written to it reaches `target` with control characters
 * escaped (newlines kept). rec's stderr goes through one, so a diagnostic, an error from a library
 * or a message not yet thought of cannot drive the terminal. The progress bar, which draws with
 * escape sequences of its own, writes to the terminal directly.
 */
export class TerminalSafeStream extends Writable {
  private readonly _decoder = new StringDecoder('utf8');
  private _writes = 0;

  constructor(private readonly _target: NodeJS.WritableStream) {
    super({ decodeStrings: false });
    // A failed write to stderr (the terminal went away) has no one left to tell.
    this.on('error', () => undefined);
  }

  /** How many writes it was given: whether the command said anything at all. */
  get writes(): number {
    return this._writes;
  }

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this._writes++;
    const text = typeof chunk === 'string' ? chunk : this._decoder.write(chunk);
    this._target.write(escapeControlsKeepLines(text), () => callback());
  }

  override _final(callback: (error?: Error | null) => void): void {
    const tail = this._decoder.end();
    if (tail === '') callback();
    else this._target.write(escapeControlsKeepLines(tail), () => callback());
  }
}

/** The width a table may take on this stream: the terminal's columns, or unlimited when piped. */
export function outputWidth(stream: NodeJS.WritableStream): number {
  const tty = stream as NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  return tty.isTTY === true && typeof tty.columns === 'number' && tty.columns > 0 ? tty.columns : Number.POSITIVE_INFINITY;
}
