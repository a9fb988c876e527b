// @ts-check
// (c) Startup: from spawn until the wrapped program's first output reaches the outer pty, and until
// `rec -- true` has exited, against `node -e 0` (spawn to exit) as the anchor. Every variant runs
// under the same outer pty, round-robin, after one warm-up round that is not counted (disk cache).
import { runOnce } from './runOnce.mjs';
import { fixed, median, percentile, printTable, round, verdict } from './stats.mjs';

/** A start that takes longer than this is a hang. */
export const STARTUP_TIMEOUT_MS = 20_000;
/** Goal of the foundation issue: the agent appears within 1.35× the time of `node -e 0`. */
export const STARTUP_GOAL = 1.35;

const READY = 'READY';

export async function benchStartup(cmds, cfg) {
  const printf = ['printf', READY];
  const variants = [
    { key: 'node', label: 'node -e 0, to exit (anchor)', spec: cmds.node(['-e', '0']) },
    { key: 'bareReady', label: 'printf READY, no wrapper, to READY', spec: cmds.bare(printf), marker: READY },
    { key: 'scriptReady', label: 'script -q -c printf READY, to READY', spec: cmds.script(printf), marker: READY },
    { key: 'recReady', label: 'rec -- printf READY, to READY', spec: cmds.rec(printf), marker: READY },
    { key: 'scriptTrue', label: 'script -q -c true, to exit', spec: cmds.script(['true']) },
    { key: 'recTrue', label: 'rec -- true, to exit', spec: cmds.rec(['true']) },
  ];
  const times = Object.fromEntries(variants.map((v) => [v.key, /** @type {number[]} */ ([])]));
  const recExitAfterReady = [];
  /** A variant that exited non-zero is reported (rec's own failures must show), not hidden. */
  const failures = {};
  for (let run = -1; run < cfg.runs; run++) {
    for (const v of variants) {
      const r = await runOnce(v.spec, { marker: v.marker, timeoutMs: STARTUP_TIMEOUT_MS });
      if (run < 0) continue; // warm-up
      if (r.exitCode !== 0) failures[v.key] = { exitCode: r.exitCode, said: r.recNotes };
      times[v.key].push(v.marker ? r.markerMs : r.exitMs);
      if (v.key === 'recReady') recExitAfterReady.push(r.exitMs);
    }
    if (run >= 0 && (run + 1) % 5 === 0) process.stderr.write(`  startup run ${run + 1}/${cfg.runs}\n`);
  }
  const summary = Object.fromEntries(
    variants.map((v) => [v.key, { label: v.label, medianMs: round(median(times[v.key]), 2), p90Ms: round(percentile(times[v.key], 90), 2), overNode: 0 }]),
  );
  const anchor = summary.node.medianMs;
  // overNode is 0 until here, where every variant gets its ratio.
  for (const s of Object.values(summary)) s.overNode = round(s.medianMs / anchor);
  const readyRatio = summary.recReady.overNode;
  return {
    runs: cfg.runs,
    variants: summary,
    failures,
    recReadyExitMedianMs: round(median(recExitAfterReady), 2),
    recReadyOverNode: readyRatio,
    recTrueOverNode: summary.recTrue.overNode,
    goal: STARTUP_GOAL,
    goalMet: readyRatio <= STARTUP_GOAL,
  };
}

export function printStartup(res) {
  console.log(`\n(c) startup: median of ${res.runs} runs each, round-robin, spawn under the outer pty until the output or the exit`);
  printTable(
    ['variant', 'median ms', 'p90 ms', '÷ node -e 0'],
    Object.values(res.variants).map((v) => [v.label, fixed(v.medianMs, 1), fixed(v.p90Ms, 1), `${fixed(v.overNode)}×`]),
  );
  console.log(`  the agent's first output appears through rec at ${fixed(res.recReadyOverNode)}× node -e 0; goal ≤ ${res.goal}×: ${verdict(res.goalMet)}`);
  for (const [k, f] of Object.entries(res.failures)) console.log(`  ${res.variants[k].label}: exit code ${f.exitCode}; ${f.said.join(' | ')}`);
  console.log(`  rec -- true exits at ${fixed(res.recTrueOverNode)}× node -e 0; rec -- printf READY exits after ${fixed(res.recReadyExitMedianMs, 1)} ms (recording set up and closed)`);
}
