// @ts-check
// (a) Passthrough throughput: the same file of agent-like output `cat` under the outer pty bare,
// through `script -q -c`, and through `rec --`, timed from spawn until the end marker is read.
// Repetitions are interleaved (and rotated) so that load from elsewhere hits every variant alike.
import { END_MARKER, mixedFile } from './mixedFile.mjs';
import { runOnce } from './runOnce.mjs';
import { fixed, median, printTable, round, verdict } from './stats.mjs';

/** Generous: even 2 MB/s moves 200 MB in time; a hang ends the run instead of the bench. */
export const PASSTHROUGH_TIMEOUT_MS = 120_000;

/** Goal of the foundation issue: rec with the screen model on moves ≥ 0.8× script's bytes per second. */
export const THROUGHPUT_GOAL = 0.8;

export async function benchPassthrough(cmds, cfg) {
  const path = await mixedFile(cfg.bytes, cfg.seed);
  const cmd = ['cat', path];
  const variants = [
    { key: 'bare', label: 'cat, no wrapper (ceiling)', spec: cmds.bare(cmd) },
    { key: 'script', label: 'script -q -c cat', spec: cmds.script(cmd) },
    { key: 'rec', label: 'rec -- cat', spec: cmds.rec(cmd) },
  ];
  /** @typedef {Awaited<ReturnType<typeof runOnce>> & { lostBytes?: number, mbPerS: number }} Run */
  const runs = Object.fromEntries(variants.map((v) => [v.key, /** @type {Run[]} */ ([])]));
  for (let rep = 0; rep < cfg.reps; rep++) {
    const order = variants.map((_, i) => variants[(i + rep) % variants.length]);
    for (const v of order) {
      const r = /** @type {Run} */ (await runOnce(v.spec, { marker: END_MARKER, timeoutMs: PASSTHROUGH_TIMEOUT_MS, watchMemory: true }));
      if (r.markerLost) {
        // The tail never arrived: count what was lost, and time the run until exit instead.
        r.lostBytes = Math.max(0, cfg.bytes + END_MARKER.length + 4 - r.bytes);
        r.mbPerS = r.bytes / 1e6 / (r.exitMs / 1000);
      } else {
        // runOnce sets bytesAtMarker whenever it found the marker.
        const atMarker = /** @type {number} */ (r.bytesAtMarker);
        if (atMarker < cfg.bytes) throw new Error(`${v.label}: only ${atMarker} of ${cfg.bytes} bytes arrived`);
        r.mbPerS = atMarker / 1e6 / (r.markerMs / 1000);
      }
      runs[v.key].push(r);
      const lost = r.markerLost ? ` (the output's last ${r.lostBytes} bytes never arrived)` : '';
      process.stderr.write(`  passthrough rep ${rep + 1}/${cfg.reps} ${v.key}: ${fixed(r.mbPerS, 1)} MB/s${lost}\n`);
    }
  }
  const summary = Object.fromEntries(
    variants.map((v) => {
      const rs = runs[v.key];
      return [
        v.key,
        {
          label: v.label,
          mbPerS: round(median(rs.map((r) => r.mbPerS)), 1),
          mbPerSAll: rs.map((r) => round(r.mbPerS, 1)),
          secondsToMarker: round(median(rs.map((r) => (r.markerMs ?? r.exitMs) / 1000))),
          secondsToExit: round(median(rs.map((r) => r.exitMs / 1000))),
          wrapperCpuSeconds: round(median(rs.map((r) => r.cpuAtMarker ?? Number.NaN))),
          wrapperPeakRssMb: round(Math.max(...rs.map((r) => r.hwmKb ?? 0)) / 1024, 1),
          exitCodes: [...new Set(rs.map((r) => r.exitCode))],
          tailLostRuns: rs.filter((r) => r.markerLost).length,
          tailLostBytes: rs.map((r) => r.lostBytes ?? 0),
          recNotes: [...new Set(rs.flatMap((r) => r.recNotes))],
        },
      ];
    }),
  );
  // Paired ratios (same repetition) are less sensitive to slow drifts in machine load.
  const pairedRatios = runs.rec.map((r, i) => round(r.mbPerS / runs.script[i].mbPerS));
  const ratio = summary.rec.mbPerS / summary.script.mbPerS;
  return {
    bytes: cfg.bytes,
    seed: cfg.seed,
    reps: cfg.reps,
    variants: summary,
    recOverScript: round(ratio),
    recOverScriptPaired: pairedRatios,
    recOverBare: round(summary.rec.mbPerS / summary.bare.mbPerS),
    scriptOverBare: round(summary.script.mbPerS / summary.bare.mbPerS),
    goal: THROUGHPUT_GOAL,
    goalMet: ratio >= THROUGHPUT_GOAL,
  };
}

export function printPassthrough(res) {
  console.log(`\n(a) passthrough throughput: ${res.bytes / 1e6} MB of mixed output, median of ${res.reps} (MB = 10^6 bytes)`);
  printTable(
    ['variant', 'MB/s', 'runs MB/s', 's to marker', 's to exit', 'wrapper CPU s', 'wrapper peak RSS MB'],
    Object.values(res.variants).map((v) => [
      v.label,
      fixed(v.mbPerS, 1),
      v.mbPerSAll.map((x) => fixed(x, 0)).join(' '),
      fixed(v.secondsToMarker, 2),
      fixed(v.secondsToExit, 2),
      fixed(v.wrapperCpuSeconds, 2),
      fixed(v.wrapperPeakRssMb, 1),
    ]),
  );
  console.log(`  rec / script = ${fixed(res.recOverScript)}× (paired per repetition: ${res.recOverScriptPaired.map((x) => fixed(x)).join(', ')}); goal ≥ ${res.goal}×: ${verdict(res.goalMet)}`);
  console.log(`  script / bare = ${fixed(res.scriptOverBare)}×, rec / bare = ${fixed(res.recOverBare)}×`);
  for (const v of Object.values(res.variants)) {
    if (v.tailLostRuns) console.log(`  ${v.label}: the end of the output never arrived in ${v.tailLostRuns} of ${res.reps} runs (bytes lost: ${v.tailLostBytes.join(', ')}); those runs are timed to exit`);
  }
  if (res.variants.rec.recNotes.length) console.log(`  rec said: ${res.variants.rec.recNotes.join(' | ')}`);
}
