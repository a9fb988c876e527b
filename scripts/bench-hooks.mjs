#!/usr/bin/env node
// @ts-check
// Hook round trip: how long an agent waits for `rec hook <agent> <event>` — spawn with the hook JSON
// on stdin until the process exits, with a real hook server listening and acking — against
// `node -e 0` in the same invocation as the anchor. Runs are interleaved round-robin so that load
// from other work on the machine hits every variant alike.
//
//   npx tsc -p tsconfig.json && node scripts/bench-hooks.mjs [--runs N]   (default 100, minimum 50)
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const runsArg = process.argv.indexOf('--runs');
const RUNS = Math.max(50, runsArg > 0 ? Number(process.argv[runsArg + 1]) : 100);

for (const f of ['dist/hooks/hookServer.js', 'dist/commands/hook.js', 'dist/cli.js']) {
  if (!existsSync(join(root, f))) {
    console.error(`bench-hooks: ${f} is missing; build first: npx tsc -p tsconfig.json`);
    process.exit(1);
  }
}
const { startHookServer } = await import(join(root, 'dist/hooks/hookServer.js'));

/** A real Codex PreToolUse payload (../shared/agents/codex/samples/hooks-shell-deny-esc.jsonl, paths replaced). */
const PAYLOAD = readFileSync(new URL('../test/fixtures/hooks/codex-pre-tool-use.json', import.meta.url), 'utf8');

let received = 0;
const server = await startHookServer({ onMessage: () => received++ });
/** @type {NodeJS.ProcessEnv} */
const hookEnv = { ...process.env, REC_HOOK_URL: server.url, REC_HOOK_TOKEN: server.token };
delete hookEnv.REC_DEBUG;
const bareEnv = { ...hookEnv };
delete bareEnv.REC_HOOK_URL;
delete bareEnv.REC_HOOK_TOKEN;

const node = process.execPath;
const variants = [
  { name: 'node -e 0 (anchor)', argv: [node, '-e', '0'], env: bareEnv, delivers: false },
  { name: 'node bin/rec.js hook codex PreToolUse', argv: [node, join(root, 'bin/rec.js'), 'hook', 'codex', 'PreToolUse'], env: hookEnv, delivers: true },
  { name: 'hook command alone (test launcher)', argv: [node, join(root, 'test/integration/hooks/hookLauncher.mjs'), 'codex', 'PreToolUse'], env: hookEnv, delivers: true },
  { name: 'node bin/rec.js hook, no REC_HOOK_URL', argv: [node, join(root, 'bin/rec.js'), 'hook', 'codex', 'PreToolUse'], env: bareEnv, delivers: false },
];

/** One spawn, payload on stdin, until exit; resolves with the wall time in ms. */
function once(v) {
  return new Promise((resolveRun, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(v.argv[0], v.argv.slice(1), { env: v.env, stdio: ['pipe', 'ignore', 'ignore'] });
    child.stdin.on('error', () => undefined); // EPIPE: `node -e 0` never reads its stdin.
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`${v.name} exited ${code}`));
      else resolveRun(Number(process.hrtime.bigint() - t0) / 1e6);
    });
    child.stdin.end(PAYLOAD);
  });
}

const times = variants.map(() => /** @type {number[]} */ ([]));
let expectedDeliveries = 0;
for (let i = 0; i < RUNS; i++) {
  for (const [k, v] of variants.entries()) {
    times[k].push(await once(v));
    if (v.delivers) expectedDeliveries++;
  }
}
await server.close();

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const rows = variants.map((v, k) => {
  const s = [...times[k]].sort((a, b) => a - b);
  return { name: v.name, median: pct(s, 50), p99: pct(s, 99) };
});
const anchor = rows[0];
const w = Math.max(...rows.map((r) => r.name.length));
console.log(`hook round trip, ${RUNS} runs each, interleaved (node ${process.version}, ${new Date().toISOString()})`);
console.log(`${'variant'.padEnd(w)}  median ms  p99 ms  median / anchor`);
for (const r of rows) {
  console.log(
    `${r.name.padEnd(w)}  ${r.median.toFixed(1).padStart(9)}  ${r.p99.toFixed(1).padStart(6)}  ${(r.median / anchor.median).toFixed(2).padStart(15)}×`,
  );
}
console.log(`messages delivered and acked: ${received} of ${expectedDeliveries}; server stats: ${JSON.stringify(server.stats)}`);
if (received !== expectedDeliveries) process.exitCode = 1;
