// The buffers merged sessions are written into, used again once their bytes are written. A fresh
// buffer per session is fresh memory: the kernel faults in and zeroes each page the JSON is written
// to, and unmaps it all when the buffer is freed: a large share of a merge's system time
// (docs/merge.md, "Why the code is shaped this way").
// In-process, the run gives each output back after writing it; with workers, the main thread
// transfers each written buffer back to the worker that filled it (its memory moves, no copy).

/** A session that needs more is written to a buffer of its own, dropped after it: memory stays bounded. */
export const MAX_REUSED_OUTPUT_BYTES = 48 * 1024 * 1024;

/** The smallest buffer made: most sessions fit, and pages never written cost address space only. */
export const FIRST_OUTPUT_BYTES = 4 * 1024 * 1024;

/** Free buffers kept: one is enough in-process; a worker may get a few back while it works. */
const DEFAULT_MAX_FREE = 2;

export class OutputBuffers {
  private readonly _free: ArrayBuffer[] = [];

  constructor(private readonly _maxFree: number = DEFAULT_MAX_FREE) {}

  /** A buffer of at least `size` bytes, the caller's until its memory is given back (or dropped). */
  lend(size: number): Buffer {
    if (size > MAX_REUSED_OUTPUT_BYTES) return Buffer.allocUnsafeSlow(size);
    for (let i = 0; i < this._free.length; i++) {
      const memory = this._free[i]!;
      if (memory.byteLength < size) continue;
      this._free.splice(i, 1);
      return Buffer.from(memory);
    }
    return Buffer.allocUnsafeSlow(Math.min(MAX_REUSED_OUTPUT_BYTES, Math.max(size, FIRST_OUTPUT_BYTES)));
  }

  /**
   * The memory of an output whose bytes are written: the next `lend` may overwrite it. Whoever
   * gives it back must hold no view of it any more. When the free list is full, the smallest
   * buffer is dropped, so the kept ones fit the larger sessions.
   */
  giveBack(memory: ArrayBuffer): void {
    if (memory.byteLength > MAX_REUSED_OUTPUT_BYTES || memory.byteLength < FIRST_OUTPUT_BYTES) return;
    if (this._free.length < this._maxFree) {
      this._free.push(memory);
      return;
    }
    let smallest = 0;
    for (let i = 1; i < this._free.length; i++) if (this._free[i]!.byteLength < this._free[smallest]!.byteLength) smallest = i;
    if (this._free[smallest]!.byteLength < memory.byteLength) this._free[smallest] = memory;
  }

  /** Free buffers held now (for tests). */
  get freeCount(): number {
    return this._free.length;
  }
}
