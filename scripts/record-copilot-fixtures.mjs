#!/usr/bin/env node
// @ts-check
// Records fixtures from the REAL GitHub Copilot CLI (not under rec) against the project's mock
// Messages server (BYOK mode, provider type anthropic, offline): per scenario the raw pty output and
// the keys sent with timestamps (<scenario>.cast, asciicast v2 with "o"/"i"/"r" events), the rendered
// screens at each step (<scenario>.screen.txt), the session's events file (<scenario>.events.jsonl),
// every hook payload where the scenario logs hooks (<scenario>.hooks.jsonl), the permission rules the
// CLI saved (<scenario>.saved.json) and what the model was told (<scenario>.requests.jsonl), into
// test/fixtures/copilot/<version>/recorded/. A scenario with later starts (`then`, e.g. --continue)
// writes <scenario>.launch<N>.{cast,screen.txt} for each. Paths are sanitised to <BASE>.
//
//   REC_COPILOT_BIN=/path/to/copilot node scripts/record-copilot-fixtures.mjs [scenario ...]
//     (default: all; `--list` lists them). Without REC_COPILOT_BIN, the @github/copilot devDependency's
//     platform binary. REC_COPILOT_PKG_CACHE=<dir> shares the CLI's unpacked JavaScript across runs.
//
// Runs itself inside a loopback-only network namespace (`unshare -n`) when it can.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reexecInLoopbackNetns } from './fixture-lib/netns.mjs';
import { chooseScenarios, recordEach } from './fixture-lib/scenarioRun.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
register('./tsLoader.mjs', import.meta.url);

/** Fixed, short scratch dir: paths in screens and events stay the same from one recording to the next. */
const BASE_DIR = '/tmp/rec-copilot-fx';
const VERSION = '1.0.102';
const COLS = 120;
const ROWS = 40;
/** The first screen takes a few seconds on 2 shared cores (a 190 MB binary that unpacks its JavaScript). */
const START_TIMEOUT_MS = 60_000;
const STEP_TIMEOUT_MS = 30_000;
/** Strings this long are system prompts and tool specs: the same every run. */
const LONG_STRING = 600;
const MCP_SERVER = join(ROOT, 'test', 'fakes', 'mcp', 'markerServer.mjs');

reexecInLoopbackNetns('record-copilot-fixtures', 'relying on offline mode + the loopback guard');

const { startMessagesServer } = await import('../src/lab/mock/anthropicMessages/server.ts');
const { createCopilotEnv, copilotBin } = await import('../src/agents/copilot/bench/env.ts');
const { COPILOT_SCENARIOS } = await import('../src/agents/copilot/bench/mockScenarios.ts');
const { CastSession } = await import('../test/support/castSession.ts');
const { SCENARIOS, SCREEN, quitCopilot } = await import('../src/agents/copilot/bench/recordedScenarios.ts');

const FOUND = copilotBin(import.meta.url);
if (!FOUND) throw new Error('@github/copilot is not installed (npm install), and REC_COPILOT_BIN is not set');
const BIN = FOUND;
const installed = execFileSync(BIN, ['--version'], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: '/nonexistent', COPILOT_AUTO_UPDATE: 'false' } });
if (!installed.includes(`CLI ${VERSION}.`)) throw new Error(`${BIN} says ${installed.split('\n')[0]}, the recordings are for ${VERSION}`);
const OUT_DIR = join(ROOT, 'test/fixtures/copilot', VERSION, 'recorded');

const chosen = chooseScenarios(SCENARIOS);
mkdirSync(OUT_DIR, { recursive: true });
await recordEach(chosen, record);

async function record(scenario) {
  const base = join(OUT_DIR, scenario.name);
  for (const old of readdirSync(OUT_DIR).filter((f) => f.startsWith(`${scenario.name}.`))) rmSync(join(OUT_DIR, old));
  rmSync(BASE_DIR, { recursive: true, force: true });
  const requestsLog = `${BASE_DIR}-requests.jsonl`;
  const hookLog = `${BASE_DIR}-hooks.jsonl`;
  rmSync(requestsLog, { force: true });
  rmSync(hookLog, { force: true });
  const server = await startMessagesServer({ logFile: requestsLog, scenarios: COPILOT_SCENARIOS });
  const env = createCopilotEnv({
    baseUrl: server.baseUrl,
    token: server.token,
    baseDir: BASE_DIR,
    ...(process.env.REC_COPILOT_PKG_CACHE ? { pkgCacheHome: process.env.REC_COPILOT_PKG_CACHE } : {}),
    ...(scenario.untrusted ? { untrusted: true } : {}),
    ...(scenario.hooks ? { hookLog } : {}),
    ...(scenario.mcpServer ? { mcpServers: { marker: { type: 'local', command: process.execPath, args: [MCP_SERVER], tools: ['*'] } } } : {}),
  });
  try {
    const launches = [scenario, ...(scenario.then ?? [])];
    for (const [i, launch] of launches.entries()) {
      await runLaunch(launch, env, server, i === 0 ? base : `${base}.launch${i + 1}`, i === 0 && scenario.untrusted);
    }
  } finally {
    await server.close();
    const escapes = server.requests.filter((r) => r.kind === 'escape' || r.kind === 'unauthorized' || r.kind === 'other');
    if (escapes.length) console.log(`  note: ${escapes.length} guard/unauthorized/other request(s): ${escapes.map((r) => `${r.method} ${r.path}`).join(', ')}`);
    const files = env.eventFiles();
    if (files.length > 1) console.log(`  note: ${files.length} sessions: ${files.join(', ')}`);
    if (files.length) writeFileSync(`${base}.events.jsonl`, files.map((f) => trimLongStrings(sanitise(readFileSync(f, 'utf8')))).join(''));
    const saved = savedRules(env);
    if (Object.keys(saved).length) writeFileSync(`${base}.saved.json`, sanitise(JSON.stringify(saved, null, 2)) + '\n');
    if (existsSync(hookLog)) writeFileSync(`${base}.hooks.jsonl`, sanitise(readFileSync(hookLog, 'utf8')));
    if (existsSync(requestsLog)) writeFileSync(`${base}.requests.jsonl`, trimLongStrings(sanitise(readFileSync(requestsLog, 'utf8'))));
    rmSync(requestsLog, { force: true });
    rmSync(hookLog, { force: true });
    if (!process.env.REC_KEEP_BASE) rmSync(BASE_DIR, { recursive: true, force: true });
  }
}

/** One start of the CLI: wait for its first screen, run the key script, quit, write cast and screens. */
async function runLaunch(launch, env, server, base, untrusted) {
  const s = new CastSession(BIN, [...(launch.args ?? [])], { cols: COLS, rows: ROWS, cwd: env.workDir, env: env.env });
  const driver = {
    waitScreen: (re, label, timeoutMs = STEP_TIMEOUT_MS) => s.waitScreen(re, timeoutMs).then(() => label && s.snap(label)),
    snap: (label) => s.snap(label),
    send: (data) => s.send(data),
    screen: () => s.screen(),
    resize: (c, r) => s.resize(c, r),
    line: async (text) => {
      s.send(text);
      await s.waitScreen(new RegExp(`^❯ ${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`, 'm'), STEP_TIMEOUT_MS);
      s.send('\r');
    },
    waitStream: async (pred, timeoutMs = STEP_TIMEOUT_MS) => {
      await server.waitForStream(pred, timeoutMs);
    },
  };
  const started = Date.now();
  try {
    await driver.waitScreen(untrusted ? SCREEN.trust : SCREEN.idle, 'start', START_TIMEOUT_MS);
    console.log(`  ${base.split('/').pop()}: first screen after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await launch.run(driver);
    await (launch.quit ?? quitCopilot)(driver);
    await s.waitExit(STEP_TIMEOUT_MS);
    s.snap(`exited code=${s.exited?.exitCode} signal=${s.exited?.signal ?? 0}`);
  } catch (err) {
    s.snap('error');
    throw err;
  } finally {
    s.write(base, `copilot ${VERSION}: ${launch.description ?? 'later start'}`, { cols: COLS, rows: ROWS });
    s.kill();
    await env.stopProcesses([s.pid]);
    s.dispose();
    sanitiseFile(`${base}.cast`);
    sanitiseFile(`${base}.screen.txt`);
  }
}

/** What the CLI saved about permissions: the rules file and the user settings' URL lists, the config's trusted folders. */
function savedRules(env) {
  const out = {};
  const read = (f) => (existsSync(join(env.copilotHome, f)) ? readFileSync(join(env.copilotHome, f), 'utf8') : undefined);
  const rules = read('permissions-config.json');
  if (rules) out['permissions-config.json'] = JSON.parse(rules);
  const settings = read('settings.json');
  if (settings) out['settings.json'] = JSON.parse(settings);
  const config = read('config.json');
  // config.json starts with `//` comment lines the CLI writes.
  if (config) out['config.json'] = JSON.parse(config.replace(/^\/\/.*$/gm, ''));
  return out;
}

/** The fixed scratch dir and the node running hooks and the MCP server become placeholders. */
function sanitise(text) {
  return text.split(process.execPath).join('<NODE>').split(ROOT).join('<REPO>').split(BASE_DIR).join('<BASE>');
}

/** Each JSON line with its long strings cut to a marker: the same records, keys and structure. */
function trimLongStrings(jsonl) {
  const cut = (v) => {
    if (typeof v === 'string') return v.length >= LONG_STRING ? `${v.slice(0, 120)}<…${v.length - 120} chars trimmed>` : v;
    if (Array.isArray(v)) return v.map(cut);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cut(x)]));
    return v;
  };
  return jsonl
    .split('\n')
    .map((line) => (line.trim() ? JSON.stringify(cut(JSON.parse(line))) : line))
    .join('\n');
}

function sanitiseFile(file) {
  if (existsSync(file)) writeFileSync(file, sanitise(readFileSync(file, 'utf8')));
}
