#!/usr/bin/env node
// @ts-check
// Micro-benchmark: how fast @xterm/headless parses agent-like output, fed directly (bounded
// in-flight writes with callbacks) and through ScreenModel. Not a test: prints MB/s.
// Usage: node scripts/bench-screen.mjs [megabytes=50] [cols=120] [rows=40]
import xtermHeadless from '@xterm/headless';
import { performance } from 'node:perf_hooks';

const { Terminal } = xtermHeadless;
const megabytes = Number(process.argv[2] ?? 50);
const cols = Number(process.argv[3] ?? 120);
const rows = Number(process.argv[4] ?? 40);

/** Deterministic agent-like output: plain lines, SGR 16/256/RGB colours, cursor moves, redraws, CRLF, UTF-8. */
function makeOutput(totalBytes) {
  const parts = [];
  let size = 0;
  let n = 0;
  const words = ['const', 'value', 'return', 'function', 'await', 'the', 'model', 'tool', 'call', 'diff', '│', '✓', '•', 'é'];
  while (size < totalBytes) {
    n++;
    let line = '';
    const kind = n % 10;
    if (kind === 0) line = `\x1b[${1 + (n % rows)};1H\x1b[2K\x1b[7m › ${n} Yes, proceed \x1b[0m`;
    else if (kind === 1) line = `\x1b[38;5;${n % 256}m${'─'.repeat(40)}\x1b[39m`;
    else if (kind === 2) line = `\x1b[38;2;${n % 256};${(n * 7) % 256};${(n * 13) % 256}m+ added line ${n}\x1b[0m`;
    else if (kind === 3) line = `\x1b[1m\x1b[32m✔\x1b[0m \x1b[2mRan\x1b[22m tests ${n}`;
    else if (kind === 4) line = `\x1b[3A\x1b[2K\x1b[1G\x1b[48;5;236m${' '.repeat(20)}\x1b[49m\x1b[3B`;
    else {
      for (let w = 0; w < 8 + (n % 9); w++) line += words[(n * 31 + w * 7) % words.length] + ' ';
    }
    const chunk = line + '\r\n';
    parts.push(chunk);
    size += Buffer.byteLength(chunk);
  }
  return Buffer.from(parts.join(''), 'utf8');
}

/** MB/s over wall time, and over this process's CPU time (steadier on a shared machine). */
function rates(bytes, start, cpuStart) {
  const wallS = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  return { wall: bytes / 1e6 / wallS, cpu: bytes / 1e6 / cpuS };
}

const show = (r) => `${r.wall.toFixed(1)} MB/s wall, ${r.cpu.toFixed(1)} MB/s per CPU-second`;

function chunks(data, size) {
  const out = [];
  for (let i = 0; i < data.length; i += size) out.push(data.subarray(i, i + size));
  return out;
}

async function benchDirect(data, chunkSize, maxInFlight) {
  const term = new Terminal({ cols, rows, scrollback: 0, allowProposedApi: true });
  const list = chunks(data, chunkSize);
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  await new Promise((resolve) => {
    let next = 0;
    let inFlight = 0;
    const pump = () => {
      while (inFlight < maxInFlight && next < list.length) {
        inFlight++;
        term.write(list[next++], () => {
          inFlight--;
          if (next >= list.length && inFlight === 0) resolve(undefined);
          else pump();
        });
      }
    };
    pump();
  });
  const result = rates(data.length, start, cpuStart);
  term.dispose();
  return result;
}

async function benchModel(data, chunkSize) {
  let screenModelModule;
  try {
    // SCREEN_MODEL_MODULE: a ScreenModel build elsewhere (e.g. tsc --outDir /tmp/x).
    screenModelModule = await import(process.env.SCREEN_MODEL_MODULE ?? '../dist/screen/screenModel.js');
  } catch {
    // dist/ not built: `npx tsc -p tsconfig.json` first to include the ScreenModel figure.
    return undefined;
  }
  const { ScreenModel } = screenModelModule;
  const model = new ScreenModel({ cols, rows, maxBacklogBytes: data.length + 1 });
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  for (const chunk of chunks(data, chunkSize)) model.write(chunk);
  await model.whenIdle();
  const result = rates(data.length, start, cpuStart);
  const stats = model.stats;
  model.dispose();
  return { ...result, stats };
}

export { makeOutput };
if (process.argv[1]?.endsWith("bench-screen.mjs")) await main();
async function main() {
const data = makeOutput(megabytes * 1e6);
console.log(`${(data.length / 1e6).toFixed(1)} MB of agent-like output, ${cols}x${rows}, node ${process.version}`);
await benchDirect(data.subarray(0, 2e6), 65536, 4); // warm up the JIT
for (const [chunkSize, inFlight] of [[4096, 1], [65536, 1], [65536, 4], [262144, 2]]) {
  const r = await benchDirect(data, chunkSize, inFlight);
  console.log(`xterm direct  chunk ${String(chunkSize).padStart(6)} B, ${inFlight} in flight: ${show(r)}`);
}
const model = await benchModel(data, 4096);
if (model) console.log(`ScreenModel, 4 KB writes, idle catch-up: ${show(model)}`, model.stats);
}
