#!/usr/bin/env node
// @ts-check
// What the hand-written WebSocket client (src/hooks/hookClient.ts) saves each hook call over the
// `ws` package's client. Every variant is a fresh Node process, as each agent hook is, timed from
// spawn to exit, against `node -e 0` in the same round as the anchor; rounds are interleaved and
// each starts at the next variant, so load from other work hits every variant alike:
//   - an empty ES module, and one that only imports `ws`: the import's cost alone;
//   - one message sent and acked by a real hook server on 127.0.0.1 (with the run's token), through
//     the hand-written client and through the ws one (scripts/bench-lib/wsHookClient.mjs);
//   - the whole `node bin/rec.js hook codex PreToolUse`, as agents run it, in two copies of dist/
//     that differ only in dist/hooks/hookClient.js.
// The differences are also taken within each round (ws minus hand-written), which cancels most of
// the load that moves whole rounds. docs/benchmarks.md#the-hook-client has the figures.
//
// With --cpu, each run is followed by the same under `perf stat -e task-clock`: the CPU time of the
// process and its threads, which the load on a shared machine moves much less than wall time.
//
//   npx tsc -p tsconfig.json && node scripts/bench-hook-client.mjs [--runs N] [--cpu]   (default 60 runs, minimum 20)
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { fixed, median, percentile, printTable } from './bench-lib/stats.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = 'usage: node scripts/bench-hook-client.mjs [--runs N] [--cpu]   (build first: npx tsc -p tsconfig.json)';
const { values: opts } = parseArgs({ options: { runs: { type: 'string', default: '60' }, cpu: { type: 'boolean', default: false } } });
const RUNS = Math.max(20, Number(opts.runs));
/** Also the CPU time of each variant, from `perf stat` (Linux perf must be installed and allowed). */
const CPU = opts.cpu === true;
if (!Number.isFinite(RUNS)) {
  console.error(`bench-hook-client: --runs needs a number\n${USAGE}`);
  process.exit(2);
}
for (const f of ['dist/hooks/hookServer.js', 'dist/hooks/hookClient.js', 'dist/commands/hook.js', 'dist/cli.js']) {
  if (!existsSync(join(ROOT, f))) {
    console.error(`bench-hook-client: ${f} is missing\n${USAGE}`);
    process.exit(1);
  }
}

/** A real Codex PreToolUse payload, as scripts/bench-hooks.mjs sends. */
const PAYLOAD = readFileSync(join(ROOT, 'test/fixtures/hooks/codex-pre-tool-use.json'), 'utf8');
/** Generous: a failed exchange is reported, not timed. */
const SEND_TIMEOUT_MS = 5_000;

const scratch = mkdtempSync(join(tmpdir(), 'rec-bench-hook-client-'));
try {
  await main();
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

async function main() {
  const hand = makeTree('hand', undefined);
  const ws = makeTree('ws', join(ROOT, 'scripts/bench-lib/wsHookClient.mjs'));
  const { startHookServer } = await import(pathToFileURL(join(ROOT, 'dist/hooks/hookServer.js')).href);
  let received = 0;
  const server = await startHookServer({ onMessage: () => received++ });
  /** @type {NodeJS.ProcessEnv} */
  const env = { ...process.env, REC_HOOK_URL: server.url, REC_HOOK_TOKEN: server.token };
  delete env.REC_DEBUG;

  const node = process.execPath;
  const variants = [
    { key: 'node', label: 'node -e 0 (anchor)', argv: [node, '-e', '0'], sends: false },
    { key: 'esm', label: 'an empty ES module', argv: [node, program('empty.mjs', '')], sends: false },
    { key: 'importWs', label: "an ES module importing 'ws', nothing else", argv: [node, program('import-ws.mjs', `import '${wsEntry(ws)}';\n`)], sends: false },
    { key: 'sendHand', label: 'send one message, hand-written client', argv: [node, sender('send-hand.mjs', hand)], sends: true },
    { key: 'sendWs', label: 'send one message, ws client', argv: [node, sender('send-ws.mjs', ws)], sends: true },
    { key: 'hookHand', label: 'rec hook codex PreToolUse, hand-written client', argv: [node, join(hand, 'bin/rec.js'), 'hook', 'codex', 'PreToolUse'], sends: true },
    { key: 'hookWs', label: 'rec hook codex PreToolUse, ws client', argv: [node, join(ws, 'bin/rec.js'), 'hook', 'codex', 'PreToolUse'], sends: true },
  ];

  const loadBefore = loadavg();
  const { wall, cpu, sent } = await runRounds(variants, env);
  await server.close();
  const loadAfter = loadavg();

  console.log(`hook client start-up, ${RUNS} interleaved rounds (node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.trim()}, ${new Date().toISOString()})`);
  console.log(`load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} before, ${loadAfter.map((l) => l.toFixed(2)).join(' ')} after`);
  console.log('\nwall time, spawn to exit:');
  report(variants, wall);
  if (cpu !== undefined) {
    console.log('\nCPU time of the process, all its threads (perf stat task-clock, separate runs in the same rounds):');
    report(variants, cpu);
  }
  console.log(`\nmessages delivered and acked: ${received} of ${sent}; server stats: ${JSON.stringify(server.stats)}`);
  if (received !== sent) process.exitCode = 1;
}

/**
 * RUNS rounds of every variant, each round starting at the next one; with --cpu, each run is
 * followed by one under perf stat.
 * @param {{key: string, label: string, argv: string[], sends: boolean}[]} variants
 * @param {NodeJS.ProcessEnv} env
 */
async function runRounds(variants, env) {
  /** @type {Record<string, number[]>} */
  const wall = Object.fromEntries(variants.map((v) => [v.key, []]));
  /** @type {Record<string, number[]>} */
  const cpu = Object.fromEntries(variants.map((v) => [v.key, []]));
  const perfOut = join(scratch, 'perf.txt');
  const underPerf = (argv) => ['perf', 'stat', '-x,', '-e', 'task-clock', '-o', perfOut, '--', ...argv];
  let sent = 0;
  // Round -1 warms the disk cache and is not counted.
  for (let round = -1; round < RUNS; round++) {
    for (let i = 0; i < variants.length; i++) {
      const v = variants[(i + Math.max(round, 0)) % variants.length];
      const ms = await once(v.argv, env, v.label);
      if (round >= 0) wall[v.key].push(ms);
      if (CPU) {
        await once(underPerf(v.argv), env, v.label);
        if (round >= 0) cpu[v.key].push(taskClockMs(readFileSync(perfOut, 'utf8')));
      }
      if (v.sends) sent += CPU ? 2 : 1;
    }
    if (round >= 0 && (round + 1) % 10 === 0) process.stderr.write(`  round ${round + 1}/${RUNS}\n`);
  }
  return { wall, cpu: CPU ? cpu : undefined, sent };
}

/** perf stat -x, writes `130.69,msec,task-clock,…`. */
function taskClockMs(text) {
  const line = text.split('\n').find((l) => l.includes(',task-clock,'));
  if (line === undefined) throw new Error(`no task-clock in perf stat's output: ${text}`);
  return Number(line.split(',')[0]);
}

/**
 * One table of medians against the anchor, then the per-round differences that answer the question.
 * @param {{key: string, label: string}[]} variants
 * @param {Record<string, number[]>} t
 */
function report(variants, t) {
  const anchor = median(t.node);
  printTable(
    ['variant', 'median ms', 'p25–p75 ms', 'p90 ms', '÷ node -e 0'],
    variants.map((v) => {
      const x = t[v.key];
      return [v.label, fixed(median(x), 1), `${fixed(percentile(x, 25), 1)}–${fixed(percentile(x, 75), 1)}`, fixed(percentile(x, 90), 1), `${fixed(median(x) / anchor)}×`];
    }),
  );
  const hookTotal = median(t.hookHand);
  console.log('  within each round: the median of the differences (p25–p75), and that median as a share of rec hook with the hand-written client');
  printTable(
    ['difference', 'median ms', 'p25–p75 ms', '% of rec hook'],
    [
      ['import ws − empty module', ...paired(t.importWs, t.esm, hookTotal)],
      ['send: ws − hand-written', ...paired(t.sendWs, t.sendHand, hookTotal)],
      ['rec hook: ws − hand-written', ...paired(t.hookWs, t.hookHand, hookTotal)],
    ],
  );
}

/**
 * A copy of bin/rec.js and dist/ (no source maps) under the scratch folder, with node_modules
 * linked, so that both trees resolve alike; `client` replaces dist/hooks/hookClient.js.
 * @param {string} name
 * @param {string | undefined} client
 */
function makeTree(name, client) {
  const tree = join(scratch, name);
  mkdirSync(join(tree, 'bin'), { recursive: true });
  copyFileSync(join(ROOT, 'bin/rec.js'), join(tree, 'bin/rec.js'));
  cpSync(join(ROOT, 'dist'), join(tree, 'dist'), { recursive: true, filter: (src) => !src.endsWith('.map') });
  if (client !== undefined) copyFileSync(client, join(tree, 'dist/hooks/hookClient.js'));
  writeFileSync(join(tree, 'package.json'), '{ "type": "module" }\n');
  symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'));
  return tree;
}

/** The file URL `import 'ws'` resolves to from inside a tree (ws's ESM wrapper). */
function wsEntry(tree) {
  return pathToFileURL(join(tree, 'node_modules/ws/wrapper.mjs')).href;
}

/** @param {string} name @param {string} text */
function program(name, text) {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

/** A program that sends one HookMessage, as `rec hook` builds it, and exits 1 unless acked. */
function sender(name, tree) {
  const client = pathToFileURL(join(tree, 'dist/hooks/hookClient.js')).href;
  return program(
    name,
    `import { sendHookMessage } from '${client}';
const body = JSON.stringify({ agent: 'codex', event: 'PreToolUse', payload: ${PAYLOAD.trim()}, sent_at: new Date().toISOString() });
const result = await sendHookMessage({ url: process.env.REC_HOOK_URL, token: process.env.REC_HOOK_TOKEN, body, timeoutMs: ${SEND_TIMEOUT_MS} });
if (!result.ok) {
  process.stderr.write('not acked: ' + result.reason + '\\n');
  process.exitCode = 1;
}
`,
  );
}

/**
 * One spawn, the payload on stdin, until exit; resolves with the wall time in ms.
 * @param {string[]} argv @param {NodeJS.ProcessEnv} env @param {string} label
 * @returns {Promise<number>}
 */
function once(argv, env, label) {
  return new Promise((resolveRun, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(argv[0], argv.slice(1), { env, stdio: ['pipe', 'ignore', 'pipe'] });
    /** @type {Buffer[]} */
    const err = [];
    child.stderr.on('data', (d) => err.push(d));
    child.stdin.on('error', () => undefined); // EPIPE: most variants never read their stdin.
    child.once('error', reject);
    let ms = 0;
    child.once('exit', () => (ms = Number(process.hrtime.bigint() - t0) / 1e6));
    // 'close' comes after 'exit', once stderr is read to its end.
    child.once('close', (code) => {
      if (code !== 0) reject(new Error(`${label} exited ${code}: ${Buffer.concat(err).toString('utf8').trim()}`));
      else resolveRun(ms);
    });
    child.stdin.end(PAYLOAD);
  });
}

/**
 * The per-round differences a − b: median and p25–p75 in ms, and the median as a share of `total`.
 * @param {number[]} a @param {number[]} b @param {number} total
 */
function paired(a, b, total) {
  const d = a.map((x, i) => x - b[i]);
  const m = median(d);
  return [fixed(m, 1), `${fixed(percentile(d, 25), 1)}–${fixed(percentile(d, 75), 1)}`, `${fixed((100 * m) / total, 1)} %`];
}
