#!/usr/bin/env node
// @ts-check
// Records fixtures from the REAL Codex CLI (the pinned devDependency, or the binary REC_E2E_CODEX_BIN
// names, into that binary's version's folder) against the project's mock
// Responses server: for each scenario the raw pty output chunks and the keys sent with timestamps
// (<scenario>.cast, asciicast v2 with "o"/"i"/"r" events), the rendered screens at each step
// (<scenario>.screen.txt, frames separated by a ─ line), the rollout (<scenario>.rollout.jsonl) and what
// the model was told (<scenario>.requests.jsonl), into test/fixtures/codex/<version>/recorded/.
//
//   node scripts/record-codex-fixtures.mjs [scenario ...]   (default: all; `--list` lists them)
//
// Runs itself inside a loopback-only network namespace (`unshare -n`) when it can; Codex's telemetry,
// update checks and analytics are off in its config either way.
import { execFileSync } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { reexecInLoopbackNetns } from './fixture-lib/netns.mjs';
import { chooseScenarios, recordEach } from './fixture-lib/scenarioRun.mjs';
import { register, createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
register('./tsLoader.mjs', import.meta.url);
const require = createRequire(import.meta.url);

/** Fixed, short scratch dir: paths in screens and rollouts stay the same from one recording to the next. */
const BASE_DIR = '/tmp/rec-codex-fx';
const COLS = 120;
const ROWS = 40;
/** Codex's first screen takes a few seconds on 2 shared cores (native binary + app-server daemon start). */
const START_TIMEOUT_MS = 60_000;
/** Any later screen change (prompt, decision line, model reply) comes within this on a loaded machine. */
const STEP_TIMEOUT_MS = 30_000;

reexecInLoopbackNetns('record-codex-fixtures', 'relying on config + loopback proxies');

const pty = require('node-pty');
const { Terminal } = require('@xterm/headless');
const { startResponsesServer } = await import('../src/lab/mock/openaiResponses/server.ts');
const { createEnv, AGENT_BIN, AGENT_VERSION, markerMcpToml, userHookCommand, userHookToml } = await import('../test/support/codex/env.ts');
const { withManagedNetwork } = await import('../src/agents/codex/bench/managedNetwork.ts');
const { SCENARIOS: BASE_SCENARIOS, SCREEN } = await import(process.env.REC_SCENARIOS_MODULE ?? '../src/agents/codex/bench/recordedScenarios.ts');
// The MCP tool form's scenarios (they need the one-tool MCP server in config.toml, `mcpServer`) and
// the network prompt's (`managedNetwork`), and those where a hook of the user's answers (`userHook`).
const { PROMPT_SCENARIOS, HOOK_SCENARIOS } = await import('../test/support/codex/promptScenarios.ts');
const SCENARIOS = [...BASE_SCENARIOS, ...PROMPT_SCENARIOS, ...HOOK_SCENARIOS];

const OUT_DIR = join(ROOT, 'test/fixtures/codex', AGENT_VERSION, 'recorded');

const chosen = chooseScenarios(SCENARIOS);
mkdirSync(OUT_DIR, { recursive: true });

await recordEach(chosen, record);

async function record(scenario) {
  const requestsFile = join(OUT_DIR, `${scenario.name}.requests.jsonl`);
  rmSync(requestsFile, { force: true });
  const server = await startResponsesServer({ logFile: requestsFile });
  const env = createEnv({ baseUrl: server.baseUrl, token: server.token, baseDir: BASE_DIR, ...(scenario.mcpServer ? { extraToml: markerMcpToml() } : {}) });
  scenario.setup?.(env.workDir);
  if (scenario.userHook) {
    const config = join(env.codexHome, 'config.toml');
    appendFileSync(config, userHookToml(config, scenario.userHook.event, userHookCommand(...scenario.userHook.args)));
  }
  let cols = scenario.cols ?? COLS;
  let rows = scenario.rows ?? ROWS;
  const term = new Terminal({ cols, rows, scrollback: 0, allowProposedApi: true });
  const started = Date.now();
  const events = [];
  const stamp = () => Number(((Date.now() - started) / 1000).toFixed(6));
  const frames = [];
  const waiters = new Set();
  let pending = 0;
  let exited;

  // The network prompt's scenarios run Codex under managed network requirements, in a private /etc.
  const { command, args } = scenario.managedNetwork ? withManagedNetwork(env.baseDir, AGENT_BIN, scenario.codexArgs ?? []) : { command: AGENT_BIN, args: scenario.codexArgs ?? [] };
  const child = pty.spawn(command, [...args], {
    name: 'xterm-256color',
    cols,
    rows,
    cwd: env.workDir,
    env: env.env,
  });
  child.onData((data) => {
    events.push([stamp(), 'o', data]);
    pending += 1;
    term.write(data, () => {
      pending -= 1;
      for (const w of [...waiters]) w();
    });
  });
  child.onExit((e) => {
    exited = e;
    for (const w of [...waiters]) w();
  });

  const screen = () => {
    const buf = term.buffer.active;
    const lines = [];
    for (let i = 0; i < term.rows; i++) lines.push(buf.getLine(buf.viewportY + i)?.translateToString(true) ?? '');
    return lines.join('\n').replace(/\n+$/, '');
  };
  const snap = (label) => frames.push({ label, t: stamp(), cols, rows, text: screen() });
  const waitScreen = (re, timeoutMs) =>
    new Promise((res, rej) => {
      const check = () => {
        if (pending > 0) return;
        if (re.test(screen())) {
          done();
          res(undefined);
        } else if (exited) {
          done();
          rej(new Error(`codex exited (${JSON.stringify(exited)}) while waiting for ${re}\n${screen()}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        rej(new Error(`timeout waiting for ${re}; screen:\n${screen()}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  const send = (data) => {
    events.push([stamp(), 'i', data]);
    child.write(data);
  };

  const ctx = {
    workDir: env.workDir,
    server,
    waitScreen: (re, label, timeoutMs = STEP_TIMEOUT_MS) => waitScreen(re, timeoutMs).then(() => label && snap(label)),
    snap,
    send,
    screen,
    line: async (text) => {
      // Enter only once the text shows in the composer: Codex treats a burst ending in \r as a paste.
      send(text);
      await waitScreen(new RegExp(`› ${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), STEP_TIMEOUT_MS);
      send('\r');
    },
    resize: (c, r) => {
      cols = c;
      rows = r;
      events.push([stamp(), 'r', `${c}x${r}`]);
      term.resize(c, r);
      child.resize(c, r);
    },
    waitRequest: (pred, timeoutMs = STEP_TIMEOUT_MS) => server.waitForRequest(pred, timeoutMs),
    waitExit: (timeoutMs = STEP_TIMEOUT_MS) =>
      new Promise((res, rej) => {
        const check = () => {
          if (exited && pending === 0) {
            waiters.delete(check);
            clearTimeout(timer);
            res(exited);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          rej(new Error(`timeout waiting for exit; screen:\n${screen()}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
  };

  try {
    await ctx.waitScreen(SCREEN.ready, 'start', START_TIMEOUT_MS);
    console.log(`  ${scenario.name}: first screen after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await scenario.run(ctx);
    snap('final');
  } catch (err) {
    snap('error');
    throw err;
  } finally {
    write(scenario, { cols: scenario.cols ?? COLS, rows: scenario.rows ?? ROWS, events, frames, env });
    if (!exited) child.kill('SIGKILL');
    await env.stopProcesses([child.pid]);
    await server.close();
    term.dispose();
  }
}

function write(scenario, { cols, rows, events, frames, env }) {
  const base = join(OUT_DIR, scenario.name);
  const header = {
    version: 2,
    width: cols,
    height: rows,
    timestamp: Math.floor(Date.now() / 1000),
    title: `codex ${AGENT_VERSION}: ${scenario.description}`,
    env: { TERM: 'xterm-256color', SHELL: '/bin/bash' },
  };
  writeFileSync(`${base}.cast`, [header, ...events].map((e) => JSON.stringify(e)).join('\n') + '\n');
  const rule = '─'.repeat(80);
  writeFileSync(
    `${base}.screen.txt`,
    frames.map((f) => `${rule}\n# ${f.label} t=${f.t}s ${f.cols}x${f.rows}\n${rule}\n${f.text}\n`).join(''),
  );
  const rollouts = env.rolloutFiles();
  for (const old of readdirSync(OUT_DIR).filter((f) => f.startsWith(`${scenario.name}.rollout`))) rmSync(join(OUT_DIR, old));
  // The newest rollout is the user's session; the title-generation thread writes none (checked below).
  const sessionRollouts = rollouts.filter((p) => !isEphemeral(p));
  if (sessionRollouts[0]) copyFileSync(sessionRollouts[0], `${base}.rollout.jsonl`);
  if (sessionRollouts.length > 1) console.log(`  note: ${sessionRollouts.length} rollouts; kept the newest`);
}

function isEphemeral(path) {
  try {
    const first = execFileSync('head', ['-c', '4000', path], { encoding: 'utf8' }).split('\n')[0];
    return /"ephemeral":true/.test(first);
  } catch {
    // Unreadable: treat as a real session file, so nothing is silently dropped.
    return false;
  }
}
