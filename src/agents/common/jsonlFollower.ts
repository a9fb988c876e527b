// Follows a JSONL file another process appends to (Codex rollouts, Gemini chats): each complete
// line is handed out once, with its 1-based line number and byte offset. Reading is synchronous so a
// recorder can catch up inside a key handler, before the key reaches the agent. Once opened, the file
// stays open: an agent may delete its file as it quits (Gemini, a session with nothing to resume),
// and what it appended last is still read through the open descriptor after the name is gone.
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import type { RunStart } from './runPart.js';

export interface JsonlLine {
  readonly file: string;
  readonly lineNo: number;
  readonly byteOffset: number;
  /** The line without its newline, exactly as written. */
  readonly text: string;
  /**
   * The line was in the file before this run wrote to it (a resumed session's earlier turns): read
   * for what it says of the session, never recorded again as this run's.
   */
  readonly earlier?: boolean;
}

/** Bytes read per readSync call; rollout lines can be tens of kilobytes (instructions, tool specs). */
const READ_CHUNK_BYTES = 256 * 1024;

export class JsonlFollower {
  private _offset = 0;
  private _lineNo = 0;
  private _partial: Buffer = Buffer.alloc(0);
  /** The open file, once it existed; undefined before, and after close(). */
  private _fd: number | undefined;
  private _closed = false;

  constructor(
    readonly file: string,
    private readonly _onLine: (line: JsonlLine) => void,
    /** Lines before this run's part (runPart.ts: a byte offset, or the records' stamps) are handed out as `earlier`. */
    private readonly _runStartsAt: RunStart = 0,
    /** A descriptor of `file` opened earlier (it may have been deleted since): read through it, and owned from now on. */
    heldFd?: number,
  ) {
    this._fd = heldFd;
  }

  /** Closes the file; later polls read nothing. */
  close(): void {
    this._closed = true;
    if (this._fd !== undefined) closeQuietly(this._fd);
    this._fd = undefined;
  }

  /** With a stamp rule: whether the last stamped record was earlier than the run. */
  private _earlierByStamp = false;

  private _isEarlier(byteOffset: number, text: string): boolean {
    const start = this._runStartsAt;
    if (typeof start === 'number') return byteOffset < start;
    const t = start.timeOf(text);
    if (t !== undefined) this._earlierByStamp = t < start.since;
    return this._earlierByStamp;
  }

  /** Reads whatever was appended since the last call; returns how many lines were handed out. */
  poll(): number {
    const fd = this._open();
    if (fd === undefined) return 0;
    let count = 0;
    const size = fstatSync(fd).size;
    if (size < this._offset + this._partial.length) {
      // The file was truncated or replaced: start over rather than read from a stale offset.
      this._offset = 0;
      this._lineNo = 0;
      this._partial = Buffer.alloc(0);
    }
    let position = this._offset + this._partial.length;
    if (position >= size) return 0;
    const buf = Buffer.alloc(READ_CHUNK_BYTES);
    while (position < size) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, size - position), position);
      if (n <= 0) break;
      position += n;
      count += this._consume(buf.subarray(0, n));
    }
    return count;
  }

  /**
   * The descriptor to read: the one held, unless the name now leads to another file (the agent
   * replaced it: read on at the same offset, or from the start if it is shorter, as poll() does);
   * opened on the first poll that finds the file.
   */
  private _open(): number | undefined {
    if (this._closed) return undefined;
    if (this._fd !== undefined) {
      if (!this._replaced(this._fd)) return this._fd;
      closeQuietly(this._fd);
      this._fd = undefined;
    }
    try {
      this._fd = openSync(this.file, 'r');
    } catch {
      // ENOENT: the agent has not created the file yet; the next poll tries again.
      return undefined;
    }
    return this._fd;
  }

  /** Whether the name now leads to another file than the one held (a name that leads nowhere: deleted, keep reading). */
  private _replaced(fd: number): boolean {
    let named;
    try {
      named = statSync(this.file);
    } catch {
      // Deleted (Gemini at exit): what the held descriptor still reads is all there is.
      return false;
    }
    const held = fstatSync(fd);
    return named.ino !== held.ino || named.dev !== held.dev;
  }

  private _consume(chunk: Buffer): number {
    let data = this._partial.length ? Buffer.concat([this._partial, chunk]) : chunk;
    let count = 0;
    for (;;) {
      const nl = data.indexOf(0x0a);
      if (nl < 0) break;
      const lineBytes = data.subarray(0, nl);
      const byteOffset = this._offset;
      this._offset += nl + 1;
      this._lineNo += 1;
      const text = lineBytes.toString('utf8').replace(/\r$/, '');
      data = data.subarray(nl + 1);
      if (text.trim() === '') continue;
      count++;
      this._onLine({ file: this.file, lineNo: this._lineNo, byteOffset, text, ...(this._isEarlier(byteOffset, text) ? { earlier: true } : {}) });
    }
    // Copy: `data` may be a view into the reusable read buffer.
    this._partial = Buffer.from(data);
    return count;
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed (EBADF): nothing is held any more either way.
  }
}
