// Which terminal modes the agent left on, read from its output bytes as they pass, so that rec can
// undo exactly those when the agent dies without undoing them itself (SIGKILL, a crash) and the
// user's shell does not land on an alternate screen with the mouse captured and no cursor.
//
// A scanner, not the screen model: the model parses off the hot path, may drop a burst's oldest
// bytes and may be disabled by fail-open, and it is not there at all when the store cannot open;
// the modes must be right at exit whatever happened. The scan jumps from ESC to ESC with
// Buffer.indexOf (native memchr) and looks only at the few sequences that change a mode; what that
// costs the passthrough is measured in docs/benchmarks.md, "Terminal modes".

/** Longest mode sequence kept across a chunk boundary; anything longer is not one we track. */
const MAX_SEQUENCE_BYTES = 64;

const ESC = 0x1b;

/**
 * DEC private modes (CSI ? Pm h / l) that change how the terminal behaves for the next program,
 * with the value a terminal starts with. Alternate screens (47, 1047, 1049) are kept apart.
 */
const DEC_MODE_DEFAULTS: ReadonlyMap<number, boolean> = new Map([
  [1, false], // DECCKM: application cursor keys
  [7, true], // DECAWM: auto-wrap (off, the shell's line editing breaks)
  [9, false], // X10 mouse
  [25, true], // DECTCEM: cursor visible
  [66, false], // DECNKM: application keypad (the same state as ESC = / ESC >)
  [1000, false], // mouse: press and release
  [1001, false], // mouse: highlight tracking
  [1002, false], // mouse: cell motion
  [1003, false], // mouse: all motion
  [1004, false], // focus in/out reports
  [1005, false], // mouse encoding: UTF-8
  [1006, false], // mouse encoding: SGR
  [1015, false], // mouse encoding: urxvt
  [1016, false], // mouse encoding: SGR pixels
  [2004, false], // bracketed paste
  [2026, false], // synchronized output (left on, the terminal stops drawing until it times out)
]);

const ALT_SCREEN_MODES: ReadonlySet<number> = new Set([47, 1047, 1049]);

/** Written first, so that the terminal draws again; the cursor last, once everything else is back. */
const RESTORE_ORDER: readonly number[] = [2026, 1000, 1001, 1002, 1003, 9, 1006, 1015, 1016, 1005, 1004, 2004, 1, 66, 7, 25];

/** Above every mode tracked: per-mode state lives in flat arrays indexed by the mode number. */
const MODE_LIMIT = 2027;
/** Per mode: 0 not tracked, 1 off by default, 2 on by default. */
const DEFAULTS = new Uint8Array(MODE_LIMIT);
for (const [mode, on] of DEC_MODE_DEFAULTS) DEFAULTS[mode] = on ? 2 : 1;
for (const mode of ALT_SCREEN_MODES) DEFAULTS[mode] = 1;

/** Most parameters read from one sequence; later ones are ignored (no mode sequence has more). */
const MAX_PARAMS = 16;
/** A parameter that is empty, malformed (':' sub-parameters) or larger than any mode. */
const NO_VALUE = -1;

/** The kitty keyboard protocol's state on one screen: pushes not popped, and flags set without a push. */
interface KittyKeyboard {
  depth: number;
  baseFlags: number;
}

export class TerminalModes {
  /** Per DEC mode: 1 when the agent left it the other way from the terminal's default. */
  private readonly _changed = new Uint8Array(MODE_LIMIT);
  /** XTSAVE'd values (CSI ? Pm s), put back by XTRESTORE (CSI ? Pm r). */
  private readonly _saved = new Map<number, boolean>();
  /** The alternate-screen mode the agent entered with (47, 1047 or 1049), if it is on it. */
  private _altScreen: number | undefined;
  /** The kitty keyboard protocol keeps one stack per screen. */
  private readonly _kittyMain: KittyKeyboard = { depth: 0, baseFlags: 0 };
  private _kittyAlt: KittyKeyboard = { depth: 0, baseFlags: 0 };
  /** modifyOtherKeys (CSI > 4 ; Pv m) left on. */
  private _modifyOtherKeys = false;
  /** The parameters of the sequence being read, reused: no allocation per sequence. */
  private readonly _params = new Int32Array(MAX_PARAMS);
  /** The start of a sequence cut by the end of the last chunk. */
  private _pending: Buffer | undefined;

  /** Reads one chunk of the agent's output; never keeps the chunk. */
  scan(chunk: Buffer): void {
    let from = 0;
    if (this._pending !== undefined) {
      const pending = this._pending;
      this._pending = undefined;
      const joined = Buffer.concat([pending, chunk.subarray(0, MAX_SEQUENCE_BYTES)]);
      const end = this._readSequence(joined, 0);
      if (end === undefined) {
        // Still cut: keep waiting, unless it has grown past any sequence we track.
        if (joined.length < MAX_SEQUENCE_BYTES) this._pending = joined;
        return;
      }
      from = Math.max(0, end - pending.length);
    }
    let at = chunk.indexOf(ESC, from);
    while (at !== -1) {
      const end = this._readSequence(chunk, at);
      if (end === undefined) {
        if (chunk.length - at < MAX_SEQUENCE_BYTES) this._pending = Buffer.from(chunk.subarray(at));
        return;
      }
      at = chunk.indexOf(ESC, end);
    }
  }

  /** True when the agent left nothing on that a terminal does not start with. */
  get clean(): boolean {
    return this.restoreSequence() === '';
  }

  /**
   * The bytes that put the terminal back as the agent found it: only for the modes the agent
   * turned on and did not turn off, so an agent that cleaned up after itself gets nothing.
   */
  restoreSequence(): string {
    let out = '';
    if (this._changed[2026] === 1) out += '\x1b[?2026l';
    if (this._altScreen !== undefined) {
      // The alternate screen's keyboard flags go with it; they can only be popped while on it.
      out += kittyRestore(this._kittyAlt);
      out += `\x1b[?${this._altScreen}l`;
    }
    out += kittyRestore(this._kittyMain);
    if (this._modifyOtherKeys) out += '\x1b[>4m';
    for (const mode of RESTORE_ORDER) {
      if (mode === 2026 || this._changed[mode] !== 1) continue;
      if (mode === 66) out += '\x1b>'; // DECKPNM resets the keypad whether ESC = or ?66h set it
      else out += `\x1b[?${mode}${DEFAULTS[mode] === 2 ? 'h' : 'l'}`;
    }
    return out;
  }

  /**
   * Reads the escape sequence at `at` (buf[at] is ESC) and applies it if it changes a mode.
   * Returns where scanning goes on, or undefined when the buffer ends inside the sequence.
   */
  private _readSequence(buf: Buffer, at: number): number | undefined {
    if (at + 1 >= buf.length) return undefined;
    const second = buf[at + 1]!;
    switch (second) {
      case 0x63: // ESC c: RIS, a full reset
        this._reset();
        return at + 2;
      case 0x3d: // ESC =: DECKPAM, application keypad
        this._setDec(66, true);
        return at + 2;
      case 0x3e: // ESC >: DECKPNM, numeric keypad
        this._setDec(66, false);
        return at + 2;
      case 0x5b: // ESC [: CSI
        break;
      default:
        return at + 1;
    }
    if (at + 2 >= buf.length) return undefined;
    const prefix = buf[at + 2]!;
    // Only private sequences (? < = >) and DECSTR (CSI ! p) change what we track; SGR, cursor
    // moves and the like start with a digit or a final byte and are skipped here, cheaply.
    if (prefix !== 0x3f && prefix !== 0x3c && prefix !== 0x3d && prefix !== 0x3e && prefix !== 0x21) return at + 2;
    // Parameters: digits, ';' and ':' (0x30–0x3b), read into _params as they pass.
    const params = this._params;
    const limit = Math.min(buf.length, at + MAX_SEQUENCE_BYTES);
    let count = 0;
    let value = 0;
    let digits = 0;
    let bad = false;
    let i = at + 3;
    for (; i < limit; i++) {
      const b = buf[i]!;
      if (b >= 0x30 && b <= 0x39) {
        value = value * 10 + (b - 0x30);
        digits++;
      } else if (b === 0x3b) {
        if (count < MAX_PARAMS) params[count++] = digits === 0 || bad || digits > 6 ? NO_VALUE : value;
        value = 0;
        digits = 0;
        bad = false;
      } else if (b === 0x3a) {
        bad = true;
      } else {
        break;
      }
    }
    if (i >= limit) return buf.length - at >= MAX_SEQUENCE_BYTES ? at + 2 : undefined;
    if (count < MAX_PARAMS && (digits > 0 || count > 0)) params[count++] = digits === 0 || bad || digits > 6 ? NO_VALUE : value;
    const final = buf[i]!;
    if (prefix === 0x21) {
      if (final === 0x70 && i === at + 3) this._softReset(); // CSI ! p
      return i + 1;
    }
    if (final < 0x40 || final > 0x7e) return i; // an intermediate byte or a control: not ours
    if (prefix === 0x3f) this._applyDec(count, final);
    else if (final === 0x75) this._applyKitty(prefix, count); // CSI > / < / = … u
    else if (prefix === 0x3e && count > 0 && this._params[0] === 4 && (final === 0x6d || final === 0x6e)) {
      // XTMODKEYS modifyOtherKeys, xterm's older way to report Ctrl+key: CSI > 4 ; Pv m sets it,
      // CSI > 4 m and CSI > 4 n put it back to the terminal's own setting.
      this._modifyOtherKeys = final === 0x6d && count > 1 && this._params[1]! > 0;
    }
    return i + 1;
  }

  /** CSI ? Pm h / l / s / r, its modes in _params. */
  private _applyDec(count: number, final: number): void {
    for (let k = 0; k < count; k++) {
      const mode = this._params[k]!;
      if (mode < 0 || mode >= MODE_LIMIT || DEFAULTS[mode] === 0) continue;
      if (final === 0x68 || final === 0x6c) this._setDec(mode, final === 0x68); // h / l
      else if (final === 0x73) this._saved.set(mode, this._decValue(mode)); // s: XTSAVE
      else if (final === 0x72) {
        const saved = this._saved.get(mode); // r: XTRESTORE
        if (saved !== undefined) this._setDec(mode, saved);
      }
    }
  }

  private _setDec(mode: number, on: boolean): void {
    if (ALT_SCREEN_MODES.has(mode)) {
      if (on && this._altScreen === undefined) {
        this._altScreen = mode;
        // Counted from this visit: flags an earlier visit left on the alternate screen could only
        // be popped on it, and the restore pops before it leaves the screen it is on.
        this._kittyAlt = { depth: 0, baseFlags: 0 };
      } else if (!on && this._altScreen !== undefined) {
        // Any of the three leaves the alternate screen, whichever one entered it.
        this._altScreen = undefined;
      }
      return;
    }
    this._changed[mode] = on === (DEFAULTS[mode] === 2) ? 0 : 1;
  }

  private _decValue(mode: number): boolean {
    if (ALT_SCREEN_MODES.has(mode)) return this._altScreen !== undefined;
    return (DEFAULTS[mode] === 2) !== (this._changed[mode] === 1);
  }

  /** CSI > flags u pushes, CSI < n u pops n (default 1), CSI = flags ; mode u changes the top. */
  private _applyKitty(prefix: number, count: number): void {
    const kitty = this._altScreen !== undefined ? this._kittyAlt : this._kittyMain;
    const first = count > 0 ? this._params[0]! : NO_VALUE;
    const second = count > 1 ? this._params[1]! : NO_VALUE;
    if (prefix === 0x3e) {
      kitty.depth++;
    } else if (prefix === 0x3c) {
      kitty.depth = Math.max(0, kitty.depth - (first > 0 ? first : 1));
      // The protocol resets all flags when a pop empties the stack.
      if (kitty.depth === 0) kitty.baseFlags = 0;
    } else if (kitty.depth === 0) {
      // CSI = on an empty stack changes the screen's own flags: 1 sets, 2 adds, 3 removes.
      const flags = first === NO_VALUE ? 0 : first;
      const mode = second === NO_VALUE ? 1 : second;
      if (mode === 1) kitty.baseFlags = flags;
      else if (mode === 2) kitty.baseFlags |= flags;
      else if (mode === 3) kitty.baseFlags &= ~flags;
    }
  }

  /** DECSTR resets what every VT220-compatible terminal resets; the rest stays as it was. */
  private _softReset(): void {
    for (const mode of [1, 25, 66]) this._changed[mode] = 0;
  }

  private _reset(): void {
    this._changed.fill(0);
    this._saved.clear();
    this._altScreen = undefined;
    this._modifyOtherKeys = false;
    this._kittyMain.depth = 0;
    this._kittyMain.baseFlags = 0;
    this._kittyAlt = { depth: 0, baseFlags: 0 };
  }
}

function kittyRestore(kitty: KittyKeyboard): string {
  if (kitty.depth > 0) return `\x1b[<${kitty.depth}u`; // emptying the stack resets every flag
  if (kitty.baseFlags !== 0) return '\x1b[=0;1u';
  return '';
}
