#!/usr/bin/env node
// @ts-check
// The merge benchmark: generates a corpus of Codex, Gemini and Claude session files (≥ 500 MB by
// default) in a temporary folder, then measures in one run, on the same files:
//   raw read (1 MiB chunks) · a plain splitter + JSON.parse · `jq -c .` · `rec stats` and
//   `rec merge` on one core (--jobs 1) and on all cores, plus peak memory on a quarter of the
//   corpus and on all of it (it must not grow with the corpus).
// Throughput is corpus MB / wall second; CPU seconds are shown too, because wall time on a shared
// machine depends on its load. Each measure is repeated (--reps, in rounds, so that a change of
// load hits every row alike) and the median is shown; "× jq" is the median of the per-round
// ratios. The one-core rows (jq, --jobs 1) run pinned to CPU 0 with taskset when it exists, so
// that V8's helper threads cannot borrow the second core. The corpus is deleted at the end.
//
//   npx tsc -p tsconfig.json && node scripts/bench-merge.mjs [--mb 520] [--seed 1] [--reps 3] [--keep]
//                                 [--baseline DIR] [--quick] [--non-ascii SHARE]
// --baseline DIR also runs `rec stats`/`rec merge --jobs 1` of another checkout (built, e.g. a
// `git worktree` of an older commit) in the same rounds, and reports the speed ratio of each
// round: on a machine whose speed drifts, that is the figure to decide a change on.
// --quick runs only jq and the one-core rows. --non-ascii 0.4 puts typographic characters in 40 %
// of the generated texts, as many as the real samples have (the default corpus is all ASCII).
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateCorpus } from './gen-corpus.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const REC = join(ROOT, 'bin', 'rec.js');
const JQ = '/usr/bin/jq';
const TIME = '/usr/bin/time';
/** Files per jq invocation: keeps argv far below ARG_MAX. */
const JQ_BATCH = 200;

const TASKSET = '/usr/bin/taskset';

const { values } = parseArgs({
  options: {
    mb: { type: 'string', default: '520' },
    seed: { type: 'string', default: '1' },
    reps: { type: 'string', default: '3' },
    keep: { type: 'boolean', default: false },
    baseline: { type: 'string' },
    quick: { type: 'boolean', default: false },
    'non-ascii': { type: 'string', default: '0' },
  },
});
const NON_ASCII = Number(values['non-ascii']);
if (!(NON_ASCII >= 0 && NON_ASCII <= 1)) {
  console.error(`bench-merge: --non-ascii takes a share from 0 to 1, not "${values['non-ascii']}"`);
  process.exit(2);
}
const BASELINE = values.baseline ? join(values.baseline, 'bin', 'rec.js') : null;
if (values.baseline && !existsSync(join(values.baseline, 'dist', 'commands', 'merge.js'))) {
  console.error(`bench-merge: --baseline ${values.baseline}: no built rec there (run npx tsc -p tsconfig.json in it)`);
  process.exit(2);
}
const REPS = Math.max(1, Number(values.reps) || 1);
/** Runs a one-core measure on CPU 0 only. */
const pin = (cmd, args) => (existsSync(TASKSET) ? [TASKSET, ['-c', '0', cmd, ...args]] : [cmd, args]);

if (!existsSync(join(ROOT, 'dist', 'commands', 'merge.js'))) {
  console.error('bench-merge: build first (npx tsc -p tsconfig.json)');
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), 'rec-merge-corpus-'));
/**
 * @typedef {{ files: number, mb: number, by_agent_mb: Record<string, number>, non_ascii: number, generate_s: number }} Corpus
 * @typedef {{ name: string, mb: number, wall_s: number, cpu_s: number, mb_per_s: number, x_jq: number, peak_mb: number | null, walls: number[], cpus: number[] }} Row
 * @typedef {{ code: number | null, stderr?: string, wall: number, cpu: number, peakKb: number | null }} Timing
 */
/** @type {{ corpus: Corpus | null, load_before: number[], cores: number, rows: Row[], vs_baseline?: Array<{ name: string, speedup: number }>, load_after?: number[] }} */
const results = { corpus: null, load_before: loadavg(), cores: availableParallelism(), rows: [] };
try {
  const t0 = Date.now();
  const corpus = generateCorpus(dir, { mb: Number(values.mb), seed: Number(values.seed), nonAscii: NON_ASCII });
  const mb = corpus.bytes / 1e6;
  /** @type {Record<string, number>} */
  const byAgent = {};
  for (const f of corpus.files) byAgent[f.agent] = (byAgent[f.agent] ?? 0) + f.bytes / 1e6;
  const corpusRow = { files: corpus.files.length, mb, by_agent_mb: byAgent, non_ascii: NON_ASCII, generate_s: (Date.now() - t0) / 1000 };
  results.corpus = corpusRow;
  console.log(
    `corpus: ${corpus.files.length} session files, ${mb.toFixed(0)} MB (` +
      Object.entries(byAgent).map(([a, m]) => `${a} ${m.toFixed(0)} MB`).join(', ') +
      `)${NON_ASCII > 0 ? `, non-ASCII characters in ${Math.round(NON_ASCII * 100)} % of texts` : ''}, generated in ${corpusRow.generate_s.toFixed(1)} s; ${results.cores} cores, load ${loadavg()[0].toFixed(1)}`,
  );
  const paths = corpus.files.map((f) => f.path);
  const listFile = join(dir, 'files.list');
  writeFileSync(listFile, paths.join('\0'));

  rawRead(paths); // warm the page cache so every row reads from memory
  const db = join(dir, 'no-sidecar.db');
  // rec runs through its launcher, as users run it: merge and stats start as one Node process with
  // Node's default flags (the passthrough's 1 MB young generation is for agent runs only).
  const recAt = (bin) => (args, files = [dir]) => [bin, [...args, ...files, '--db', db, '--no-progress']];
  const rec = recAt(REC);
  const quarter = paths.slice(0, Math.ceil(paths.length / 4));
  const qmb = corpus.files.slice(0, quarter.length).reduce((n, f) => n + f.bytes, 0) / 1e6;
  const base = BASELINE ? recAt(BASELINE) : null;
  const allMeasures = [
    { name: 'raw read (1 MiB chunks, node)', mb, run: () => inProcess(() => rawRead(paths)) },
    { name: 'splitter + JSON.parse (node, 1 core)', mb, run: () => inProcess(() => splitAndParse(paths)) },
    { name: 'jq -c . (1 core)', mb, jq: true, oneCore: true, run: () => timed(...pin('sh', ['-c', `xargs -0 -n ${JQ_BATCH} ${JQ} -c . < '${listFile}' > /dev/null`])) },
    { name: 'rec stats --jobs 1 (1 core)', mb, oneCore: true, run: () => timed(...pin(...rec(['stats', '--json', '--jobs', '1']))) },
    ...(base ? [{ name: 'baseline rec stats --jobs 1 (1 core)', mb, oneCore: true, baselineOf: 'rec stats --jobs 1 (1 core)', run: () => timed(...pin(...base(['stats', '--json', '--jobs', '1']))) }] : []),
    { name: 'rec merge --jobs 1 (1 core, JSONL)', mb, oneCore: true, run: () => timed(...pin(...rec(['merge', '--jobs', '1']))) },
    ...(base ? [{ name: 'baseline rec merge --jobs 1 (1 core)', mb, oneCore: true, baselineOf: 'rec merge --jobs 1 (1 core, JSONL)', run: () => timed(...pin(...base(['merge', '--jobs', '1']))) }] : []),
    { name: `rec stats --jobs ${results.cores} (workers)`, mb, run: () => timed(...rec(['stats', '--json', '--jobs', String(results.cores)])) },
    { name: `rec merge --jobs ${results.cores} (workers, JSONL)`, mb, run: () => timed(...rec(['merge', '--jobs', String(results.cores)])) },
    { name: 'rec merge --jobs 1, first quarter of the files', mb: qmb, run: () => timed(...pin(...rec(['merge', '--jobs', '1'], quarter))) },
    { name: `rec merge --jobs ${results.cores}, first quarter`, mb: qmb, run: () => timed(...rec(['merge', '--jobs', String(results.cores)], quarter)) },
  ];
  const measures = values.quick ? allMeasures.filter((m) => m.oneCore) : allMeasures;
  const runs = measures.map(() => /** @type {Timing[]} */ ([]));
  for (let rep = 0; rep < REPS; rep++) {
    console.log(`round ${rep + 1} of ${REPS} (load ${loadavg()[0].toFixed(1)})`);
    measures.forEach((m, i) => {
      const r = m.run();
      if (r.code !== 0) throw new Error(`${m.name} failed (exit ${r.code}): ${r.stderr}`);
      runs[i].push(r);
      console.log(`  ${m.name}: ${(m.mb / r.wall).toFixed(0)} MB/s`);
    });
  }
  const jqIndex = measures.findIndex((m) => m.jq);
  measures.forEach((m, i) => {
    const wall = median(runs[i].map((r) => r.wall));
    // Throughput ratio: rows on a quarter of the corpus are compared per MB too.
    const ratios = runs[i].map((r, k) => m.mb / r.wall / (measures[jqIndex].mb / runs[jqIndex][k].wall));
    const peaks = runs[i].map((r) => r.peakKb).filter((k) => k !== null);
    results.rows.push({
      name: m.name,
      mb: m.mb,
      wall_s: wall,
      cpu_s: median(runs[i].map((r) => r.cpu)),
      mb_per_s: m.mb / wall,
      x_jq: median(ratios),
      peak_mb: peaks.length ? Math.max(...peaks) / 1024 : null,
      walls: runs[i].map((r) => r.wall),
      cpus: runs[i].map((r) => r.cpu),
    });
  });

  console.log('');
  console.log(`${'measure'.padEnd(48)} ${'MB'.padStart(5)} ${'wall s'.padStart(7)} ${'MB/s'.padStart(6)} ${'× jq'.padStart(6)} ${'cpu s'.padStart(6)} ${'MB/cpu s'.padStart(8)} ${'peak MB'.padStart(8)}  (median of ${REPS}; peak: the highest)`);
  for (const r of results.rows) {
    const ratio = r.x_jq.toFixed(1);
    console.log(
      `${r.name.padEnd(48)} ${r.mb.toFixed(0).padStart(5)} ${r.wall_s.toFixed(2).padStart(7)} ${r.mb_per_s.toFixed(0).padStart(6)} ${ratio.padStart(6)} ${r.cpu_s.toFixed(2).padStart(6)} ${(r.mb / r.cpu_s).toFixed(0).padStart(8)} ${r.peak_mb === null ? '-'.padStart(8) : r.peak_mb.toFixed(0).padStart(8)}`,
    );
  }
  // Against the baseline: the median of the per-round ratios of CPU seconds (baseline / this).
  /** @type {Array<{ name: string, speedup: number }>} */
  const vsBaseline = [];
  results.vs_baseline = vsBaseline;
  measures.forEach((m, i) => {
    if (!m.baselineOf) return;
    const j = measures.findIndex((x) => x.name === m.baselineOf);
    const speedup = median(runs[i].map((r, k) => r.cpu / runs[j][k].cpu));
    vsBaseline.push({ name: m.baselineOf, speedup });
    console.log(`${m.baselineOf}: ${speedup.toFixed(2)}× the baseline's speed (CPU s per round: this ${runs[j].map((r) => r.cpu.toFixed(2)).join(', ')}; baseline ${runs[i].map((r) => r.cpu.toFixed(2)).join(', ')})`);
  });
  const loadAfter = loadavg();
  results.load_after = loadAfter;
  console.log(`\nload average before ${results.load_before.map((l) => l.toFixed(1)).join(' ')}, after ${loadAfter.map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`BENCH_MERGE_JSON ${JSON.stringify(results)}`);
} finally {
  if (values.keep) console.log(`corpus kept in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Runs a command under /usr/bin/time: wall, user+sys CPU (children included) and peak RSS. */
function timed(cmd, args) {
  const out = join(dir, 'time.out');
  const r = spawnSync(TIME, ['-f', '%e %U %S %M', '-o', out, cmd, ...args], { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 << 20 });
  const [wall, user, sys, kb] = /** @type {string} */ (readFileSync(out, 'utf8').trim().split('\n').at(-1)).split(' ').map(Number);
  return { code: r.status, stderr: r.stderr.toString().slice(-2000), wall, cpu: user + sys, peakKb: kb };
}

function inProcess(fn) {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  fn();
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const c = process.cpuUsage(c0);
  return { code: 0, wall, cpu: (c.user + c.system) / 1e6, peakKb: null };
}

function rawRead(paths) {
  const buf = Buffer.allocUnsafe(1 << 20);
  let n = 0;
  for (const p of paths) {
    const fd = openSync(p, 'r');
    for (let r; (r = readSync(fd, buf, 0, buf.length, null)) > 0; ) n += r;
    closeSync(fd);
  }
  return n;
}

/** The reference from the issue: a plain chunk splitter and JSON.parse, nothing else. */
function splitAndParse(paths) {
  let buf = Buffer.allocUnsafe(1 << 20);
  for (const p of paths) {
    const fd = openSync(p, 'r');
    let carry = 0;
    for (;;) {
      if (carry === buf.length) {
        const b = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(b, 0, 0, carry);
        buf = b;
      }
      const r = readSync(fd, buf, carry, buf.length - carry, null);
      if (r === 0) break;
      const view = buf.subarray(0, carry + r);
      let start = 0;
      for (let nl = view.indexOf(10, carry); nl !== -1; nl = view.indexOf(10, start)) {
        JSON.parse(view.toString('utf8', start, nl));
        start = nl + 1;
      }
      carry = view.length - start;
      if (carry > 0 && start > 0) buf.copy(buf, 0, start, view.length);
    }
    closeSync(fd);
  }
}
