// @ts-check
// Reading another process's memory and CPU from /proc (Linux only): the peak RSS (VmHWM) polled
// until the process exits, and its user+system CPU time.
import { readFileSync } from 'node:fs';

/**
 * How often the watcher samples VmHWM. VmHWM is the kernel's own high-water mark, so sampling only
 * has to happen while the process is alive; a growth in the last interval before exit is missed,
 * which 10 ms makes negligible for processes that run longer than a few of them.
 */
export const MEMORY_POLL_MS = 10;

/** Clock ticks per second of /proc/<pid>/stat times (getconf CLK_TCK; 100 on every Linux we run on). */
const CLOCK_TICKS = 100;

/** VmHWM and VmRSS of `pid` in kB, or undefined once the process has gone (or is a zombie). */
export function readMemory(pid) {
  let text;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'latin1');
  } catch {
    // ENOENT/ESRCH: the process has exited and been reaped; there is nothing left to read.
    return undefined;
  }
  const hwm = /^VmHWM:\s+(\d+) kB/m.exec(text);
  const rss = /^VmRSS:\s+(\d+) kB/m.exec(text);
  if (!hwm || !rss) return undefined; // A zombie has no memory lines.
  return { hwmKb: Number(hwm[1]), rssKb: Number(rss[1]) };
}

/** User + system CPU seconds `pid` has used so far, or undefined once it has gone. */
export function readCpuSeconds(pid) {
  let text;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    // ENOENT/ESRCH: the process has exited and been reaped.
    return undefined;
  }
  // The command name (field 2) may contain spaces and parentheses: split after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return (utime + stime) / CLOCK_TICKS;
}

/** Samples VmHWM of one process every MEMORY_POLL_MS until stop() or until it has gone. */
export class MemoryWatcher {
  constructor(pid) {
    this._pid = pid;
    this.hwmKb = 0;
    this._last = 0;
    this._sample();
    /** @type {NodeJS.Timeout | undefined} */
    this._timer = setInterval(() => this._sample(), MEMORY_POLL_MS);
  }

  _sample() {
    const m = readMemory(this._pid);
    if (m === undefined) {
      this.stop();
      return;
    }
    // The first samples may still see the forked copy of the spawning process, before exec gives
    // the program a fresh address space; a high-water mark that went down means exec happened.
    if (m.hwmKb < this._last) this.hwmKb = 0;
    this._last = m.hwmKb;
    if (m.hwmKb > this.hwmKb) this.hwmKb = m.hwmKb;
  }

  /** Takes a last sample (if the process is still there) and stops; returns the peak in kB. */
  stop() {
    if (this._timer !== undefined) {
      clearInterval(this._timer);
      this._timer = undefined;
      this._sample();
    }
    return this.hwmKb;
  }
}
