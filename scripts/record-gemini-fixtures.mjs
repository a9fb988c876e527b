#!/usr/bin/env node
// @ts-check
// Records fixtures from the REAL Gemini CLI (the pinned devDependency, not under rec) against the
// project's mock Gemini API: for each scenario the raw pty output and the keys sent with timestamps
// (<scenario>.cast, asciicast v2 with "o"/"i"/"r" events), the rendered screens at each step
// (<scenario>.screen.txt), Gemini's session file copied live as it grows (<scenario>.session.jsonl:
// the last snapshot, since Gemini wipes and deletes it) and what the model was told
// (<scenario>.requests.jsonl), into test/fixtures/gemini/<version>/recorded/.
//
//   node scripts/record-gemini-fixtures.mjs [scenario ...]   (default: all; `--list` lists them)
//
// Runs itself inside a loopback-only network namespace (`unshare -n`) when it can; the mock is also
// the HTTP(S) proxy, so any request that tries to leave 127.0.0.1 is refused and fails the scenario.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { reexecInLoopbackNetns } from './fixture-lib/netns.mjs';
import { chooseScenarios, recordEach } from './fixture-lib/scenarioRun.mjs';
import { register } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
register('./tsLoader.mjs', import.meta.url);

/** Fixed, short scratch dir: paths in screens and session files stay the same from one recording to the next. */
const BASE_DIR = '/tmp/rec-gemini-fx';
const COLS = 120;
const ROWS = 40;
/** Gemini draws its composer after several seconds on 2 shared cores (it relaunches itself once). */
const START_TIMEOUT_MS = 90_000;
/** Any later screen change (dialog, decision, model reply) comes within this on a loaded machine. */
const STEP_TIMEOUT_MS = 45_000;

reexecInLoopbackNetns('record-gemini-fixtures', 'relying on settings + the loopback guard proxy');

const { startGenerateContentServer } = await import('../src/lab/mock/googleGenerateContent/server.ts');
const { createEnv, AGENT_BIN, GEMINI_MODEL, AGENT_VERSION } = await import('../test/support/gemini/env.ts');
const { SCENARIOS, SCREEN, KITTY_QUERY, KITTY_ANSWER, quitGemini } = await import('../src/agents/gemini/bench/recordedScenarios.ts');
const { SessionSnapshots } = await import('../test/support/gemini/sessionSnapshots.ts');
const { spawn, EOF, TIMEOUT } = await import('../src/lab/spawn.ts');
const { settle } = await import('../src/lab/driver.ts');

const OUT_DIR = join(ROOT, 'test/fixtures/gemini', AGENT_VERSION, 'recorded');

const chosen = chooseScenarios(SCENARIOS);
mkdirSync(OUT_DIR, { recursive: true });

// Interrupted (Ctrl+C, kill): stop the Gemini being recorded, by pid, before leaving.
let stopCurrent = async () => {};
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.once(sig, () => {
    void stopCurrent().finally(() => process.exit(130));
  });
}

await recordEach(chosen, record);

async function record(scenario) {
  const requestsFile = join(OUT_DIR, `${scenario.name}.requests.jsonl`);
  rmSync(requestsFile, { force: true });
  const server = await startGenerateContentServer({ logFile: requestsFile, modelName: GEMINI_MODEL });
  const env = createEnv({ baseUrl: server.baseUrl, token: server.token, proxyUrl: server.baseUrl, baseDir: BASE_DIR, fakeEditor: scenario.fakeEditor === true, mcpServer: scenario.mcpServer === true });
  const snapshots = new SessionSnapshots(env.chatsDir);
  let cols = scenario.cols ?? COLS;
  let rows = scenario.rows ?? ROWS;
  const started = Date.now();
  const stamp = () => Number(((Date.now() - started) / 1000).toFixed(6));
  const events = [];
  const frames = [];
  let child;
  const send = (data) => {
    events.push([stamp(), 'i', data]);
    child.send(data);
  };
  child = spawn(AGENT_BIN, scenario.args ?? [], {
    cols,
    rows,
    cwd: env.workDir,
    env: env.env,
    timeoutMs: STEP_TIMEOUT_MS,
    onOutput: (data) => {
      events.push([stamp(), 'o', data]);
      // A kitty-capable terminal answers the query.
      if (scenario.kitty && data.includes(KITTY_QUERY)) queueMicrotask(() => send(KITTY_ANSWER));
    },
  });
  stopCurrent = () => env.stopProcesses([child.pid]);
  const screen = () => child.screen().replace(/\n+$/, '');
  const snap = (label) => frames.push({ label, t: stamp(), cols, rows, text: screen() });
  const driver = {
    waitScreen: async (re, label, timeoutMs = STEP_TIMEOUT_MS) => {
      await child.expectScreen(re, timeoutMs);
      if (label) snap(label);
    },
    send,
    snap,
    screen,
    line: async (text) => {
      send(text);
      await child.expectScreen(text, STEP_TIMEOUT_MS);
      // An Enter within 30 ms of the last key is a newline to Gemini 0.61 (FAST_RETURN_TIMEOUT).
      await settle();
      send('\r');
    },
    resize: (c, r) => {
      cols = c;
      rows = r;
      events.push([stamp(), 'r', `${c}x${r}`]);
      child.resize(c, r);
    },
  };

  try {
    // Started with a message (--prompt-interactive), Gemini may show its dialog before the composer.
    await driver.waitScreen(scenario.args ? new RegExp(`${SCREEN.ready.source}|${SCREEN.shellDialog.source}`) : SCREEN.ready, 'start', START_TIMEOUT_MS);
    console.log(`  ${scenario.name}: composer after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await scenario.run(driver);
    snap('final');
    snapshots.sample();
    await quitGemini(driver, async (ms) => (await child.expect(/** @type {import('../src/lab/spawn.ts').Pattern[]} */ ([EOF, TIMEOUT]), ms)) === 0);
    const exit = await child.expectExit(STEP_TIMEOUT_MS);
    snap('quit');
    if (exit.exitCode !== 0) throw new Error(`gemini exited ${JSON.stringify(exit)}`);
    const guard = server.requests.filter((r) => r.kind === 'guard' || r.kind === 'denied');
    if (guard.length > 0) throw new Error(`the mock refused ${guard.length} request(s): ${guard.map((r) => `${r.method} ${r.path}`).join(', ')}`);
  } catch (err) {
    snap('error');
    throw err;
  } finally {
    snapshots.stop();
    write(scenario, { cols: scenario.cols ?? COLS, rows: scenario.rows ?? ROWS, events, frames, snapshots, env });
    await env.stopProcesses([child.pid]);
    child.dispose();
    await server.close();
  }
}

function write(scenario, { cols, rows, events, frames, snapshots, env }) {
  const base = join(OUT_DIR, scenario.name);
  const header = {
    version: 2,
    width: cols,
    height: rows,
    timestamp: Math.floor(Date.now() / 1000),
    title: `gemini ${AGENT_VERSION}: ${scenario.description}`,
    env: { TERM: 'xterm-256color', SHELL: '/bin/bash' },
  };
  writeFileSync(`${base}.cast`, [header, ...events].map((e) => JSON.stringify(e)).join('\n') + '\n');
  const rule = '─'.repeat(80);
  writeFileSync(`${base}.screen.txt`, frames.map((f) => `${rule}\n# ${f.label} t=${f.t}s ${f.cols}x${f.rows}\n${rule}\n${f.text}\n`).join(''));
  rmSync(`${base}.session.jsonl`, { force: true });
  const files = [...snapshots.contents.entries()];
  if (files.length > 1) console.log(`  note: ${files.length} session files; kept the last`);
  const last = files.at(-1);
  if (last) writeFileSync(`${base}.session.jsonl`, last[1]);
  const left = env.sessionFiles().length;
  console.log(`  ${scenario.name}: session file ${left > 0 ? 'kept' : 'deleted'} by Gemini at exit`);
}
