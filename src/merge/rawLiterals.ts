// Writes a merged session without escaping its long strings again. V8 11.3 (Node 20) serialises a
// string character by character, which made JSON.stringify the largest single cost of `rec merge`
// (docs/merge.md, "How it writes"). A message's text or a tool's output is usually a string the agent's own line
// already holds as a JSON literal, so the merged JSON takes that literal as it stands: the rest
// of the session goes through JSON.stringify with a short marker in place of each long string,
// and the literals are spliced in while the UTF-8 output is written.
//
// Only what is proven is reused: a literal is taken when it decodes to exactly the string the
// merged session holds (compared directly when the literal has no escape, else parsed), so the
// output parses to the same value as JSON.stringify's; anything else is stringified as before.
import type { AgentModule } from '../agents/agentModule.js';
import { AGENT_MODULES } from '../agents/registry.js';
import type { MergeAgent, MergedSession } from './mergedSession.js';
import type { OutputBuffers } from './outputBuffers.js';

/** Shorter strings cost less to stringify than to find and splice. */
export const MIN_LITERAL_CHARS = 256;

/**
 * Where each agent's records hold a message's text and a tool's output (its module's
 * rawLiteralKeys). A wrong guess costs a search, never a wrong literal (each one found is checked).
 */
const LITERAL_KEYS: ReadonlyMap<MergeAgent, AgentModule['rawLiteralKeys']> = new Map(AGENT_MODULES.map((m) => [m.name, m.rawLiteralKeys]));

/** Each replaced string becomes this character and its number; JSON.stringify writes it as `"\u0000<n>"`. */
const MARK = '\u0000';
/** Searched without its opening quote: a quote starts every JSON string, a backslash seldom. */
const MARK_ESCAPE = '\\u0000';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The JSON string literal, quotes included, that `line` holds as the value of one of `keys` and
 * that decodes to `value`; null when there is none. `line` must be JSON that parsed: then a
 * `"key":"` in it is always a key followed by the opening quote of its string value (a quote
 * inside a string is always escaped, so `"key":"` cannot occur inside one).
 */
export function findLiteral(line: string, keys: readonly string[], value: string): string | null {
  for (const key of keys) {
    let from = 0;
    for (;;) {
      const k = line.indexOf(key, from);
      if (k < 0) break;
      const open = k + key.length - 1;
      const close = closingQuote(line, open + 1);
      if (close < 0) break;
      const chars = close - open - 1;
      // An escape is always longer than what it stands for, so a literal shorter than the value
      // is another one, and one of the same length must equal it character for character.
      if (chars === value.length) {
        // Not startsWith: TurboFan inlines that as a loop over characters; string equality is a memcmp.
        if (line.slice(open + 1, close) === value && value.indexOf('\\') < 0) return line.slice(open, close + 1);
      } else if (chars > value.length) {
        const literal = line.slice(open, close + 1);
        if (literal.indexOf('\\') >= 0 && decodes(literal, value)) return literal;
      }
      from = close + 1;
    }
  }
  return null;
}

function decodes(literal: string, value: string): boolean {
  try {
    return JSON.parse(literal) === value;
  } catch {
    return false; // not reachable for a line that parsed; kept so a surprise costs speed, not output
  }
}

/** The position of the quote that ends the string whose contents start at `from`; -1 if none. */
function closingQuote(line: string, from: number): number {
  for (;;) {
    const q = line.indexOf('"', from);
    if (q < 0) return -1;
    let b = q - 1;
    while (line.charCodeAt(b) === BACKSLASH) b--;
    // An even run of backslashes before the quote escapes only itself.
    if ((q - 1 - b) % 2 === 0) return q;
    from = q + 1;
  }
}

/** A value taken out of the session while it is stringified, and what is written in its place. */
interface Replaced {
  holder: Record<string, unknown>;
  key: string;
  value: unknown;
  /** A long string's literal from the agent's line; null for an array written in pieces. */
  literal: string | null;
  /** An array's elements as JSON, a few per piece, each piece with its brackets; null for a string. */
  pieces: string[] | null;
  /** Found in the JSON text: a second find is a string of the session that reads like the marker. */
  spliced: boolean;
}

/**
 * Elements of a top-level array stringified per JSON.stringify call. V8 11.3 returns a long
 * result as a rope of 16 K-character parts, and reading it (indexOf, Buffer.write) first copies
 * it into one flat string in large-object space: fresh memory each session, and its page faults
 * (docs/merge.md). A piece of a few dozen messages (their long strings
 * are markers by then) stays small, flat and in the young generation.
 */
export const ELEMENTS_PER_PIECE = 32;

/**
 * The merged session as UTF-8 JSON and a newline. `lines` maps a line number of the session file
 * to its text, for the lines kept (the long ones); without it, or where no literal is found, this
 * is JSON.stringify's output. Written into a buffer lent by `reuse` when given (given back once
 * the bytes are written), else into a buffer of its own (a worker transfers its memory).
 */
export function mergedJsonLine(
  merged: MergedSession,
  lines: ReadonlyMap<number, string> | null,
  pretty: boolean,
  reuse: OutputBuffers | null = null,
): Uint8Array {
  const stringify = (): string => (pretty ? JSON.stringify(merged, null, 2) : JSON.stringify(merged));
  const replaced: Replaced[] = [];
  let json: string;
  try {
    if (lines) replaceLongStrings(merged, lines, replaced);
    // Indented pieces would need the indentation of their depth: pretty output is one piece.
    if (!pretty) replaceLongArrays(merged as unknown as Record<string, unknown>, replaced);
    json = stringify();
  } finally {
    for (const r of replaced) r.holder[r.key] = r.value;
  }
  if (replaced.length === 0) return encodeLine([json], EXACT_SIZE_FROM_CHARS, reuse);
  const parts: string[] = [];
  if (spliceInto(parts, json, 0, json.length, replaced) === replaced.length) return encodeLine(parts, EXACT_SIZE_FROM_CHARS, reuse);
  // A string of the session's own that reads like a marker: write it the plain way.
  return encodeLine([stringify()], EXACT_SIZE_FROM_CHARS, reuse);
}

function replaceLongStrings(merged: MergedSession, lines: ReadonlyMap<number, string>, replaced: Replaced[]): void {
  const replace = (holder: Record<string, unknown>, key: string, value: string, literal: string | null): void => {
    if (literal === null) return;
    holder[key] = MARK + replaced.length;
    replaced.push({ holder, key, value, literal, pieces: null, spliced: false });
  };
  // A Map, not an object indexed by the agent's name: that keyed load deoptimised this function
  // ("wrong name") as the agents alternate.
  const keys = LITERAL_KEYS.get(merged.session.agent)!;
  for (const m of merged.messages) {
    const line = lines.get(m.source.line);
    if (line === undefined) continue;
    if (m.text !== null && m.text.length >= MIN_LITERAL_CHARS) {
      const textKeys = m.role === 'user' ? keys.userText : keys.otherText;
      replace(m as unknown as Record<string, unknown>, 'text', m.text, findLiteral(line, textKeys, m.text));
    }
    for (const r of m.tool_results) {
      if (r.output !== null && r.output.length >= MIN_LITERAL_CHARS) {
        replace(r as unknown as Record<string, unknown>, 'output', r.output, findLiteral(line, keys.output, r.output));
      }
    }
  }
}

/** Stringifies each long top-level array in pieces (the long strings in it are markers by now). */
function replaceLongArrays(merged: Record<string, unknown>, replaced: Replaced[]): void {
  for (const key of Object.keys(merged)) {
    const value = merged[key];
    if (!Array.isArray(value) || value.length <= ELEMENTS_PER_PIECE) continue;
    const pieces: string[] = [];
    for (let at = 0; at < value.length; at += ELEMENTS_PER_PIECE) pieces.push(JSON.stringify(value.slice(at, at + ELEMENTS_PER_PIECE)));
    merged[key] = MARK + replaced.length;
    replaced.push({ holder: merged, key, value, literal: null, pieces, spliced: false });
  }
}

/**
 * Appends `text` from `start` to `end` to `parts`, with each marker's literal or array pieces in
 * its place; returns how many markers it found, or -1 when a string of the session reads exactly
 * like a marker (a number that is not ours, or one found twice). Every marker is found once, so
 * a count above `replaced.length` also means such a string.
 */
function spliceInto(parts: string[], text: string, start: number, end: number, replaced: readonly Replaced[]): number {
  let last = start; // where the next part of the text starts
  let from = start;
  let found = 0;
  for (;;) {
    const escape = text.indexOf(MARK_ESCAPE, from);
    if (escape < 0 || escape >= end) break;
    from = escape + 1;
    // A marker is a whole string: its quote opens it, so no backslash comes before the quote.
    // Anything else is a NUL (or the text "\u0000") inside a string of the session.
    const at = escape - 1;
    if (text.charCodeAt(at) !== QUOTE || text.charCodeAt(at - 1) === BACKSLASH) continue;
    let i = escape + MARK_ESCAPE.length;
    let n = 0;
    for (let c = text.charCodeAt(i); c >= 0x30 && c <= 0x39; c = text.charCodeAt(++i)) n = n * 10 + (c - 0x30);
    if (i === escape + MARK_ESCAPE.length || text.charCodeAt(i) !== QUOTE) continue;
    const r = replaced[n];
    if (r === undefined || r.spliced) return -1;
    r.spliced = true;
    found++;
    if (at > last) parts.push(text.slice(last, at));
    if (r.pieces === null) parts.push(r.literal!);
    else {
      parts.push('[');
      for (let k = 0; k < r.pieces.length; k++) {
        if (k > 0) parts.push(',');
        const piece = r.pieces[k]!;
        const inner = spliceInto(parts, piece, 1, piece.length - 1, replaced); // inside its brackets
        if (inner < 0) return -1;
        found += inner;
      }
      parts.push(']');
    }
    last = i + 1;
    from = last;
  }
  if (end > last) parts.push(text.slice(last, end));
  return found;
}

/**
 * Above this many characters the output buffer is sized exactly (one UTF-8 length pass per part)
 * rather than for the worst case of 3 bytes per character, whose untouched pages cost nothing
 * but address space.
 */
export const EXACT_SIZE_FROM_CHARS = 16 * 1024 * 1024;

/**
 * The parts and a newline as UTF-8 in one buffer: no concatenation (that would flatten a copy of
 * the whole text). The buffer is lent by `reuse` when given, else one of its own, never a pooled slice
 * (a worker transfers the buffer's memory).
 */
export function encodeLine(parts: readonly string[], exactFrom = EXACT_SIZE_FROM_CHARS, reuse: OutputBuffers | null = null): Uint8Array {
  let chars = 0;
  for (const p of parts) chars += p.length;
  let size = chars * 3 + 1; // UTF-8 takes at most 3 bytes per UTF-16 unit
  if (chars > exactFrom) {
    size = 1;
    for (const p of parts) size += Buffer.byteLength(p);
  }
  const out = reuse !== null ? reuse.lend(size) : Buffer.allocUnsafeSlow(size);
  let at = 0;
  for (const p of parts) at += out.write(p, at);
  out[at] = 0x0a;
  return at + 1 === out.length ? out : out.subarray(0, at + 1);
}
