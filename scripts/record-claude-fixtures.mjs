#!/usr/bin/env node
// @ts-check
// Records fixtures from the REAL Claude Code (the pinned devDependency, not under rec) against the
// project's mock Messages server: per scenario the raw pty output and the keys sent with timestamps
// (<scenario>.cast, asciicast v2 with "o"/"i"/"r" events), the rendered screens at each step
// (<scenario>.screen.txt), the session transcript (<scenario>.transcript.jsonl, and
// <scenario>.subagent-*.jsonl if any), every hook payload (<scenario>.hooks.jsonl) and what the model
// was told (<scenario>.requests.jsonl), into test/fixtures/claude/<version>/recorded/. Paths are
// sanitised to <BASE>.
//
//   node scripts/record-claude-fixtures.mjs [scenario ...]   (default: all; `--list` lists them)
//   node scripts/record-claude-fixtures.mjs --inline [scenario ...]
//     the inline renderer: each run gets the user's flag `--settings '{"tui":"default"}'`, and the
//     fixtures go to recorded-inline/ (scenarios from INLINE_SCENARIOS).
//
// Runs itself inside a loopback-only network namespace (`unshare -n`) when it can.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reexecInLoopbackNetns } from './fixture-lib/netns.mjs';
import { chooseScenarios, recordEach } from './fixture-lib/scenarioRun.mjs';
import { randomUUID } from 'node:crypto';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
register('./tsLoader.mjs', import.meta.url);

/** Fixed, short scratch dir: paths in screens and transcripts stay the same from one recording to the next. */
const BASE_DIR = '/tmp/rec-claude-fx';
const COLS = 120;
const ROWS = 40;
/** Claude Code's first screen takes a few seconds on 2 shared cores (a 380 MB native binary). */
const START_TIMEOUT_MS = 60_000;
/** Any later screen change (prompt, decision line, model reply) comes within this on a loaded machine. */
const STEP_TIMEOUT_MS = 30_000;
/** Strings this long are system prompts, tool specs and skill lists: the same every run, 95% of a transcript. */
const LONG_STRING = 600;


reexecInLoopbackNetns('record-claude-fixtures', 'relying on the env switches + the loopback guard');

const { startMessagesServer } = await import('../src/lab/mock/anthropicMessages/server.ts');
const { createEnv, AGENT_BIN, AGENT_VERSION } = await import('../test/support/claude/env.ts');
const { CastSession } = await import('../test/support/castSession.ts');
const { SCENARIOS, SCREEN, quitClaude } = await import('../src/agents/claude/bench/recordedScenarios.ts');
const { INLINE_SCENARIOS } = await import('../test/support/claude/inlineScenarios.ts');
const { PLAN_SCENARIOS } = await import('../test/support/claude/planScenarios.ts');
const { PROMPT_SCENARIOS } = await import('../test/support/claude/promptScenarios.ts');
const { AUTO_MODE_SCENARIOS } = await import('../test/support/claude/autoModeScenarios.ts');

const INLINE = process.argv.includes('--inline');
const OUT_DIR = join(ROOT, 'test/fixtures/claude', AGENT_VERSION, INLINE ? 'recorded-inline' : 'recorded');
const FOUND = AGENT_BIN;
if (!FOUND) throw new Error('@anthropic-ai/claude-code is not installed (npm install)');
const BIN = FOUND;
// The folder is named after the pinned version (the newest verified one): an install of another
// version would file its recordings under the wrong name.
const installed = execFileSync(BIN, ['--version'], { encoding: 'utf8', env: { ...process.env, DISABLE_AUTOUPDATER: '1' } }).trim();
if (!installed.startsWith(`${AGENT_VERSION} `)) throw new Error(`the installed Claude Code says ${installed}, the pin is ${AGENT_VERSION} (npm ci)`);

const chosen = chooseScenarios(INLINE ? INLINE_SCENARIOS : [...SCENARIOS, ...PLAN_SCENARIOS, ...PROMPT_SCENARIOS, ...AUTO_MODE_SCENARIOS]);
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
  // Auto mode's scenarios script the classifier's verdicts (autoModeScenarios.ts).
  const server = await startMessagesServer({ logFile: requestsLog, ...(scenario.classifier ? { classifier: scenario.classifier } : {}) });
  const env = createEnv({ baseUrl: server.baseUrl, token: server.token, baseDir: BASE_DIR, hookLog, ...(scenario.mcpServer ? { mcpServer: true } : {}) });
  const sessionId = randomUUID();
  const cols = scenario.cols ?? COLS;
  const rows = scenario.rows ?? ROWS;
  // The scenario's own flags are the user's (e.g. the inline renderer's --settings), passed as given.
  const s = new CastSession(BIN, ['--session-id', sessionId, ...(scenario.args ?? [])], { cols, rows, cwd: env.workDir, env: env.env });
  const driver = {
    waitScreen: (re, label, timeoutMs = STEP_TIMEOUT_MS) => s.waitScreen(re, timeoutMs).then(() => label && s.snap(label)),
    snap: (label) => s.snap(label),
    send: (data) => s.send(data),
    screen: () => s.screen(),
    resize: (c, r) => s.resize(c, r),
    line: async (text) => {
      s.send(text);
      await s.waitScreen(new RegExp(`❯\u00a0${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), STEP_TIMEOUT_MS);
      s.send('\r');
    },
    waitStream: async (pred, timeoutMs = STEP_TIMEOUT_MS) => {
      await server.waitForStream(pred, timeoutMs);
    },
  };
  const started = Date.now();
  try {
    await driver.waitScreen(SCREEN.ready, 'start', START_TIMEOUT_MS);
    console.log(`  ${scenario.name}: first screen after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await scenario.run(driver);
    await (scenario.quit ?? quitClaude)(driver);
    await s.waitExit(STEP_TIMEOUT_MS);
    s.snap('exited');
  } catch (err) {
    s.snap('error');
    throw err;
  } finally {
    s.write(base, `claude ${AGENT_VERSION}: ${scenario.description}`, { cols, rows });
    s.kill();
    await env.stopProcesses([s.pid]);
    await server.close();
    s.dispose();
    const escapes = server.requests.filter((r) => r.kind === 'escape' || r.kind === 'unauthorized');
    if (escapes.length) console.log(`  note: ${escapes.length} guard/unauthorized request(s): ${escapes.map((r) => `${r.method} ${r.path}`).join(', ')}`);
    const transcripts = env.transcripts();
    const own = transcripts.filter((t) => basename(t) === `${sessionId}.jsonl`);
    if (own[0]) writeFileSync(`${base}.transcript.jsonl`, trimLongStrings(sanitise(readFileSync(own[0], 'utf8'), sessionId)));
    if (transcripts.length > own.length) console.log(`  note: other transcripts: ${transcripts.filter((t) => !own.includes(t)).join(', ')}`);
    for (const sub of env.subagentTranscripts(sessionId)) writeFileSync(`${base}.subagent-${basename(sub)}`, trimLongStrings(sanitise(readFileSync(sub, 'utf8'), sessionId)));
    if (existsSync(hookLog)) writeFileSync(`${base}.hooks.jsonl`, sanitise(readFileSync(hookLog, 'utf8'), sessionId));
    if (existsSync(requestsLog)) writeFileSync(`${base}.requests.jsonl`, sanitise(readFileSync(requestsLog, 'utf8'), sessionId));
    sanitiseFile(`${base}.cast`, sessionId);
    sanitiseFile(`${base}.screen.txt`, sessionId);
    rmSync(requestsLog, { force: true });
    rmSync(hookLog, { force: true });
    // REC_KEEP_BASE=1 leaves HOME and the work dir for a look (e.g. what option 2 wrote into .claude/).
    if (!process.env.REC_KEEP_BASE) rmSync(BASE_DIR, { recursive: true, force: true });
  }
}

/** The fixed scratch dir and the node running the hooks become placeholders; the session id stays (it is random). */
function sanitise(text, _sessionId) {
  // The project's transcript folder is the cwd with '/' as '-': `-tmp-rec-claude-fx-work`.
  return text.split(process.execPath).join('<NODE>').split(BASE_DIR).join('<BASE>').split(BASE_DIR.replaceAll('/', '-')).join('<BASE_SLUG>');
}

/** Each JSON line with its long strings cut to a marker: the same records, keys and structure, a tenth of the size. */
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

function sanitiseFile(file, sessionId) {
  if (existsSync(file)) writeFileSync(file, sanitise(readFileSync(file, 'utf8'), sessionId));
}
