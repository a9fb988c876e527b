// The time a recorder runs on: its polling, its settle checks and its deadline after exit. In a run
// this is the system clock; a replay of a recorded session passes a clock driven by the recording's
// own timestamps, so that every timer fires at the same point of the session on every run.
import { toDisposable, type Disposable } from '../../core/lifecycle.js';

export interface RecorderClock {
  /** Milliseconds, only ever compared with other readings of the same clock. */
  now(): number;
  /**
   * Calls `fn` once, `ms` from now. `fn` may return a promise for the work it started; a clock that
   * drives time itself waits for it before going on, the system clock ignores it.
   */
  setTimeout(fn: () => unknown, ms: number): Disposable;
  /** Calls `fn` every `ms` until disposed (same promise rule as setTimeout). */
  setInterval(fn: () => unknown, ms: number): Disposable;
}

/** Real time; the timers are unref'd so that they never keep the process alive. */
export const systemClock: RecorderClock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const timer = setTimeout(() => void fn(), ms);
    timer.unref();
    return toDisposable(() => clearTimeout(timer));
  },
  setInterval(fn, ms) {
    const timer = setInterval(() => void fn(), ms);
    timer.unref();
    return toDisposable(() => clearInterval(timer));
  },
};

/**
 * Resolves `ms` from now on `clock`, or at once when `stop` aborts (then the timer is cleared, so a
 * recorder told to stop leaves no timer behind).
 */
export function waitOn(clock: RecorderClock, ms: number, stop: AbortSignal): Promise<void> {
  if (stop.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const onAbort = () => {
      timer.dispose();
      resolve();
    };
    const timer = clock.setTimeout(() => {
      stop.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    stop.addEventListener('abort', onAbort, { once: true });
  });
}
