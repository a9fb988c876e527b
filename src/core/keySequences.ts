// The meaning of single control bytes and of complete CSI / SS3 key sequences (xterm, VT220,
// rxvt, linux console, kitty keyboard protocol). Framing lives in keyDecoder.ts.
import type { KeyModifiers, NamedKey } from './keys.js';

/** A key event without its bytes. */
export type KeySpec =
  | { readonly type: 'key'; readonly name: NamedKey; readonly alt?: boolean; readonly modifiers?: KeyModifiers }
  | { readonly type: 'char'; readonly char: string; readonly alt?: boolean; readonly modifiers?: KeyModifiers }
  | { readonly type: 'unknown' };

const UNKNOWN: KeySpec = { type: 'unknown' };

/** A C0 control byte or DEL, as typed (ESC is framed by the decoder). */
export function controlKey(b: number): KeySpec {
  switch (b) {
    case 0x00:
      return key('ctrl-space');
    case 0x03:
      return key('ctrl-c');
    case 0x04:
      return key('ctrl-d');
    case 0x08: // Ctrl+H: what many terminals send for Backspace
    case 0x7f:
      return key('backspace');
    case 0x09:
      return key('tab');
    case 0x0a:
    case 0x0d:
      return key('enter');
    case 0x1a:
      return key('ctrl-z');
    case 0x1b:
      return key('esc');
    case 0x1c:
      return key('ctrl-backslash');
    case 0x1d:
      return key('ctrl-]');
    case 0x1e:
      return key('ctrl-^');
    case 0x1f:
      return key('ctrl-_');
    default:
      return key(`ctrl-${String.fromCharCode(b + 0x60)}`);
  }
}

/** Final bytes shared by CSI and SS3: arrows, Home/End, F1–F4. */
const LETTER_KEYS: Readonly<Record<string, NamedKey>> = {
  A: 'up',
  B: 'down',
  C: 'right',
  D: 'left',
  H: 'home',
  F: 'end',
  P: 'f1',
  Q: 'f2',
  S: 'f4',
};

/** CSI <n> ~ (VT220 / xterm / rxvt). */
const TILDE_KEYS: Readonly<Record<string, NamedKey>> = {
  1: 'home',
  2: 'insert',
  3: 'delete',
  4: 'end',
  5: 'page-up',
  6: 'page-down',
  7: 'home',
  8: 'end',
  11: 'f1',
  12: 'f2',
  13: 'f3',
  14: 'f4',
  15: 'f5',
  17: 'f6',
  18: 'f7',
  19: 'f8',
  20: 'f9',
  21: 'f10',
  23: 'f11',
  24: 'f12',
};

/** ESC O <final> in application keypad mode, plus SS3 R (F3) and M (keypad Enter). */
const SS3_CHARS: Readonly<Record<string, string>> = {
  j: '*', k: '+', l: ',', m: '-', n: '.', o: '/', X: '=',
  p: '0', q: '1', r: '2', s: '3', t: '4', u: '5', v: '6', w: '7', x: '8', y: '9',
};

export function ss3Key(final: string, modifierDigits: string): KeySpec {
  const modifiers = toModifiers(modifierDigits === '' ? 1 : Number(modifierDigits));
  if (final === 'R') return key('f3', modifiers);
  if (final === 'M') return key('enter', modifiers);
  const name = LETTER_KEYS[final];
  if (name !== undefined) return key(name, modifiers);
  const char = SS3_CHARS[final];
  return char !== undefined ? { type: 'char', char } : UNKNOWN;
}

/**
 * A complete CSI sequence from the terminal: `params` are the bytes between ESC [ and the final
 * byte. Private-marker replies (`?`, `<`, `>`, `=`: DA, DECRPM, SGR mouse, kitty flag replies),
 * focus reports (I / O), cursor position reports (R) and anything else unknown are `unknown`.
 */
export function csiKey(params: string, final: string): KeySpec {
  if (/^[<=>?]/.test(params)) return UNKNOWN;
  const fields = params.split(';').map((field) => field.split(':'));
  const first = fields[0][0];
  const modifierField = fields[1]?.[0];
  const modifierValue = modifierField === undefined || modifierField === '' ? 1 : Number(modifierField);
  const modifiers = toModifiers(modifierValue);
  if (final === 'Z') return key('shift-tab', modifiers);
  if (final === '~') {
    // xterm modifyOtherKeys: CSI 27 ; <mods> ; <code> ~
    if (first === '27' && fields.length >= 3) return codepointKey(Number(fields[2][0]), modifierValue, undefined);
    const name = TILDE_KEYS[first];
    return name !== undefined ? key(name, modifiers) : UNKNOWN;
  }
  if (final === 'u') {
    // kitty: CSI <code>[:<shifted>[:<base>]] [; <mods>[:<event>]] [; <text>] u. Event 3 is a release.
    if (fields[1]?.[1] === '3') return UNKNOWN;
    const shifted = fields[0][1];
    const text = fields[2]?.[0];
    return codepointKey(Number(first), modifierValue, shifted ? Number(shifted) : undefined, text ? Number(text) : undefined);
  }
  const name = LETTER_KEYS[final];
  // CSI A…, CSI 1;5A, but not a cursor report or scroll sequence with other leading parameters.
  if (name !== undefined && (first === '' || first === '1')) return key(name, modifiers);
  return UNKNOWN;
}

/** kitty's functional keys in the Private Use Area that mean something here (keypad). */
const KITTY_KEYS: Readonly<Record<number, NamedKey>> = {
  57414: 'enter',
  57417: 'left',
  57418: 'right',
  57419: 'up',
  57420: 'down',
  57421: 'page-up',
  57422: 'page-down',
  57423: 'home',
  57424: 'end',
  57425: 'insert',
  57426: 'delete',
};
const KITTY_CHARS: Readonly<Record<number, string>> = {
  57409: '.', 57410: '/', 57411: '*', 57412: '-', 57413: '+', 57415: '=', 57416: ',',
};
const KITTY_KP_0 = 57399;

/** A key reported by Unicode code point (kitty `u`, xterm modifyOtherKeys). */
function codepointKey(code: number, modifierValue: number, shifted: number | undefined, text?: number): KeySpec {
  const modifiers = toModifiers(modifierValue);
  const shift = modifiers?.shift ?? false;
  const ctrl = modifiers?.ctrl ?? false;
  switch (code) {
    case 27:
      return key('esc', modifiers);
    case 13:
      return key('enter', modifiers);
    case 9:
      return key(shift ? 'shift-tab' : 'tab', modifiers);
    case 8:
    case 127:
      return key('backspace', modifiers);
  }
  const named = KITTY_KEYS[code];
  if (named !== undefined) return key(named, modifiers);
  if (code >= KITTY_KP_0 && code <= KITTY_KP_0 + 9) return char(String(code - KITTY_KP_0), modifiers);
  const kpChar = KITTY_CHARS[code];
  if (kpChar !== undefined) return char(kpChar, modifiers);
  if (!isPrintableCodePoint(code)) return UNKNOWN;
  // Other Private Use Area codes are kitty's functional keys (F13+, media, lone modifiers).
  if (code >= 0xe000 && code <= 0xf8ff) return UNKNOWN;
  if (ctrl) {
    const ctrlName = ctrlKeyName(code);
    if (ctrlName !== undefined) return key(ctrlName, modifiers);
  }
  // The text the key produces, when the terminal says (kitty flag 16); else the shifted key, else
  // the base key (upper-cased for Shift+letter).
  if (text !== undefined && isPrintableCodePoint(text)) return char(String.fromCodePoint(text), modifiers);
  if (shift && shifted !== undefined && isPrintableCodePoint(shifted)) return char(String.fromCodePoint(shifted), modifiers);
  const base = String.fromCodePoint(code);
  return char(shift ? base.toUpperCase() : base, modifiers);
}

function isPrintableCodePoint(code: number): boolean {
  return Number.isInteger(code) && code >= 0x20 && code <= 0x10ffff && code !== 0x7f && !(code >= 0xd800 && code <= 0xdfff);
}

/** Ctrl+<code> under the same names the legacy control bytes get (ctrl-c, ctrl-backslash…). */
function ctrlKeyName(code: number): NamedKey | undefined {
  const lower = code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
  if (lower >= 0x61 && lower <= 0x7a) {
    return `ctrl-${String.fromCharCode(lower)}`;
  }
  switch (code) {
    case 0x20:
      return 'ctrl-space';
    case 0x5c:
      return 'ctrl-backslash';
    case 0x5b:
    case 0x5d:
    case 0x5e:
    case 0x5f:
      return `ctrl-${String.fromCharCode(code)}`;
  }
  return undefined;
}

/** xterm's modifier parameter: 1 + bitmask (shift 1, alt 2, ctrl 4, super 8, hyper 16, meta 32). */
function toModifiers(value: number): KeyModifiers | undefined {
  if (!Number.isInteger(value) || value <= 1) return undefined;
  const bits = value - 1;
  const modifiers = {
    shift: (bits & 1) !== 0,
    alt: (bits & 2) !== 0,
    ctrl: (bits & 4) !== 0,
    meta: (bits & (8 | 16 | 32)) !== 0,
  };
  // Caps Lock (64) and Num Lock (128) alone are not modifiers of the key.
  return modifiers.shift || modifiers.alt || modifiers.ctrl || modifiers.meta ? modifiers : undefined;
}

function key(name: NamedKey, modifiers?: KeyModifiers): KeySpec {
  if (modifiers === undefined) return { type: 'key', name };
  return modifiers.alt ? { type: 'key', name, alt: true, modifiers } : { type: 'key', name, modifiers };
}

function char(text: string, modifiers?: KeyModifiers): KeySpec {
  if (modifiers === undefined) return { type: 'char', char: text };
  return modifiers.alt ? { type: 'char', char: text, alt: true, modifiers } : { type: 'char', char: text, modifiers };
}
