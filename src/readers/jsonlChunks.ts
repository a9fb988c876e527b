// A plain chunk splitter for JSON Lines: reads a file in large chunks and hands each line to a
// callback with its 1-based number and byte offset. No readline (slower, docs/merge.md), no
// per-line promises: the hot loop is Buffer.indexOf + one native utf8 decode per line.
import { closeSync, openSync, readSync } from 'node:fs';

/**
 * Bytes read per fs call. 1 MiB keeps syscalls rare without holding much memory; a line longer
 * than this grows the carry buffer instead, so any line length is fine.
 */
export const JSONL_CHUNK_BYTES = 1024 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * The read buffer, kept between files: a fresh 1 MiB buffer per file is a fresh mapping whose
 * pages are faulted in again each time, which shows on runs over many small files (docs/merge.md).
 * Lent to one split at a time; a nested split (from inside a callback) gets its own.
 */
let sharedBuffer: Buffer | null = null;

export interface JsonlLine {
  readonly text: string;
  /** 1-based line number. */
  readonly lineNo: number;
  /** Byte offset of the line's first byte in the file. */
  readonly byteOffset: number;
  /** False for a last line that has no trailing newline (possibly cut short by a writer). */
  readonly terminated: boolean;
}

export interface SplitResult {
  readonly bytes: number;
  readonly lines: number;
}

/**
 * Streams `path` line by line. Blank lines are skipped (but counted in line numbers). Errors from
 * opening or reading the file reject the promise; the caller turns them into diagnostics.
 * `onBytes` is told how many bytes were read after each chunk (for progress bars).
 *
 * Reads are synchronous on purpose: a batch reader gains nothing from the thread-pool round trip
 * of each async read (more CPU per MB, docs/merge.md), and the event loop is only held for one
 * chunk at a time. Callers that must stay responsive run this in a worker thread.
 */
export async function splitJsonlFile(
  path: string,
  onLine: (line: JsonlLine) => void,
  onBytes?: (bytes: number) => void,
  chunkBytes: number = JSONL_CHUNK_BYTES,
): Promise<SplitResult> {
  const fd = openSync(path, 'r');
  const lent = sharedBuffer !== null && sharedBuffer.length >= chunkBytes && chunkBytes === JSONL_CHUNK_BYTES ? sharedBuffer : null;
  if (lent) sharedBuffer = null;
  let buf = lent ?? Buffer.allocUnsafe(chunkBytes);
  try {
    let carry = 0; // bytes at the start of `buf` that belong to an unfinished line
    let fileOffset = 0; // file offset of buf[0]
    let lineNo = 0;
    let total = 0;
    for (;;) {
      if (carry === buf.length) {
        // One line is longer than the buffer: grow it and keep reading.
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, carry);
        buf = bigger;
      }
      const bytesRead = readSync(fd, buf, carry, buf.length - carry, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      onBytes?.(bytesRead);
      const end = carry + bytesRead;
      // Search only the bytes read so far: the rest of the buffer holds stale data.
      const view = buf.subarray(0, end);
      let start = 0;
      let nl = view.indexOf(NEWLINE, carry);
      while (nl !== -1) {
        lineNo++;
        emit(view, start, nl, fileOffset + start, lineNo, true, onLine);
        start = nl + 1;
        nl = view.indexOf(NEWLINE, start);
      }
      // Move the unfinished tail to the front for the next read.
      carry = end - start;
      if (carry > 0 && start > 0) buf.copy(buf, 0, start, end);
      fileOffset += start;
    }
    if (carry > 0) {
      lineNo++;
      emit(buf, 0, carry, fileOffset, lineNo, false, onLine);
    }
    return { bytes: total, lines: lineNo };
  } finally {
    closeSync(fd);
    // Give the buffer (grown or not) back for the next file, unless it grew past bounds.
    if (chunkBytes === JSONL_CHUNK_BYTES && buf.length <= MAX_KEPT_BUFFER_BYTES) sharedBuffer = buf;
  }
}

/** A buffer grown for a very long line is not kept beyond this, so memory stays bounded. */
const MAX_KEPT_BUFFER_BYTES = 16 * JSONL_CHUNK_BYTES;

/** Splits an in-memory buffer the same way (used for agent_records rows and tests). */
export function splitJsonlBuffer(buf: Buffer, onLine: (line: JsonlLine) => void): SplitResult {
  let start = 0;
  let lineNo = 0;
  let nl = buf.indexOf(NEWLINE, 0);
  while (nl !== -1) {
    lineNo++;
    emit(buf, start, nl, start, lineNo, true, onLine);
    start = nl + 1;
    nl = buf.indexOf(NEWLINE, start);
  }
  if (start < buf.length) {
    lineNo++;
    emit(buf, start, buf.length, start, lineNo, false, onLine);
  }
  return { bytes: buf.length, lines: lineNo };
}

function emit(
  buf: Buffer,
  start: number,
  end: number,
  byteOffset: number,
  lineNo: number,
  terminated: boolean,
  onLine: (line: JsonlLine) => void,
): void {
  let e = end;
  if (e > start && buf[e - 1] === CARRIAGE_RETURN) e--;
  if (e === start) return; // blank line
  // A line of only spaces is blank too, but checking costs a scan; JSON.parse reports it anyway.
  onLine({ text: buf.toString('utf8', start, e), lineNo, byteOffset, terminated });
}
