#!/usr/bin/env node
// @ts-check
// The export benchmark: generates a sidecar of N decisions (1,000,000 by default, in runs of 1,000)
// and one of N/10, and measures on each, in interleaved rounds (--reps): a bare read of the rows
// export reads (the anchor: better-sqlite3 stepping through them, nothing decoded or sent), then
// `rec export` to an OTLP JSON file, then over OTLP/HTTP protobuf to a receiver on 127.0.0.1 that
// only drains the requests (so the figure is rec's, not a decoder's). Each export goes to a new
// destination, so each sends everything. Shown: events per wall second (median of the rounds), the
// median of the per-round ratios to the anchor, CPU seconds, and peak RSS: the RSS at N must be
// the RSS at N/10, since events are read and sent a batch at a time. The load average before and
// after is printed with the figures. The sidecars and files are deleted at the end.
//
//   npx tsc -p tsconfig.json && node scripts/bench-export.mjs [--events 1000000] [--reps 2]
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

const { values } = parseArgs({ options: { events: { type: 'string', default: '1000000' }, reps: { type: 'string', default: '2' } } });
const EVENTS = Number(values.events);
if (!Number.isSafeInteger(EVENTS) || EVENTS < 10 * RUN_SIZE) {
  console.error(`bench-export: --events takes a whole number of at least ${10 * RUN_SIZE}`);
  process.exit(2);
}
const REPS = Math.max(1, Number(values.reps) || 1);

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
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  return { url: `http://127.0.0.1:${address.port}`, requests: () => requests, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** The anchor: every row export reads, stepped through by better-sqlite3 in a fresh Node. */
const SCAN = `
const { Database } = await import(${JSON.stringify(join(ROOT, 'dist', 'store', 'sqliteDriver.js'))});
const db = new Database(process.argv[1], { readonly: true });
const columns = 'id, run_id, agent, agent_version, agent_session_id, ts, type, kind, call_id, tool_name, tool_input, decided_by, trigger, option_label, scope, reason, reason_source, related_call_id, ran, partial_output, agent_version_verified';
let n = 0;
for (const run of db.prepare('SELECT id FROM runs ORDER BY started_at, id').pluck().all()) {
  for (const row of db.prepare(\`SELECT \${columns} FROM events WHERE run_id = ? AND type <> 'prompt' ORDER BY ts, id\`).raw(true).iterate(run)) n += row.length > 0 ? 1 : 0;
}
db.close();
console.log(n);
`;

/** A command under /usr/bin/time: wall and CPU seconds, peak RSS (MB), exit status, output. */
function measure(argv) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(TIME, ['-f', 'RSS_KB=%M CPU_S=%U+%S', ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      const m = /RSS_KB=(\d+) CPU_S=([\d.]+)\+([\d.]+)/.exec(err);
      resolve({
        seconds: (performance.now() - started) / 1000,
        cpu: m ? Number(m[2]) + Number(m[3]) : NaN,
        rssMb: m ? Number(m[1]) / 1024 : NaN,
        code,
        out: out.trim(),
        err: err.replace(/RSS_KB=.*\n?/, '').trim(),
      });
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

/** One size: REPS rounds of anchor, file export, HTTP export; rows of medians. */
async function benchSize(n) {
  const db = join(dir, `rec-${n}.db`);
  const t0 = performance.now();
  generate(db, n);
  console.error(`bench-export: ${n} events generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const drain = await startDrain();
  /** @type {Record<string, Array<{ code: number | null, err: string, seconds: number, cpu: number, rssMb: number }>>} */
  const rows = { 'bare read (anchor)': [], 'otlp-file (JSON)': [], 'otlp http/protobuf': [] };
  let fileMb = 0;
  try {
    for (let rep = 0; rep < REPS; rep++) {
      const file = join(dir, `export-${n}-${rep}.jsonl`);
      /** @type {Array<[string, string[]]>} */
      const round = [
        ['bare read (anchor)', [process.execPath, '--input-type=module', '-e', SCAN, db]],
        ['otlp-file (JSON)', [process.execPath, REC, 'export', '--db', db, '--otlp-file', file]],
        // Another path is another destination: its cursor starts empty, so everything is sent again.
        ['otlp http/protobuf', [process.execPath, REC, 'export', '--db', db, '--otlp', `${drain.url}/v1/logs/round${rep}`]],
      ];
      for (const [name, argv] of round) {
        const r = await measure(argv);
        if (r.code !== 0) throw new Error(`${name} exited ${r.code}: ${r.err}`);
        rows[name].push(r);
        console.error(`bench-export: ${n} ${name} round ${rep + 1}: ${r.seconds.toFixed(1)} s, ${r.rssMb.toFixed(0)} MB (load ${load()})`);
      }
      fileMb = statSync(file).size / 1e6;
      rmSync(file, { force: true });
    }
  } finally {
    await drain.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
  }
  const anchor = rows['bare read (anchor)'];
  for (const [name, runs] of Object.entries(rows)) {
    const rate = median(runs.map((r) => n / r.seconds));
    const ratio = median(runs.map((r, i) => r.seconds / anchor[i].seconds));
    console.log(
      `${String(n).padStart(9)}  ${name.padEnd(18)} ${String(Math.round(rate)).padStart(9)} ${ratio.toFixed(1).padStart(7)}x ${median(runs.map((r) => r.seconds)).toFixed(1).padStart(7)} ${median(runs.map((r) => r.cpu)).toFixed(1).padStart(6)} ${Math.max(...runs.map((r) => r.rssMb)).toFixed(0).padStart(8)}`,
    );
  }
  console.log(`           (file ${fileMb.toFixed(0)} MB; ${drain.requests()} HTTP requests in ${REPS} rounds)`);
}

const dir = mkdtempSync(join(tmpdir(), 'rec-bench-export-'));
try {
  console.log(`export benchmark · ${REPS} rounds · load before ${load()}`);
  console.log('   events  measure             events/s  ×anchor  wall s  CPU s  peak RSS MB');
  for (const n of [EVENTS / 10, EVENTS].map((x) => Math.round(x / RUN_SIZE) * RUN_SIZE)) await benchSize(n);
  console.log(`load after ${load()}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
