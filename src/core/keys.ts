// Key events decoded from the user's stdin bytes. The decoder itself lives in keyDecoder.ts;
// this file is the shared type every stage uses.

export type NamedKey =
  | 'esc' | 'enter' | 'tab' | 'shift-tab' | 'backspace'
  | 'up' | 'down' | 'left' | 'right' | 'home' | 'end' | 'page-up' | 'page-down' | 'insert' | 'delete'
  | 'f1' | 'f2' | 'f3' | 'f4' | 'f5' | 'f6' | 'f7' | 'f8' | 'f9' | 'f10' | 'f11' | 'f12'
  | 'ctrl-c' | 'ctrl-d' | 'ctrl-z' | 'ctrl-backslash'
  // Other control bytes keep their letter: ctrl-a … ctrl-y (except the ones named above).
  | `ctrl-${string}`;

/** Modifiers reported by the terminal (CSI 1;5A, kitty CSI 99;5u); present only when one is held. */
export interface KeyModifiers {
  readonly shift: boolean;
  readonly alt: boolean;
  readonly ctrl: boolean;
  /** Super / Meta / Hyper, which terminals report separately but nothing here tells apart. */
  readonly meta: boolean;
}

export type KeyEvent =
  /** A named key; `alt` when it came prefixed with ESC (Alt+key) or with the Alt modifier. */
  | {
      readonly type: 'key';
      readonly name: NamedKey;
      readonly alt?: boolean;
      readonly modifiers?: KeyModifiers;
      readonly bytes: Buffer;
    }
  /** One printable character (one code point): digits, letters, punctuation, other text. */
  | {
      readonly type: 'char';
      readonly char: string;
      readonly alt?: boolean;
      readonly modifiers?: KeyModifiers;
      readonly bytes: Buffer;
    }
  /** A bracketed paste, delivered whole. */
  | { readonly type: 'paste'; readonly text: string; readonly bytes: Buffer }
  /** A sequence the decoder does not know (kept so nothing is lost; never recorded as text). */
  | { readonly type: 'unknown'; readonly bytes: Buffer };
