// The screen model's queue of output not yet handed to the headless terminal: bounded in bytes,
// coalescing small chunks into larger slices, and keeping resizes in order with the bytes around
// them. When a burst overflows the bound, the oldest bytes go (see dropOldest for why and how).

/** A resize, applied to the model only after the bytes written before it have been parsed. */
export interface ResizeItem {
  readonly cols: number;
  readonly rows: number;
}

export type BacklogItem = Buffer | ResizeItem;

/** CAN: aborts whatever escape sequence the parser is in the middle of (VT100, and xterm.js). */
const CANCEL = Buffer.from([0x18]);
const LF = 0x0a;
const ESC = 0x1b;

/**
 * How far past a cut the backlog looks for a clean restart point (the next ESC or line feed), so
 * that the model does not print the tail of a half-dropped escape sequence as text.
 */
const RESYNC_SCAN_BYTES = 4096;

/**
 * The alternate-screen switch (DECSET/DECRST 1049) the agents' TUIs use; the last one in dropped
 * bytes is replayed. Only this form is searched (the legacy 47 / 1047 forms are not): the search
 * runs over every dropped byte, so it must be a single pass.
 */
const SCREEN_SWITCH_PREFIX = Buffer.from('\x1b[?1049', 'latin1');
const SCREEN_SWITCH_ON = Buffer.from('\x1b[?1049h', 'latin1');
const SCREEN_SWITCH_OFF = Buffer.from('\x1b[?1049l', 'latin1');

/**
 * An overflow cuts the backlog down to this fraction of its bound, not just below it: under a
 * sustained flood one cut then covers half a bound of output instead of every chunk paying for a
 * cut (array rebuild, resync scan, screen-switch search).
 */
export const DROP_TO_FRACTION = 0.5;

export class ByteBacklog {
  private _items: BacklogItem[] = [];
  private _bytes = 0;
  private _droppedBytes = 0;
  private _dropCount = 0;
  private _injectedBytes = 0;

  constructor(private readonly _maxBytes: number) {}

  /** Bytes queued now. */
  get bytes(): number {
    return this._bytes;
  }

  get isEmpty(): boolean {
    return this._items.length === 0;
  }

  /** Total bytes dropped because a burst overflowed the bound. */
  get droppedBytes(): number {
    return this._droppedBytes;
  }

  /** How many times a push overflowed the bound. */
  get dropCount(): number {
    return this._dropCount;
  }

  /** Bytes the backlog added itself after a drop (CAN, a screen switch), never written by the caller. */
  get injectedBytes(): number {
    return this._injectedBytes;
  }

  /** The caller must not modify `chunk` afterwards (node-pty hands out a fresh Buffer per read). */
  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this._items.push(chunk);
    this._bytes += chunk.length;
    if (this._bytes > this._maxBytes) this._dropOldest(this._bytes - Math.floor(this._maxBytes * DROP_TO_FRACTION));
  }

  pushResize(resize: ResizeItem): void {
    const last = this._items[this._items.length - 1];
    // Consecutive resizes: only the last one matters.
    if (last !== undefined && !Buffer.isBuffer(last)) this._items[this._items.length - 1] = resize;
    else this._items.push(resize);
  }

  /** True when the next item is a resize (the caller applies it once xterm has caught up). */
  get nextIsResize(): boolean {
    const first = this._items[0];
    return first !== undefined && !Buffer.isBuffer(first);
  }

  /**
   * Removes and returns the next item: a resize, or up to `maxBytes` of output coalesced from the
   * queued chunks (a single large chunk is sliced, not copied).
   */
  take(maxBytes: number): BacklogItem | undefined {
    const first = this._items[0];
    if (first === undefined) return undefined;
    if (!Buffer.isBuffer(first)) {
      this._items.shift();
      return first;
    }
    if (first.length >= maxBytes || this._items.length === 1 || !Buffer.isBuffer(this._items[1])) {
      return this._takeFrom(first, maxBytes);
    }
    const parts: Buffer[] = [];
    let size = 0;
    while (size < maxBytes) {
      const item = this._items[0];
      if (item === undefined || !Buffer.isBuffer(item)) break;
      const part = this._takeFrom(item, maxBytes - size);
      parts.push(part);
      size += part.length;
    }
    return Buffer.concat(parts, size);
  }

  clear(): void {
    this._items = [];
    this._bytes = 0;
  }

  private _takeFrom(first: Buffer, maxBytes: number): Buffer {
    if (first.length <= maxBytes) {
      this._items.shift();
      this._bytes -= first.length;
      return first;
    }
    this._items[0] = first.subarray(maxBytes);
    this._bytes -= maxBytes;
    return first.subarray(0, maxBytes);
  }

  /**
   * Drops at least `excess` of the oldest queued bytes (a little more when the cut moves on to a
   * clean restart point). Why the oldest: the agents' TUIs redraw
   * their whole screen region (a spinner, a status line, the prompt box) many times a second, so
   * bytes that are megabytes old describe a screen that has long been painted over, while the
   * newest bytes decide what is on screen now, which is what recorders read. Resizes stay queued.
   * After a cut the model is resynchronised: the restart point moves on to the next ESC or line
   * feed, a CAN aborts any sequence the parser was inside, and the last alternate-screen switch
   * among the dropped bytes is replayed. What cannot be repaired (a cell painted only once in the
   * dropped bytes and never redrawn) is the price of a bounded memory.
   */
  private _dropOldest(excess: number): void {
    this._dropCount++;
    let lastSwitch: { at: number; seq: Buffer } | undefined;
    let seen = 0;
    const kept: BacklogItem[] = [];
    let i = 0;
    for (; i < this._items.length && excess > 0; i++) {
      const item = this._items[i];
      if (!Buffer.isBuffer(item)) {
        kept.push(item);
        continue;
      }
      let cut = Math.min(item.length, excess);
      if (cut < item.length) cut = resyncPoint(item, cut);
      lastSwitch = lastScreenSwitch(item.subarray(0, cut), seen, lastSwitch);
      seen += cut;
      excess -= cut;
      this._dropBytes(cut);
      if (cut < item.length) {
        kept.push(item.subarray(cut));
        i++;
        break;
      }
    }
    const injected = lastSwitch === undefined ? [CANCEL] : [CANCEL, lastSwitch.seq];
    for (const inject of injected) {
      this._injectedBytes += inject.length;
      this._bytes += inject.length;
    }
    this._items = [...injected, ...kept, ...this._items.slice(i)];
  }

  private _dropBytes(n: number): void {
    this._bytes -= n;
    this._droppedBytes += n;
  }
}

/** The first offset at or after `from` where parsing can restart cleanly. */
function resyncPoint(chunk: Buffer, from: number): number {
  const limit = Math.min(chunk.length, from + RESYNC_SCAN_BYTES);
  for (let j = from; j < limit; j++) {
    if (chunk[j] === ESC) return j;
    if (chunk[j] === LF) return j + 1;
  }
  return from;
}

function lastScreenSwitch(
  dropped: Buffer,
  offset: number,
  previous: { at: number; seq: Buffer } | undefined,
): { at: number; seq: Buffer } | undefined {
  let at = dropped.lastIndexOf(SCREEN_SWITCH_PREFIX);
  while (at >= 0) {
    const final = dropped[at + SCREEN_SWITCH_PREFIX.length];
    if (final === 0x68) return { at: offset + at, seq: SCREEN_SWITCH_ON }; // h
    if (final === 0x6c) return { at: offset + at, seq: SCREEN_SWITCH_OFF }; // l
    // Cut off at the end of the dropped part, or another parameter follows: look further back.
    at = at > 0 ? dropped.lastIndexOf(SCREEN_SWITCH_PREFIX, at - 1) : -1;
  }
  return previous;
}
