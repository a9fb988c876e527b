// V8 tuning for the batch commands (merge, stats), applied at run time: the launcher's command
// line stays free of V8 flags, which Node rejects outright when a V8 no longer knows them.
import { setFlagsFromString } from 'node:v8';

/**
 * TurboFan's budget for inlining into one function, in bytecode bytes (V8's default is 920).
 * The readers' large `finish` methods, inlined into their callers, were compiled and, as files of
 * the three agents alternate, deoptimised and compiled again, and on one core compiler time is
 * time taken from the reading. 200 halves the compiler time with no slower code (docs/merge.md,
 * "Why the code is shaped this way").
 */
export const BATCH_INLINE_BUDGET_BYTES = 200;

/** V8 majors where the flag is known to exist (Node 20: 11.3; Node 22: 12.4; Node 24: 13.6; Node 26: 14.6). */
const KNOWN_V8_MAJORS = { min: 10, max: 14 };

let applied = false;

/** Applies the batch tuning once per process; returns whether it applied (false on unknown V8s). */
export function tuneV8ForBatch(v8Version: string = process.versions.v8): boolean {
  const major = Number.parseInt(v8Version, 10);
  // An unknown flag is not an error to V8, but it prints one on stderr: stay within known versions.
  if (!(major >= KNOWN_V8_MAJORS.min && major <= KNOWN_V8_MAJORS.max)) return false;
  if (applied) return true;
  setFlagsFromString(`--max-inlined-bytecode-size-cumulative=${BATCH_INLINE_BUDGET_BYTES}`);
  applied = true;
  return true;
}
