// Candidate session files kept open while the run has not bound one. An agent may delete its file as
// it quits (Gemini deletes a session with nothing to resume), and the one witness that proves which
// file was this run's, the session id it prints as it exits, comes only then: through a descriptor
// opened while the file was there, the file is still read whole after its name is gone.
import { closeSync, openSync } from 'node:fs';

/** Past this many, new candidates are not held (a folder of many live sessions): they are read by name. */
const MAX_HELD_FILES = 64;

export class HeldFiles {
  private readonly _fds = new Map<string, number>();

  /** Opens those of `files` not held yet; a file gone since it was listed is passed over. */
  hold(files: Iterable<string>): void {
    for (const file of files) {
      if (this._fds.has(file) || this._fds.size >= MAX_HELD_FILES) continue;
      try {
        this._fds.set(file, openSync(file, 'r'));
      } catch {
        // Deleted since it was listed: nothing of it to keep.
      }
    }
  }

  /** The files held, with their descriptors. */
  entries(): IterableIterator<[string, number]> {
    return this._fds.entries();
  }

  /** Hands over `file`'s descriptor: the caller owns it from now on (undefined when not held). */
  take(file: string): number | undefined {
    const fd = this._fds.get(file);
    this._fds.delete(file);
    return fd;
  }

  /** Closes every descriptor still held. */
  dispose(): void {
    for (const fd of this._fds.values()) {
      try {
        closeSync(fd);
      } catch {
        // Already closed: nothing is held either way.
      }
    }
    this._fds.clear();
  }
}
