// A shell command cut the way the agents cut it before they check it against their rules: at
// `&&`, `||`, `;`, `|` and newlines, each piece checked on its own. A piece with a redirection, a
// command substitution, a subshell or a here-document is kept whole and marked not plain: Codex
// prompts for such pieces whatever its rules say, so rec never generalises them.

export interface CommandSegment {
  /** The piece as written, trimmed. */
  readonly text: string;
  /** Its words with quotes removed; empty when it could not be read. */
  readonly words: readonly string[];
  /** False when the piece redirects, substitutes, opens a subshell or could not be read. */
  readonly plain: boolean;
}

export interface SplitCommand {
  readonly segments: readonly CommandSegment[];
  /** Whether the command had more than one piece. */
  readonly compound: boolean;
}

const SEPARATORS = ['&&', '||', ';', '|', '\n', '&'];

interface Scan {
  words: string[];
  word: string | null;
  plain: boolean;
  start: number;
}

/** Splits `command`; `bash -c SCRIPT` (and sh, zsh, -lc) is read as the script it runs. */
export function splitCommand(command: string): SplitCommand {
  const inner = unwrapShell(command);
  if (inner !== null) return splitCommand(inner);
  const segments: CommandSegment[] = [];
  let s: Scan = { words: [], word: null, plain: true, start: 0 };
  const end = (i: number): void => {
    if (s.word !== null) s.words.push(s.word);
    const text = command.slice(s.start, i).trim();
    if (text !== '') segments.push({ text, words: s.plain ? s.words : [], plain: s.plain && s.words.length > 0 });
    s = { words: [], word: null, plain: true, start: i };
  };
  let i = 0;
  while (i < command.length) {
    const c = command[i]!;
    const sep = SEPARATORS.find((op) => command.startsWith(op, i));
    // `2>&1`, `>&2`, `&>`: a redirection, not a separator.
    const redirect = sep === '&' && (command[i - 1] === '>' || command[i - 1] === '<' || command[i + 1] === '>');
    if (sep !== undefined && !redirect) {
      end(i);
      i += sep.length;
      s.start = i;
      continue;
    }
    if (c === ' ' || c === '\t') {
      if (s.word !== null) s.words.push(s.word);
      s.word = null;
      i++;
      continue;
    }
    if (c === '>' || c === '<' || c === '`' || c === '(' || c === ')' || (c === '$' && command[i + 1] === '(')) s.plain = false;
    if (c === "'" || c === '"') {
      const close = quoteEnd(command, i);
      if (close < 0) {
        s.plain = false;
        i = command.length;
        break;
      }
      const body = command.slice(i + 1, close);
      if (c === '"' && /[`$\\]/.test(body)) s.plain = false;
      s.word = (s.word ?? '') + body;
      i = close + 1;
      continue;
    }
    if (c === '\\' || c === '$' || c === '*' || c === '?' || c === '~' || c === '{') s.plain = false;
    s.word = (s.word ?? '') + c;
    i++;
  }
  end(command.length);
  return { segments, compound: segments.length > 1 };
}

function quoteEnd(text: string, open: number): number {
  const q = text[open];
  for (let j = open + 1; j < text.length; j++) {
    if (q === '"' && text[j] === '\\') j++;
    else if (text[j] === q) return j;
  }
  return -1;
}

const SHELLS = new Set(['bash', 'sh', 'zsh', '/bin/bash', '/bin/sh', '/bin/zsh', '/usr/bin/bash', '/usr/bin/zsh']);

/** The script of `bash -c 'SCRIPT'` / `bash -lc 'SCRIPT'`, when that is the whole command. */
function unwrapShell(command: string): string | null {
  const m = /^\s*(\S+)\s+-l?c\s+(['"])([\s\S]*)\2\s*$/.exec(command);
  if (m === null || !SHELLS.has(m[1]!)) return null;
  const body = m[3]!;
  // Only when the quotes hold the script whole (no quote of the same kind inside).
  return body.includes(m[2]!) ? null : body;
}
