// @ts-check
// (d) Peak memory: rec's RSS high-water mark (VmHWM) during a small run and during the large
// passthrough run, with bare node as the floor every Node program starts from.
import { END_MARKER, mixedFile } from './mixedFile.mjs';
import { PASSTHROUGH_TIMEOUT_MS } from './passthrough.mjs';
import { runOnce } from './runOnce.mjs';
import { fixed, printTable, round, verdict } from './stats.mjs';

/** Goal of the foundation issue: rec's peak RSS, whatever the output volume. */
export const PEAK_RSS_GOAL_MB = 75;
/** The small run: about what an agent prints in a short session. */
export const SMALL_RUN_BYTES = 1_000_000;
/** Small runs are quick; the worst of a few is reported. */
const SMALL_RUNS = 3;
/** Long enough for the poller to see bare node's peak (it is reached within its first 50 ms). */
const NODE_IDLE_MS = 300;

/** @param passthrough the passthrough section's result from this invocation, if it ran */
export async function benchMemory(cmds, cfg, passthrough) {
  const small = await mixedFile(SMALL_RUN_BYTES, cfg.seed);
  const opts = { marker: END_MARKER, timeoutMs: PASSTHROUGH_TIMEOUT_MS, watchMemory: true };
  const nodeRun = await runOnce(cmds.node(['-e', `setTimeout(() => {}, ${NODE_IDLE_MS})`]), { timeoutMs: PASSTHROUGH_TIMEOUT_MS, watchMemory: true });
  const smallRuns = [];
  for (let i = 0; i < SMALL_RUNS; i++) smallRuns.push(await runOnce(cmds.rec(['cat', small]), opts));
  let largeMb = passthrough?.variants.rec.wrapperPeakRssMb;
  let largeSource = 'the passthrough runs above (max)';
  if (largeMb === undefined) {
    const big = await mixedFile(cfg.bytes, cfg.seed);
    const r = await runOnce(cmds.rec(['cat', big]), opts);
    largeMb = round(r.hwmKb / 1024, 1);
    largeSource = 'one run';
  }
  const smallMb = round(Math.max(...smallRuns.map((r) => r.hwmKb)) / 1024, 1);
  const worst = Math.max(smallMb, largeMb);
  return {
    nodeIdleMb: round(nodeRun.hwmKb / 1024, 1),
    small: { bytes: SMALL_RUN_BYTES, peakRssMb: smallMb, runs: SMALL_RUNS },
    large: { bytes: cfg.bytes, peakRssMb: largeMb, source: largeSource },
    goalMb: PEAK_RSS_GOAL_MB,
    goalMet: worst <= PEAK_RSS_GOAL_MB,
  };
}

export function printMemory(res) {
  console.log('\n(d) peak memory: VmHWM of the rec process, polled until it exits');
  printTable(
    ['run', 'peak RSS MB'],
    [
      [`node, idle ${NODE_IDLE_MS} ms (floor)`, fixed(res.nodeIdleMb, 1)],
      [`rec -- cat, ${res.small.bytes / 1e6} MB (worst of ${res.small.runs})`, fixed(res.small.peakRssMb, 1)],
      [`rec -- cat, ${res.large.bytes / 1e6} MB (${res.large.source})`, fixed(res.large.peakRssMb, 1)],
    ],
  );
  console.log(`  goal ≤ ${res.goalMb} MB whatever the volume: ${verdict(res.goalMet)}`);
}
