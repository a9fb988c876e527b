#!/usr/bin/env node
// The merge benchmark: generates a corpus of Codex, Gemini and Claude session files (≥ 500 MB by
// default) in a temporary folder, then measures in one run, on the same files:
//   raw read (1 MiB chunks) · a plain splitter + JSON.parse · `jq -c .` · `rec stats` and
//   `rec merge` on one core (--jobs 1) and on all cores, plus peak memory on a quarter of the
//   corpus and on all of it (it must not grow with the corpus).
// Throughput is corpus MB / wall second; CPU seconds are shown too, because wall time on a shared
// machine depends on its load. The corpus is deleted at the end.
//
//   npx tsc -p tsconfig.json && node scripts/bench-merge.mjs [--mb 520] [--seed 1] [--keep]
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

const { values } = parseArgs({ options: { mb: { type: 'string', default: '520' }, seed: { type: 'string', default: '1' }, keep: { type: 'boolean', default: false } } });

if (!existsSync(join(ROOT, 'dist', 'commands', 'merge.js'))) {
  console.error('bench-merge: build first (npx tsc -p tsconfig.json)');
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), 'rec-merge-corpus-'));
const results = { corpus: null, load_before: loadavg(), cores: availableParallelism(), rows: [] };
try {
  const t0 = Date.now();
  const corpus = generateCorpus(dir, { mb: Number(values.mb), seed: Number(values.seed) });
  const mb = corpus.bytes / 1e6;
  const byAgent = {};
  for (const f of corpus.files) byAgent[f.agent] = (byAgent[f.agent] ?? 0) + f.bytes / 1e6;
  results.corpus = { files: corpus.files.length, mb, by_agent_mb: byAgent, generate_s: (Date.now() - t0) / 1000 };
  console.log(
    `corpus: ${corpus.files.length} session files, ${mb.toFixed(0)} MB (` +
      Object.entries(byAgent).map(([a, m]) => `${a} ${m.toFixed(0)} MB`).join(', ') +
      `), generated in ${results.corpus.generate_s.toFixed(1)} s; ${results.cores} cores, load ${loadavg()[0].toFixed(1)}`,
  );
  const paths = corpus.files.map((f) => f.path);
  const listFile = join(dir, 'files.list');
  writeFileSync(listFile, paths.join('\0'));

  rawRead(paths); // warm the page cache so every row reads from memory
  row('raw read (1 MiB chunks, node)', mb, inProcess(() => rawRead(paths)));
  row('splitter + JSON.parse (node, 1 core)', mb, inProcess(() => splitAndParse(paths)));
  row('jq -c . (1 core)', mb, timed('sh', ['-c', `xargs -0 -n ${JQ_BATCH} ${JQ} -c . < '${listFile}' > /dev/null`]));
  const rec = (args) => timed(process.execPath, [REC, ...args, dir, '--db', join(dir, 'no-sidecar.db'), '--no-progress']);
  row('rec stats --jobs 1', mb, rec(['stats', '--json', '--jobs', '1']));
  row('rec merge --jobs 1 (JSONL to /dev/null)', mb, rec(['merge', '--jobs', '1']));
  row(`rec stats (all ${results.cores} cores)`, mb, rec(['stats', '--json']));
  row(`rec merge (all ${results.cores} cores)`, mb, rec(['merge']));

  const quarter = paths.slice(0, Math.ceil(paths.length / 4));
  const qmb = corpus.files.slice(0, quarter.length).reduce((n, f) => n + f.bytes, 0) / 1e6;
  row('rec merge --jobs 1, first quarter of the files', qmb, timed(process.execPath, [REC, 'merge', '--jobs', '1', '--db', join(dir, 'no-sidecar.db'), '--no-progress', ...quarter]));

  const jq = results.rows.find((r) => r.name.startsWith('jq'));
  console.log('');
  console.log(`${'measure'.padEnd(48)} ${'MB'.padStart(5)} ${'wall s'.padStart(7)} ${'MB/s'.padStart(6)} ${'× jq'.padStart(6)} ${'cpu s'.padStart(6)} ${'MB/cpu s'.padStart(8)} ${'peak MB'.padStart(8)}`);
  for (const r of results.rows) {
    const ratio = jq && r.mb_per_s ? (r.mb_per_s / jq.mb_per_s).toFixed(1) : '';
    console.log(
      `${r.name.padEnd(48)} ${r.mb.toFixed(0).padStart(5)} ${r.wall_s.toFixed(2).padStart(7)} ${r.mb_per_s.toFixed(0).padStart(6)} ${ratio.padStart(6)} ${r.cpu_s.toFixed(2).padStart(6)} ${(r.mb / r.cpu_s).toFixed(0).padStart(8)} ${r.peak_mb === null ? '-'.padStart(8) : r.peak_mb.toFixed(0).padStart(8)}`,
    );
  }
  results.load_after = loadavg();
  console.log(`\nload average before ${results.load_before.map((l) => l.toFixed(1)).join(' ')}, after ${results.load_after.map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`BENCH_MERGE_JSON ${JSON.stringify(results)}`);
} finally {
  if (values.keep) console.log(`corpus kept in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}

function row(name, mb, m) {
  if (m.code !== 0) throw new Error(`${name} failed (exit ${m.code}): ${m.stderr}`);
  results.rows.push({ name, mb, wall_s: m.wall, cpu_s: m.cpu, mb_per_s: mb / m.wall, peak_mb: m.peakKb === null ? null : m.peakKb / 1024 });
  console.log(`  ${name}: ${(mb / m.wall).toFixed(0)} MB/s`);
}

/** Runs a command under /usr/bin/time: wall, user+sys CPU (children included) and peak RSS. */
function timed(cmd, args) {
  const out = join(dir, 'time.out');
  const r = spawnSync(TIME, ['-f', '%e %U %S %M', '-o', out, cmd, ...args], { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 << 20 });
  const [wall, user, sys, kb] = readFileSync(out, 'utf8').trim().split('\n').at(-1).split(' ').map(Number);
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
