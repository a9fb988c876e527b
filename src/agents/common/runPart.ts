// Where this run's part of a session file begins. A resumed session (`codex resume`, `gemini
// --resume`, `claude --continue`) appends to a file that already holds earlier turns; those are
// not this run's and must not be recorded again. Every agent stamps its records with the time it
// wrote them, and the run's start is taken before the agent is spawned, so the first record stamped
// at or after the start is the first one this run's agent wrote. The same machine's clock stamps
// both: no slack is allowed, since an earlier session's last record may be only moments older.
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';

/** The milliseconds-since-epoch a record says it was written, when it says so. */
export type RecordTime = (text: string) => number | undefined;

/**
 * Where this run's part of a file begins: a byte offset, or, for a file that was not there yet when
 * it was named (Claude's `--fork-session` writes a new transcript that starts with a copy of the
 * earlier session's history), each record's own stamp: one stamped before the run started is a
 * copy, and unstamped ones go with the stamped one before them.
 */
export type RunStart = number | { readonly since: number; readonly timeOf: RecordTime };

/** How much of a file is read to find the run's part; a longer file is read from its end. */
const RUN_PART_MAX_BYTES = 64 * 1024 * 1024;

/** Where the records stamped before `since` end, and where the first one stamped at or after it starts. */
export interface RunBounds {
  /** Just after the last record stamped before `since` that comes before the first one at or after it. */
  readonly afterEarlier: number;
  /** The first record stamped at or after `since` (the end of the data when there is none). */
  readonly firstOurs: number;
}

export function runBoundsIn(data: Buffer, since: number, timeOf: RecordTime, base = 0): RunBounds {
  let afterEarlier = 0;
  let start = 0;
  while (start < data.length) {
    let nl = data.indexOf(0x0a, start);
    if (nl < 0) nl = data.length;
    const text = data.subarray(start, nl).toString('utf8').trim();
    const t = text === '' ? undefined : timeOf(text);
    if (t !== undefined && t >= since) return { afterEarlier: base + afterEarlier, firstOurs: base + start };
    if (t !== undefined) afterEarlier = Math.min(nl + 1, data.length);
    start = nl + 1;
  }
  return { afterEarlier: base + afterEarlier, firstOurs: base + data.length };
}

/**
 * Byte offset in `data` where this run's part begins, by the stamps alone: just after the last record
 * stamped before `since`. Unstamped records in between (Claude's cost-state, Gemini's `$set`) go
 * with what follows them, so a file the run created is all its own; `runStartOffset` with the
 * file's size at the run's start places them better.
 */
export function runStartIn(data: Buffer, since: number, timeOf: RecordTime, base = 0): number {
  return runBoundsIn(data, since, timeOf, base).afterEarlier;
}

/**
 * Where this run's part of `file` begins: byte 0 when the file is all this run's; by the stamps
 * when the file is not there yet. With the
 * file's size when the run started (`sizeAtStart`, when the profile could take it), what was there
 * then is earlier, unstamped trailers included (Claude ends a session with unstamped cost-state and
 * last-prompt records), unless a record stamped since the start comes first (the size was taken a
 * moment after the agent began).
 */
export function runStartOffset(file: string, since: Date, timeOf: RecordTime, sizeAtStart?: number): RunStart {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    // Not there yet: what this run's agent writes is stamped from the start on; a copy is older.
    return { since: since.getTime(), timeOf };
  }
  try {
    const size = fstatSync(fd).size;
    const base = Math.max(0, size - RUN_PART_MAX_BYTES);
    const buf = Buffer.alloc(size - base);
    const n = readSync(fd, buf, 0, buf.length, base);
    // From the middle of a line (a long file read from its end): skip to the next whole line.
    const first = base === 0 ? 0 : buf.indexOf(0x0a) + 1;
    const bounds = runBoundsIn(buf.subarray(first, n), since.getTime(), timeOf, base + first);
    return sizeAtStart === undefined ? bounds.afterEarlier : Math.min(sizeAtStart, bounds.firstOurs);
  } finally {
    closeSync(fd);
  }
}

/**
 * The sizes of those of `files` not written to since `since` (taken as the recorder starts, a moment
 * after the agent: a file it already wrote to is left to the stamps).
 */
export function sizesUntouchedSince(files: Iterable<string>, since: Date): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const file of files) {
    try {
      const st = statSync(file);
      if (st.mtimeMs < since.getTime()) sizes.set(file, st.size);
    } catch {
      // Gone since it was listed: it holds nothing of an earlier session.
    }
  }
  return sizes;
}

/** The top-level `timestamp` field most agents put on each JSONL record (Codex, Claude, Gemini). */
export function isoTimestampOf(text: string): number | undefined {
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch {
    // A line still being written, or not JSON: it tells no time.
    return undefined;
  }
  const ts = record && typeof record === 'object' ? (record as Record<string, unknown>).timestamp : undefined;
  const t = typeof ts === 'string' ? Date.parse(ts) : NaN;
  return Number.isFinite(t) ? t : undefined;
}
