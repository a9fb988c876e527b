#!/usr/bin/env node
// The export benchmark: generates a sidecar of N decisions (1,000,000 by default, in runs of 1,000)
// and measures `rec export` to an OTLP JSON file and over OTLP/HTTP protobuf to a receiver on
// 127.0.0.1 that only drains the requests (so the figure is rec's, not a decoder's): events per
// wall second and peak RSS, at a quarter of N and at N. Memory must not grow with N: events are
// read and sent a batch at a time. The sidecar and the file are deleted at the end.
//
//   npx tsc -p tsconfig.json && node scripts/bench-export.mjs [--events 1000000]
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const REC = join(ROOT, 'bin', 'rec.js');
const TIME = '/usr/bin/time';
const RUN_SIZE = 1000;

const { values } = parseArgs({ options: { events: { type: 'string', default: '1000000' } } });
const EVENTS = Number(values.events);
if (!Number.isSafeInteger(EVENTS) || EVENTS < RUN_SIZE) {
  console.error(`bench-export: --events takes a whole number of at least ${RUN_SIZE}`);
  process.exit(2);
}

const { openSidecar } = await import(join(ROOT, 'dist', 'store', 'sidecarDb.js'));

/** A sidecar of `events` decisions as rec writes them: approvals, rejections (No and Esc), skipped. */
function generate(path, events) {
  const opened = openSidecar(path);
  if (!opened.ok) throw new Error(opened.error);
  const db = opened.db.connection;
  const run = db.prepare("INSERT INTO runs (id, agent, agent_version, argv, cwd, started_at, ended_at, exit_code, rec_version) VALUES (?, 'codex', '0.169.0', '[]', '/work', ?, ?, 0, '0.1.0')");
  const event = db.prepare(
    `INSERT INTO events (id, run_id, agent, agent_version, agent_session_id, ts, type, kind, call_id, tool_name, tool_input, decided_by, trigger, option_label, scope, reason_source, ran, evidence, agent_version_verified)
     VALUES (?, ?, 'codex', '0.169.0', ?, ?, ?, 'command', ?, 'exec_command', ?, 'user', ?, ?, ?, ?, ?, '["screen","keys"]', 1)`,
  );
  const start = Date.UTC(2026, 0, 1);
  const insertRun = db.transaction((r) => {
    const runId = `run${String(r).padStart(7, '0')}`;
    run.run(runId, new Date(start + r * 3_600_000).toISOString(), new Date(start + r * 3_600_000 + 1_800_000).toISOString());
    for (let i = 0; i < RUN_SIZE; i++) {
      const n = r * RUN_SIZE + i;
      const type = ['approval', 'rejection', 'rejection', 'skipped'][n % 4];
      const trigger = type === 'skipped' ? null : n % 8 === 1 ? 'esc' : 'letter';
      event.run(
        `ev${String(n).padStart(9, '0')}`, runId, `session-${r}`, new Date(start + r * 3_600_000 + i * 1000).toISOString(), type, `call_${n}`,
        JSON.stringify({ command: `npm test -- --grep case${n}`, workdir: '/work/project' }), trigger,
        type === 'approval' ? 'Yes, proceed (y)' : null, type === 'approval' ? 'once' : null, type === 'rejection' ? 'none' : null, type === 'approval' ? 'yes' : 'no',
      );
    }
  });
  for (let r = 0; r < events / RUN_SIZE; r++) insertRun(r);
  opened.db.close();
}

/** A receiver that drains each request and answers 200: the bench measures the sender. */
async function startDrain() {
  let requests = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' });
      res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, requests: () => requests, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** `rec export ARGS` under /usr/bin/time: wall seconds, peak RSS (MB), exit status, output. */
function measure(args) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(TIME, ['-f', 'RSS_KB=%M', process.execPath, REC, 'export', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      const rss = /RSS_KB=(\d+)/.exec(err);
      resolve({ seconds: (performance.now() - started) / 1000, rssMb: rss ? Number(rss[1]) / 1024 : NaN, code, out: out.trim(), err: err.replace(/RSS_KB=\d+\n?/, '').trim() });
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'rec-bench-export-'));
try {
  console.log(`export benchmark · load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log('events      transport          events/s   wall s   peak RSS MB');
  for (const n of [EVENTS / 4, EVENTS].map((x) => Math.round(x / RUN_SIZE) * RUN_SIZE)) {
    const db = join(dir, `rec-${n}.db`);
    const t0 = performance.now();
    generate(db, n);
    const genSeconds = (performance.now() - t0) / 1000;
    const file = join(dir, `export-${n}.jsonl`);
    const drain = await startDrain();
    const rows = [
      ['otlp-file (JSON)', await measure(['--db', db, '--otlp-file', file])],
      ['otlp http/protobuf', await measure(['--db', db, '--otlp', drain.url])],
    ];
    await drain.close();
    for (const [name, r] of rows) {
      if (r.code !== 0) throw new Error(`rec export (${name}) exited ${r.code}: ${r.err}`);
      console.log(`${String(n).padStart(9)}   ${name.padEnd(18)} ${String(Math.round(n / r.seconds)).padStart(9)}   ${r.seconds.toFixed(1).padStart(6)}   ${r.rssMb.toFixed(0).padStart(11)}`);
    }
    console.log(`            (generated in ${genSeconds.toFixed(1)} s; file ${(statSync(file).size / 1e6).toFixed(0)} MB; ${drain.requests()} HTTP requests)`);
    rmSync(db, { force: true });
    rmSync(`${db}-wal`, { force: true });
    rmSync(`${db}-shm`, { force: true });
    rmSync(file, { force: true });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
