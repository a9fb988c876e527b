// Text with its control characters shown escaped (`\x1b`, `\u202e`), so that it cannot drive a
// terminal nor hide what it says: for what rec prints (commands/terminalText.ts) and for what it
// keeps of a screen to be printed later (a miss's screen capture).

/**
 * C0 controls, DEL, C1 controls (U+0080–U+009F: 8-bit CSI and OSC to some terminals), the
 * Unicode bidi embedding, override and isolate controls and marks, and the line and paragraph
 * separators. Tab and newline included: a table cell and a diagnostic are one line each.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeOne(ch: string): string {
  const named = NAMED[ch];
  if (named !== undefined) return named;
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** One line of text with every control character and bidi control shown escaped (`\x1b`, `\u202e`). */
export function escapeControls(text: string): string {
  return text.replace(UNSAFE, escapeOne);
}

/** The same, keeping newlines: for several lines of rec's own prose with untrusted parts in them. */
export function escapeControlsKeepLines(text: string): string {
  return text.replace(UNSAFE_BUT_NEWLINE, escapeOne);
}

