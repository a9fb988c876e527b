// @ts-check
// The fakes' terminal: raw mode entered once and always restored (pexpect's getch.py does the
// same with tcsetattr in `finally`), window size and SIGWINCH, and a frame renderer that repaints
// only the rows that changed, in place, with no alternate screen (Codex and Ink both draw inline).
import { writeFileSync } from 'node:fs';
import { displayWidth, sliceToWidth } from './text.mjs';

/** Fallback size when stdout is not a terminal (the real TUIs refuse to start; the fakes go on). */
const DEFAULT_COLS = 80;
const DEFAULT_ROWS = 24;

export const SGR = {
  reset: '\x1b[0m',
  bold: '\x1b[1m',
  dim: '\x1b[2m',
  cyan: '\x1b[36m',
  green: '\x1b[32m',
  red: '\x1b[31m',
  magenta: '\x1b[35m',
  yellow: '\x1b[33m',
  blue: '\x1b[34m',
  inverse: '\x1b[7m',
};

/** A styled row: plain `text` (already laid out to fit) plus an optional SGR prefix for all of it. */
export function row(text, style = '') {
  return { text, style };
}

export class FakeTerminal {
  constructor({ input = process.stdin, output = process.stdout } = {}) {
    this._input = input;
    this._output = output;
    this._rawEntered = false;
    this._prev = [];
    this._clearNext = true;
    this._resizeListeners = [];
    this._onResize = () => {
      this._clearNext = true;
      for (const l of this._resizeListeners) l();
    };
  }

  get cols() {
    return this._output.columns || DEFAULT_COLS;
  }

  get rows() {
    return this._output.rows || DEFAULT_ROWS;
  }

  /** Enters raw mode (when stdin is a tty) and starts listening for resizes. */
  start() {
    if (this._input.isTTY && typeof this._input.setRawMode === 'function') {
      this._input.setRawMode(true);
      this._rawEntered = true;
    }
    this._input.resume();
    // Node turns SIGWINCH into 'resize' on a tty stdout; the explicit SIGWINCH handler covers
    // stdout that is not the tty the size comes from.
    this._output.on('resize', this._onResize);
    process.on('SIGWINCH', this._onResize);
  }

  onResize(listener) {
    this._resizeListeners.push(listener);
  }

  write(s) {
    this._output.write(s);
  }

  /**
   * Paints `rows` (array of {text, style}, top to bottom, at most this.rows long) and places the
   * cursor. Only rows that differ from the previous frame are rewritten; a resize clears first.
   */
  render(rows, cursor) {
    const height = this.rows;
    const width = this.cols;
    const out = ['\x1b[?25l'];
    if (this._clearNext) {
      out.push('\x1b[H\x1b[2J');
      this._prev = [];
      this._clearNext = false;
    }
    for (let i = 0; i < height; i++) {
      const r = rows[i] ?? row('');
      const text = displayWidth(r.text) > width ? sliceToWidth(r.text, width) : r.text;
      const painted = r.style ? `${r.style}${text}${SGR.reset}` : text;
      if (this._prev[i] === painted) continue;
      // Erase the whole line first: writing up to the last column leaves a pending wrap, where an
      // erase-to-end would wipe the last character.
      out.push(`\x1b[${i + 1};1H\x1b[2K`, painted);
      this._prev[i] = painted;
    }
    if (cursor) out.push(`\x1b[${cursor.row + 1};${cursor.col + 1}H\x1b[?25h`);
    this._output.write(out.join(''));
  }

  /** Clears the screen and leaves the cursor at the top left (used before printing exit text). */
  clear() {
    this._output.write('\x1b[H\x1b[2J\x1b[?25h');
    this._prev = [];
  }

  /** Restores the terminal: cooked mode, visible cursor, default colours. Safe to call twice. */
  restore() {
    this._output.off('resize', this._onResize);
    process.off('SIGWINCH', this._onResize);
    try {
      this._output.write(`${SGR.reset}\x1b[?25h`);
    } catch {
      // EIO/EPIPE: the terminal is already gone at exit; nothing left to restore on it.
    }
    if (this._rawEntered) {
      try {
        this._input.setRawMode(false);
      } catch {
        // EIO: the pty closed first; its mode no longer matters.
      }
      this._rawEntered = false;
    }
    this._input.pause();
  }
}

/**
 * Runs `main(term)` with the terminal set up, and restores it on every way out: normal return,
 * an exception, SIGTERM/SIGHUP (exit 128+signal). `main` resolves to the exit code.
 */
export async function runWithTerminal(main) {
  const term = new FakeTerminal();
  const onSignal = (signal, number) => {
    term.restore();
    process.exit(128 + number);
  };
  const sigterm = () => onSignal('SIGTERM', 15);
  const sighup = () => onSignal('SIGHUP', 1);
  process.on('SIGTERM', sigterm);
  process.on('SIGHUP', sighup);
  let code = 1;
  // Tests that signal the fake learn its pid here (a shell between the pty and the fake hides it).
  if (process.env.FAKE_PID_FILE) writeFileSync(process.env.FAKE_PID_FILE, String(process.pid));
  try {
    term.start();
    code = await main(term);
  } catch (err) {
    term.restore();
    process.stderr.write(`fake agent crashed: ${/** @type {{ stack?: string } | undefined} */ (err)?.stack ?? err}\n`);
    code = 70;
  } finally {
    term.restore();
    process.off('SIGTERM', sigterm);
    process.off('SIGHUP', sighup);
  }
  return code;
}
