// Places the lines of an agent's session file (each stamped by the agent with its own wall clock)
// on the clock of a cast recorded at the same time on the same machine. The cast's own start time is
// not kept precisely (asciicast stores whole seconds), so the offset between the clocks is estimated
// from an anchor the agent shows on both sides (e.g. Codex's turn start), then corrected by
// causality: a line the agent wrote because of a key (a decision, an interrupt, a message sent)
// must come after that key. Timestamps are taken when the agent creates a record, which may be
// some tens of milliseconds before its writer flushes it, so the estimate alone can put a record
// just ahead of the key that caused it; the correction moves the whole file later until none is.

/** A session file line with the time the agent stamped on it. */
export interface StampedLine {
  readonly text: string;
  /** Milliseconds since the epoch. */
  readonly ts: number;
  /** True for records the agent writes only because of a key the user pressed. */
  readonly causedByKey: boolean;
}

export interface Alignment {
  /** Epoch milliseconds of the cast's t = 0. */
  readonly startMs: number;
  readonly lines: ReadonlyArray<{ readonly at: number; readonly text: string }>;
}

/**
 * How far from its stamped time a key-caused record may be attributed to a key: the skew measured
 * on the Codex 0.169.0 recordings is under 60 ms, and the scripted keys that have consequences are
 * at least KEY_SETTLE_MS (300 ms) apart.
 */
export const CAUSE_WINDOW_MS = 100;
/** A record caused by a key is placed at least this long after it. */
export const AFTER_KEY_MS = 1;

/**
 * `estimateStartMs`: the cast's t = 0 as the anchor tells it. `keyTimes`: the cast times (s) of the
 * keys sent. Each key-caused line is attributed to the latest key at or before its time plus
 * CAUSE_WINDOW_MS; the start moves earlier until every such line is at least AFTER_KEY_MS after
 * its key.
 */
export function alignToCast(lines: readonly StampedLine[], keyTimes: readonly number[], estimateStartMs: number): Alignment {
  const keys = [...keyTimes].sort((a, b) => a - b).map((t) => t * 1000);
  let startMs = estimateStartMs;
  // Moving the start earlier moves every line later, so a line may then be attributed to a later
  // key: repeat until nothing moves (at most once per key).
  for (let round = 0; round <= keys.length; round++) {
    let latest = startMs;
    for (const line of lines) {
      if (!line.causedByKey) continue;
      const at = line.ts - startMs;
      const key = keys.filter((k) => k <= at + CAUSE_WINDOW_MS).at(-1);
      if (key !== undefined && at < key + AFTER_KEY_MS) latest = Math.min(latest, line.ts - key - AFTER_KEY_MS);
    }
    if (latest === startMs) break;
    startMs = latest;
  }
  return { startMs, lines: lines.map((l) => ({ at: (l.ts - startMs) / 1000, text: l.text })) };
}
