// @ts-check
// Child program for the store's integration tests; runs the compiled store from dist/.
//   store-child.mjs open   DB [BUSY_MS]         open, print the result as one JSON line, close
//   store-child.mjs insert DB COUNT TAG         start a run, insert COUNT events, print {ok, inserted}
//   store-child.mjs hang   DB                   insert one event, print "INSERTED <run> <event>", wait to be killed
//   store-child.mjs lock   DB                   hold BEGIN EXCLUSIVE, print "LOCKED", release when stdin ends
// With STORE_BARRIER=1 the child prints READY once loaded and waits for a line on stdin, so that the
// parent can start several children's work at the same moment.
import { createInterface } from 'node:readline';

// dist/ is src/ compiled, without .d.ts files: each module is typed from its source.
const { Database } = /** @type {typeof import('../../../src/store/sqliteDriver.ts')} */ (
  await import(new URL('../../../dist/store/sqliteDriver.js', import.meta.url).href)
);
const { openSidecar } = /** @type {typeof import('../../../src/store/sidecarDb.ts')} */ (
  await import(new URL('../../../dist/store/sidecarDb.js', import.meta.url).href)
);

const [command, dbPath, ...rest] = process.argv.slice(2);
const out = (value) => process.stdout.write(typeof value === 'string' ? value + '\n' : JSON.stringify(value) + '\n');

async function barrier() {
  if (process.env.STORE_BARRIER !== '1') return;
  out('READY');
  const lines = createInterface({ input: process.stdin });
  for await (const _line of lines) break;
}

function openOrExit(options) {
  const result = openSidecar(dbPath, options);
  if (!result.ok) {
    out({ ok: false, code: result.code, error: result.error });
    process.exit(3);
  }
  return result.db;
}

await barrier();
if (command === 'open') {
  const result = openSidecar(dbPath, rest[0] ? { busyTimeoutMs: Number(rest[0]) } : {});
  if (result.ok) result.db.close();
  out(result.ok ? { ok: true } : { ok: false, code: result.code, error: result.error });
} else if (command === 'insert') {
  const db = openOrExit();
  const count = Number(rest[0]);
  const tag = rest[1];
  const runId = db.startRun({ agent: 'other', argv: ['store-child', tag], cwd: process.cwd(), started_at: new Date().toISOString(), pid: process.pid });
  let inserted = 0;
  for (let i = 0; i < count; i++) {
    db.insertEvent({ run_id: runId, agent: 'other' }, { ts: new Date().toISOString(), type: 'rejection', kind: 'command', call_id: `${tag}-${i}`, trigger: 'esc' });
    inserted++;
  }
  db.close();
  out({ ok: true, runId, inserted });
} else if (command === 'hang') {
  const db = openOrExit();
  const runId = db.startRun({ agent: 'codex', argv: ['codex'], cwd: process.cwd(), started_at: new Date().toISOString() });
  const eventId = db.insertEvent({ run_id: runId, agent: 'codex' }, { ts: new Date().toISOString(), type: 'rejection', kind: 'command', call_id: 'call_kill9', trigger: 'esc' });
  out(`INSERTED ${runId} ${eventId}`);
  setInterval(() => {}, 1 << 30); // stay alive, connection open, until SIGKILL
} else if (command === 'lock') {
  const db = new Database(dbPath);
  db.exec('BEGIN EXCLUSIVE');
  out('LOCKED');
  process.stdin.resume();
  process.stdin.on('end', () => {
    db.exec('ROLLBACK');
    db.close();
    process.exit(0);
  });
} else {
  out({ ok: false, error: `unknown command ${command}` });
  process.exit(2);
}
