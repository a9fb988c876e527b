// A RecorderClock whose time moves only when a replay moves it: timers fire in due order at the
// point of the recorded session where they would have fired, the same on every run, and the replay
// waits for the work each timer started (its returned promise) before it goes on.
import type { Disposable } from '../../src/core/lifecycle.js';
import type { RecorderClock } from '../../src/agents/common/recorderClock.js';

interface Timer {
  due: number;
  readonly seq: number;
  readonly every: number | undefined;
  readonly fn: () => unknown;
  cancelled: boolean;
}

export class VirtualClock implements RecorderClock {
  private readonly _timers: Timer[] = [];
  private _seq = 0;

  constructor(private _now: number) {}

  now(): number {
    return this._now;
  }

  setTimeout(fn: () => unknown, ms: number): Disposable {
    return this._add(fn, ms, undefined);
  }

  setInterval(fn: () => unknown, ms: number): Disposable {
    return this._add(fn, ms, Math.max(1, ms));
  }

  /** When the next timer is due; undefined when none is pending. */
  get nextDue(): number | undefined {
    return this._next()?.due;
  }

  /**
   * Moves time to `t`, firing every timer due by then in order (time stands at each timer's due
   * time while it runs); `afterEach` runs after each timer's work, e.g. to let the screen catch up.
   */
  async advanceTo(t: number, afterEach?: () => Promise<void>): Promise<void> {
    for (;;) {
      const timer = this._next();
      if (!timer || timer.due > t) break;
      this._now = Math.max(this._now, timer.due);
      if (timer.every === undefined) timer.cancelled = true;
      else timer.due += timer.every;
      await timer.fn();
      await afterEach?.();
    }
    this._now = Math.max(this._now, t);
  }

  /**
   * Runs timers, one due time after another, until `work` settles (work that waits on this clock,
   * such as a recorder's reconciliation after exit). Throws if it needs more than `limitMs` of clock time.
   */
  async runUntil<T>(work: Promise<T>, limitMs: number, afterEach?: () => Promise<void>): Promise<T> {
    let settled = false;
    const tracked = work.finally(() => {
      settled = true;
    });
    const limit = this._now + limitMs;
    for (;;) {
      // A macrotask turn lets the work's continuations run before we look at it.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (settled) return tracked;
      const due = this.nextDue;
      if (due === undefined || due > limit) throw new Error(`virtual clock: work still pending after ${limitMs} ms of clock time`);
      await this.advanceTo(due, afterEach);
    }
  }

  private _add(fn: () => unknown, ms: number, every: number | undefined): Disposable {
    const timer: Timer = { due: this._now + Math.max(0, ms), seq: ++this._seq, every, fn, cancelled: false };
    this._timers.push(timer);
    return { dispose: () => void (timer.cancelled = true) };
  }

  private _next(): Timer | undefined {
    let best: Timer | undefined;
    for (let i = this._timers.length - 1; i >= 0; i--) {
      const timer = this._timers[i]!;
      if (timer.cancelled) {
        this._timers.splice(i, 1);
        continue;
      }
      if (!best || timer.due < best.due || (timer.due === best.due && timer.seq < best.seq)) best = timer;
    }
    return best;
  }
}
