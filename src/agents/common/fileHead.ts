// The first bytes of a session file, for telling candidates apart without reading whole files.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** Up to `maxBytes` from the start of `file`; undefined when it was removed or is unreadable since it was listed. */
export function readHead(file: string, maxBytes: number): Buffer | undefined {
  try {
    const fd = openSync(file, 'r');
    try {
      return readHeadOf(fd, maxBytes);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Removed or unreadable since it was listed: not a candidate any more.
    return undefined;
  }
}

/** Up to `maxBytes` from the start of the open file `fd` (which may have been deleted since it was opened). */
export function readHeadOf(fd: number, maxBytes: number): Buffer {
  const size = Math.min(fstatSync(fd).size, maxBytes);
  const buf = Buffer.alloc(size);
  return buf.subarray(0, readSync(fd, buf, 0, size, 0));
}
