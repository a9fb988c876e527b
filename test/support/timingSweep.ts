// Timing as a test dimension (issue 31): each recording is replayed with its keys sooner than
// recorded and its session file trailing the screen, and must give the same rows at every point.
// The sweep runs on the virtual clock, so it costs CPU, not waiting; scripts/test-node-lines turns
// it off (REC_TIMING_SWEEP=0) on the other Node lines, where it would test the same code again.

/** Every key this long after the screen it answers was drawn whole (0: at that very frame). */
export const KEY_DELAYS_MS = [0, 50, 150, 500] as const;
/**
 * Sooner still: where the agent wrote the screen a key answers in pieces (one write split by the
 * pty), the key comes after the first piece, while the prompt is drawn only in part.
 */
export const WHILE_DRAWING = 'while drawing' as const;
/**
 * The agent's file written this much later than recorded: 400 ms is two of the recorder's polls
 * (SESSION_POLL_MS) behind the screen, 1500 ms more than a scan (SESSION_SCAN_MS) behind.
 */
export const FILE_LAGS_MS = [0, 400, 1_500] as const;

export interface TimingPoint {
  readonly keyDelayMs: number | typeof WHILE_DRAWING;
  readonly lagMs: number;
}

/** Whether this run sweeps (off only where REC_TIMING_SWEEP=0). */
export const TIMING_SWEEP = process.env.REC_TIMING_SWEEP !== '0';

/** Every key delay with every lag; none where the sweep is off. */
export const TIMING_POINTS: readonly TimingPoint[] = TIMING_SWEEP ? [WHILE_DRAWING, ...KEY_DELAYS_MS].flatMap((keyDelayMs: TimingPoint['keyDelayMs']) => FILE_LAGS_MS.map((lagMs) => ({ keyDelayMs, lagMs }))) : [];

/** How a point reads in a test's name. */
export function timingLabel(p: TimingPoint, file: string): string {
  const keys = p.keyDelayMs === WHILE_DRAWING ? 'every key while its screen is drawn' : `every key ${p.keyDelayMs} ms after its screen`;
  return `${keys}, ${file} ${p.lagMs} ms late`;
}

/** A point as a replay's options (AgentReplayOptions). */
export function timingOptions(p: TimingPoint): { readonly fileLagMs: number; readonly keyDelayMs: number; readonly keysWhileDrawing?: true } {
  return p.keyDelayMs === WHILE_DRAWING ? { fileLagMs: p.lagMs, keyDelayMs: 0, keysWhileDrawing: true } : { fileLagMs: p.lagMs, keyDelayMs: p.keyDelayMs };
}
