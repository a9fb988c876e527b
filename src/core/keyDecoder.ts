// A pure decoder from the user's stdin bytes to KeyEvents: no timers, no I/O. It frames escape
// sequences, UTF-8 and bracketed pastes across reads; the caller owns the lone-Esc timer
// (LONE_ESC_TIMEOUT_MS) and calls flush() when it fires. Every event carries its exact bytes, and
// the bytes of all events, in order, are exactly the bytes fed in.
import type { KeyEvent } from './keys.js';
import { controlKey, csiKey, ss3Key, type KeySpec } from './keySequences.js';

/**
 * How long a lone ESC (or any other incomplete sequence) may wait for the rest of its bytes before
 * the caller calls flush(). A terminal writes a whole key sequence in one write(), so its bytes
 * nearly always arrive in one read; a split happens only over a slow link (ssh, a loaded machine),
 * and then the rest follows within a few milliseconds. Terminals and TUIs pick the same kind of
 * bound: neovim's default `ttimeoutlen` is 50 ms (vim's defaults.vim uses 100 ms), tmux's
 * `escape-time` is 10 ms since 3.5 (500 ms before), readline's `keyseq-timeout` is 500 ms.
 * crossterm (Codex's TUI) uses no timer at all: an ESC that ends a read is Esc. 50 ms is far
 * below the time a person needs to press another key after Esc, and long enough to rejoin a
 * sequence split by a slow link.
 */
export const LONE_ESC_TIMEOUT_MS = 50;

const ESC = 0x1b;
const PASTE_START = Buffer.from('\x1b[200~', 'latin1');
const PASTE_END = Buffer.from('\x1b[201~', 'latin1');
const EMPTY = Buffer.alloc(0);

interface Match {
  /** Offset just past the sequence. */
  readonly end: number;
  readonly spec: KeySpec | { readonly type: 'paste-start' };
}

interface OpenPaste {
  readonly parts: Buffer[];
  /** Bytes of ESC[200~ at the start of parts[0]: 6, or 0 for the rest of a paste after flush(). */
  headerLength: number;
  /** Content bytes so far (excluding the header), to know how far back ESC[201~ may begin. */
  contentLength: number;
}

export class KeyDecoder {
  /** Undecoded bytes: an incomplete trailing sequence. */
  private _buf: Buffer = EMPTY;
  private _paste: OpenPaste | undefined;

  /** True while bytes are held back waiting for the rest of a sequence (arm the flush timer). */
  get pending(): boolean {
    return this._buf.length > 0 || (this._paste !== undefined && this._paste.parts.length > 0);
  }

  /** Decodes every complete key in what has been fed so far; an incomplete tail stays pending. */
  feed(bytes: Buffer): KeyEvent[] {
    const out: KeyEvent[] = [];
    if (bytes.length === 0) return out;
    if (this._paste !== undefined) {
      const end = this._appendPaste(bytes, out);
      if (end < 0) return out;
      bytes = bytes.subarray(end);
    }
    this._buf = this._buf.length === 0 ? bytes : Buffer.concat([this._buf, bytes]);
    this._decode(out, false);
    return out;
  }

  /**
   * Resolves whatever is pending, after LONE_ESC_TIMEOUT_MS of silence: a lone ESC becomes the esc
   * key, ESC plus one character becomes Alt+that character, and a longer incomplete sequence or a
   * split UTF-8 code point becomes `unknown`. An open paste is delivered as far as it has come and
   * stays open (as crossterm keeps it) until ESC[201~ arrives.
   */
  flush(): KeyEvent[] {
    const out: KeyEvent[] = [];
    const paste = this._paste;
    if (paste !== undefined) {
      if (paste.parts.length > 0) out.push(toPasteEvent(Buffer.concat(paste.parts), paste.headerLength, 0));
      this._paste = { parts: [], headerLength: 0, contentLength: 0 };
      return out;
    }
    this._decode(out, true);
    return out;
  }

  private _decode(out: KeyEvent[], final: boolean): void {
    const buf = this._buf;
    let i = 0;
    while (i < buf.length) {
      const match = matchAt(buf, i) ?? (final ? resolveIncomplete(buf, i) : undefined);
      if (match === undefined) break;
      if (match.spec.type === 'paste-start') {
        this._buf = EMPTY;
        this._paste = { parts: [], headerLength: PASTE_START.length, contentLength: -PASTE_START.length };
        const end = this._appendPaste(buf.subarray(i), out);
        if (end < 0) return;
        // Decode what followed the paste as a fresh buffer (the paste consumed the old one).
        this._buf = buf.subarray(i + end);
        this._decode(out, final);
        return;
      }
      out.push(toEvent(match.spec, Buffer.from(buf.subarray(i, match.end))));
      i = match.end;
    }
    // Copy the tail: the caller's Buffer may be a slice of a larger pooled one.
    this._buf = i >= buf.length ? EMPTY : Buffer.from(buf.subarray(i));
  }

  /**
   * Adds `chunk` to the open paste. Returns the offset in `chunk` just past ESC[201~ (the paste is
   * then emitted and closed), or -1 while the paste is still open.
   */
  private _appendPaste(chunk: Buffer, out: KeyEvent[]): number {
    const paste = this._paste as OpenPaste;
    // ESC[201~ may straddle the previous read and this one: search from the last content bytes.
    const carryLength = Math.max(0, Math.min(PASTE_END.length - 1, paste.contentLength));
    const carry = carryLength > 0 ? lastBytes(paste.parts, carryLength) : EMPTY;
    const hay = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    const searchFrom = paste.contentLength < 0 ? -paste.contentLength : 0;
    const at = hay.indexOf(PASTE_END, searchFrom);
    if (at < 0) {
      paste.parts.push(Buffer.from(chunk));
      paste.contentLength += chunk.length;
      return -1;
    }
    const end = at + PASTE_END.length - carry.length;
    paste.parts.push(chunk.subarray(0, end));
    this._paste = undefined;
    out.push(toPasteEvent(Buffer.concat(paste.parts), paste.headerLength, PASTE_END.length));
    return end;
  }
}

function toPasteEvent(bytes: Buffer, headerLength: number, trailerLength: number): KeyEvent {
  return { type: 'paste', text: bytes.toString('utf8', headerLength, bytes.length - trailerLength), bytes };
}

function toEvent(spec: KeySpec, bytes: Buffer): KeyEvent {
  switch (spec.type) {
    case 'unknown':
      return { type: 'unknown', bytes };
    case 'key':
      return { ...spec, bytes };
    case 'char':
      return { ...spec, bytes };
  }
}

function lastBytes(parts: readonly Buffer[], n: number): Buffer {
  const all = parts.length === 1 ? parts[0] : Buffer.concat(parts.slice(-n));
  return all.subarray(Math.max(0, all.length - n));
}

/** The key starting at buf[i], or undefined when its bytes are not all there yet. */
function matchAt(buf: Buffer, i: number): Match | undefined {
  const b = buf[i];
  if (b === ESC) return matchEscape(buf, i);
  if (b < 0x20 || b === 0x7f) return { end: i + 1, spec: controlKey(b) };
  if (b < 0x80) return { end: i + 1, spec: { type: 'char', char: String.fromCharCode(b) } };
  return matchUtf8(buf, i);
}

function matchEscape(buf: Buffer, i: number): Match | undefined {
  if (i + 1 >= buf.length) return undefined;
  const c = buf[i + 1];
  switch (c) {
    case 0x5b: // [
      return matchCsi(buf, i);
    case 0x4f: // O
      return matchSs3(buf, i);
    case 0x5d: // ] OSC
    case 0x50: // P DCS
    case 0x5f: // _ APC
    case 0x5e: // ^ PM
    case 0x58: // X SOS
      // Replies to the agent's queries (OSC 11 colours, DCS/APC capability answers) come in on stdin.
      return matchString(buf, i);
    case ESC:
      // Esc pressed twice (Codex's "edit previous message"): the first ESC is a key of its own.
      return { end: i + 1, spec: { type: 'key', name: 'esc' } };
  }
  const inner = matchAt(buf, i + 1);
  if (inner === undefined) return undefined;
  const spec = inner.spec;
  if (spec.type === 'key' || spec.type === 'char') return { end: inner.end, spec: { ...spec, alt: true } };
  return { end: inner.end, spec: { type: 'unknown' } };
}

function matchCsi(buf: Buffer, i: number): Match | undefined {
  let j = i + 2;
  if (j >= buf.length) return undefined;
  if (buf[j] === 0x5b) {
    // Linux console F1–F5: ESC [ [ A … ESC [ [ E.
    if (j + 1 >= buf.length) return undefined;
    const f = buf[j + 1];
    const spec: KeySpec = f >= 0x41 && f <= 0x45 ? { type: 'key', name: `f${f - 0x40}` as 'f1' } : { type: 'unknown' };
    return { end: j + 2, spec };
  }
  if (buf[j] === 0x4d) {
    // X10 mouse report: ESC [ M and three raw bytes (button, column, row).
    return j + 3 < buf.length ? { end: j + 4, spec: { type: 'unknown' } } : undefined;
  }
  const paramsStart = j;
  while (j < buf.length && buf[j] >= 0x30 && buf[j] <= 0x3f) j++;
  const paramsEnd = j;
  while (j < buf.length && buf[j] >= 0x20 && buf[j] <= 0x2f) j++;
  if (j >= buf.length) return undefined;
  const final = buf[j];
  // Not a CSI after all (a control byte or ESC inside it): keep what came so far as unknown.
  if (final < 0x40 || final > 0x7e) return { end: j, spec: { type: 'unknown' } };
  if (paramsEnd !== j) return { end: j + 1, spec: { type: 'unknown' } };
  const params = buf.toString('latin1', paramsStart, paramsEnd);
  if (final === 0x7e && params === '200') {
    return buf.length - i >= PASTE_START.length ? { end: i, spec: { type: 'paste-start' } } : undefined;
  }
  return { end: j + 1, spec: csiKey(params, String.fromCharCode(final)) };
}

function matchSs3(buf: Buffer, i: number): Match | undefined {
  let j = i + 2;
  // Some terminals put a modifier digit between ESC O and the final byte (ESC O 5 A).
  while (j < buf.length && buf[j] >= 0x30 && buf[j] <= 0x39) j++;
  if (j >= buf.length) return undefined;
  const final = buf[j];
  if (final < 0x40 || final > 0x7e) {
    if (j > i + 2) return { end: j, spec: { type: 'unknown' } };
    return { end: i + 2, spec: { type: 'char', char: 'O', alt: true } };
  }
  return { end: j + 1, spec: ss3Key(String.fromCharCode(final), buf.toString('latin1', i + 2, j)) };
}

/** OSC / DCS / APC / PM / SOS: up to BEL (OSC only) or ST (ESC \). */
function matchString(buf: Buffer, i: number): Match | undefined {
  const isOsc = buf[i + 1] === 0x5d;
  for (let j = i + 2; j < buf.length; j++) {
    const b = buf[j];
    if (b === 0x07 && isOsc) return { end: j + 1, spec: { type: 'unknown' } };
    if (b === ESC) {
      if (j + 1 >= buf.length) return undefined;
      return { end: buf[j + 1] === 0x5c ? j + 2 : j, spec: { type: 'unknown' } };
    }
  }
  return undefined;
}

function matchUtf8(buf: Buffer, i: number): Match | undefined {
  const lead = buf[i];
  const length = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
  if (length === 0) return { end: i + 1, spec: { type: 'unknown' } };
  for (let k = 1; k < length; k++) {
    if (i + k >= buf.length) return undefined;
    if (!isContinuation(lead, k, buf[i + k])) return { end: i + k, spec: { type: 'unknown' } };
  }
  return { end: i + length, spec: { type: 'char', char: buf.toString('utf8', i, i + length) } };
}

/** UTF-8 continuation bytes, excluding overlong forms, surrogates and code points past U+10FFFF. */
function isContinuation(lead: number, k: number, b: number): boolean {
  if (k === 1) {
    if (lead === 0xe0) return b >= 0xa0 && b <= 0xbf;
    if (lead === 0xed) return b >= 0x80 && b <= 0x9f;
    if (lead === 0xf0) return b >= 0x90 && b <= 0xbf;
    if (lead === 0xf4) return b >= 0x80 && b <= 0x8f;
  }
  return b >= 0x80 && b <= 0xbf;
}

/** flush(): what an incomplete sequence at buf[i..] means once no more bytes are coming. */
function resolveIncomplete(buf: Buffer, i: number): Match {
  const rest = buf.length - i;
  if (rest === 1 && buf[i] === ESC) return { end: buf.length, spec: { type: 'key', name: 'esc' } };
  if (rest === 2 && buf[i] === ESC && buf[i + 1] >= 0x20 && buf[i + 1] < 0x7f) {
    return { end: buf.length, spec: { type: 'char', char: String.fromCharCode(buf[i + 1]), alt: true } };
  }
  return { end: buf.length, spec: { type: 'unknown' } };
}
