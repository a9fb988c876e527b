// The one bounded poll of the test suites (after node-pty's pollUntil): checks `probe` every
// `intervalMs` until it returns a value other than undefined, and throws after `timeoutMs` with
// what was awaited and the last thing seen. For state another process changes (files, rows, /proc),
// never as a sleep.
export interface PollOptions<T> {
  /** What is awaited, for the error ("the rollout file", "rows of SELECT …"). */
  readonly what: string;
  readonly timeoutMs: number;
  readonly intervalMs?: number;
  /** Describes the last probe result for the error (default: nothing). */
  readonly last?: () => string;
  /** Resolve undefined at the deadline instead of throwing (for "wait at most this long, then act"). */
  readonly orUndefined?: boolean;
}

const DEFAULT_INTERVAL_MS = 20;

export async function pollUntil<T>(probe: () => T | undefined, opts: PollOptions<T>): Promise<T | undefined> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      if (opts.orUndefined) return undefined;
      const last = opts.last?.();
      throw new Error(`timeout after ${opts.timeoutMs} ms waiting for ${opts.what}${last ? `; last seen: ${last}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? DEFAULT_INTERVAL_MS));
  }
}

/** pollUntil for a value that must come: never undefined. */
export async function waitUntil<T>(probe: () => T | undefined, opts: Omit<PollOptions<T>, 'orUndefined'>): Promise<T> {
  return (await pollUntil(probe, opts)) as T;
}
