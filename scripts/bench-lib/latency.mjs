// @ts-check
// (b) Keystroke round trip: an echo program in raw mode under the outer pty, bare, through script
// and through rec; one byte is sent, and the clock stops when it has come back. Rounds are
// interleaved so that load from elsewhere hits every variant alike.
import { performance } from 'node:perf_hooks';
import { PtyProcess } from './ptyProcess.mjs';
import { fixed, median, percentile, printTable, round, verdict } from './stats.mjs';

/** The echo program: raw mode, no echo, a ready marker, then every byte straight back. */
const ECHO = ['sh', '-c', 'stty raw -echo && printf READY && exec cat'];
const READY = 'READY';

/** Each variant runs this many fresh processes, interleaved, sharing the keys between them. */
export const LATENCY_ROUNDS = 4;
/** Keys sent at the start of each round and not counted: the JIT and caches warm up on them. */
export const WARMUP_KEYS = 20;
/**
 * Pause between a key's echo and the next key. People type at most a few keys per 100 ms, so each
 * key finds the wrappers idle and waiting in epoll, the case that matters (back to back, a key would
 * find the event loop already awake). 1 ms keeps 2000 keys per variant within seconds.
 */
export const KEY_GAP_MS = 1;
/** A key that has not come back after this long means the program is stuck, not slow. */
export const KEY_TIMEOUT_MS = 5000;
/** Time for the echo program to start and print its marker (rec loads before its agent starts). */
export const READY_TIMEOUT_MS = 20_000;

/** Goal of the foundation issue: rec adds at most this much to script's p99 round trip. */
export const ADDED_P99_GOAL_MS = 0.5;

const KEYS = Buffer.from('abcdefghijklmnopqrstuvwxyz');

export async function benchLatency(cmds, cfg) {
  const variants = [
    { key: 'bare', label: 'cat, no wrapper', spec: cmds.bare(ECHO) },
    { key: 'script', label: 'script -q -c cat', spec: cmds.script(ECHO) },
    { key: 'rec', label: 'rec -- cat', spec: cmds.rec(ECHO) },
  ];
  const perRound = Math.ceil(cfg.keys / LATENCY_ROUNDS);
  const samples = Object.fromEntries(variants.map((v) => [v.key, /** @type {number[]} */ ([])]));
  for (let round = 0; round < LATENCY_ROUNDS; round++) {
    const order = variants.map((_, i) => variants[(i + round) % variants.length]);
    for (const v of order) {
      samples[v.key].push(...(await measureRound(v.spec, perRound)));
      process.stderr.write(`  latency round ${round + 1}/${LATENCY_ROUNDS} ${v.key}: ${perRound} keys\n`);
    }
  }
  const summary = Object.fromEntries(
    variants.map((v) => {
      const s = samples[v.key];
      return [v.key, { label: v.label, keys: s.length, medianMs: round(median(s), 4), p99Ms: round(percentile(s, 99), 4), maxMs: round(Math.max(...s), 4) }];
    }),
  );
  const addedP99 = summary.rec.p99Ms - summary.script.p99Ms;
  return {
    keysPerVariant: perRound * LATENCY_ROUNDS,
    rounds: LATENCY_ROUNDS,
    keyGapMs: KEY_GAP_MS,
    variants: summary,
    addedMedianMs: round(summary.rec.medianMs - summary.script.medianMs, 4),
    addedP99Ms: round(addedP99, 4),
    scriptAddedP99OverBareMs: round(summary.script.p99Ms - summary.bare.p99Ms, 4),
    goalMs: ADDED_P99_GOAL_MS,
    goalMet: addedP99 <= ADDED_P99_GOAL_MS,
  };
}

async function measureRound(spec, keys) {
  const p = new PtyProcess(spec);
  try {
    await p.waitFor(READY, READY_TIMEOUT_MS);
    const times = await sendKeys(p, WARMUP_KEYS + keys);
    return times.slice(WARMUP_KEYS);
  } finally {
    await p.stop();
  }
}

/** Sends `count` single bytes one at a time; resolves with each one's round trip in ms. */
function sendKeys(p, count) {
  return new Promise((resolve, reject) => {
    const times = [];
    let expected;
    let sentAt = 0;
    let timer;
    const next = () => {
      if (times.length === count) {
        p.onChunk = undefined;
        resolve(times);
        return;
      }
      expected = KEYS[times.length % KEYS.length];
      timer = setTimeout(() => reject(new Error(`key ${times.length} did not come back within ${KEY_TIMEOUT_MS} ms`)), KEY_TIMEOUT_MS);
      sentAt = performance.now();
      p.write(Buffer.from([expected]));
    };
    p.onChunk = (chunk) => {
      if (expected === undefined || !chunk.includes(expected)) return;
      const now = performance.now();
      clearTimeout(timer);
      expected = undefined;
      times.push(now - sentAt);
      setTimeout(next, KEY_GAP_MS);
    };
    next();
  });
}

export function printLatency(res) {
  console.log(`\n(b) keystroke round trip: ${res.keysPerVariant} keys per variant in ${res.rounds} interleaved rounds, ${res.keyGapMs} ms between keys`);
  printTable(
    ['variant', 'median ms', 'p99 ms', 'max ms'],
    Object.values(res.variants).map((v) => [v.label, fixed(v.medianMs, 3), fixed(v.p99Ms, 3), fixed(v.maxMs, 2)]),
  );
  console.log(`  rec adds ${fixed(res.addedMedianMs, 3)} ms at the median and ${fixed(res.addedP99Ms, 3)} ms at p99 over script; goal ≤ ${res.goalMs} ms: ${verdict(res.goalMet)}`);
  console.log(`  (script itself adds ${fixed(res.scriptAddedP99OverBareMs, 3)} ms at p99 over no wrapper)`);
}
