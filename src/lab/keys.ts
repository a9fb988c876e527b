// The one map from key names to the bytes a terminal sends for them, for every suite: the harness's
// sendKey, the e2e scenarios and the recorder replays (which also decode them: keyEvent()).
import type { KeyEvent, NamedKey } from '../core/keys.js';

export const KEYS = {
  esc: '\x1b',
  enter: '\r',
  tab: '\t',
  'shift-tab': '\x1b[Z',
  backspace: '\x7f',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  home: '\x1b[H',
  end: '\x1b[F',
  'page-up': '\x1b[5~',
  'page-down': '\x1b[6~',
  delete: '\x1b[3~',
  'ctrl-c': '\x03',
  'ctrl-d': '\x04',
  'ctrl-z': '\x1a',
  'ctrl-backslash': '\x1c',
} as const;
export type KeyName = keyof typeof KEYS;

/** The KeyEvent the input decoder gives for a named key, or for one character. */
export function keyEvent(k: KeyName | string): KeyEvent {
  if (k in KEYS) return { type: 'key', name: k as NamedKey, bytes: Buffer.from(KEYS[k as KeyName]) };
  return { type: 'char', char: k, bytes: Buffer.from(k) };
}
