// One e2e run: the mock Gemini API, a fresh isolated HOME, and `rec --db <file> gemini` under the
// pexpect-style harness with the pinned Gemini; a Driver over it so the key scripts in
// recordedScenarios.ts drive `rec gemini` exactly as they drove plain gemini for the fixtures. Gemini's
// session file is copied live on the side (it may be deleted at exit), for the expected call ids.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EOF, TIMEOUT, type Spawned } from '../../../src/lab/spawn.js';
import { startGenerateContentServer, type GenerateContentServer } from '../../../src/lab/mock/googleGenerateContent/server.js';
import { settle, type Driver } from '../../../src/lab/driver.js';
import { REC_BIN } from '../recBin.js';
import { startAgentSession, type AgentSession } from '../recSession.js';
import { noteNetworkIsolation } from '../networkIsolation.js';
import type { EventRow } from '../sidecarRows.js';
import { createEnv, AGENT_BIN, GEMINI_MODEL, type AgentEnv } from './env.js';
import { KITTY_ANSWER, KITTY_QUERY, quitGemini, SCREEN } from '../../../src/agents/gemini/bench/recordedScenarios.js';
import { SessionSnapshots } from './sessionSnapshots.js';

/** Gemini draws its composer after 10-20 s on two loaded cores (it relaunches itself once). */
export const START_TIMEOUT_MS = 90_000;
/** Any one screen change after a key or a model reply. */
export const STEP_TIMEOUT_MS = 45_000;
/** rec reads the session file after Gemini exits, then closes the database. */
const REC_EXIT_TIMEOUT_MS = 30_000;

export { assertBuilt } from '../recBin.js';

export interface RecSessionOptions {
  readonly cols?: number;
  readonly rows?: number;
  /** Answer Gemini's kitty keyboard query as a kitty-capable terminal would. */
  readonly kitty?: boolean;
  /** Run gemini bare (not under rec): the smoke test of the environment itself. */
  readonly bare?: boolean;
  /** Gemini's editor is the fake vim (env.ts). */
  readonly fakeEditor?: boolean;
  /** Gemini has the one-tool MCP server (env.ts). */
  readonly mcpServer?: boolean;
  /** $XDG_RUNTIME_DIR for rec and Gemini (where rec may put its per-run settings layer). */
  readonly runtimeDir?: string;
  /**
   * How rec finds Gemini's chat file, whatever this machine's temp folder (launch.ts): `scan`, as
   * for every user but root (the run's TMPDIR is world-writable, as /tmp is, and there is no
   * runtime dir), the default; or `layer`, root's way, the SessionStart hook of a per-run settings
   * layer in `runtimeDir` (a root-owned folder: test/support/rootOwnedDir.ts).
   */
  readonly sessionPath?: 'scan' | 'layer';
  /** Gemini's dialogs offer "Allow … for all future sessions" (env.ts). */
  readonly permanentToolApproval?: boolean;
  /** A user policy file, written to ~/.gemini/policies/rec-rules.toml before Gemini starts. */
  readonly policies?: string;
  /** Gemini's own arguments, after `rec gemini` (e.g. `--prompt-interactive <message>`). */
  readonly args?: readonly string[];
}

export interface RecSession {
  readonly proc: Spawned;
  readonly env: AgentEnv;
  readonly server: GenerateContentServer;
  readonly dbPath: string;
  readonly driver: Driver;
  /** Gemini's session file(s), copied live. */
  readonly snapshots: SessionSnapshots;
  /** Ends Gemini with `/quit` and waits until rec (or bare gemini) has exited. */
  quit(): Promise<{ exitCode: number; signal: number | undefined }>;
  rows(): EventRow[];
  /** The way rec found the chat file, from its debug log: `layer` once Gemini ran rec's SessionStart hook, else `scan`. */
  sessionPathTaken(): 'scan' | 'layer';
  /** `rec merge --run <id>` on this run's database, parsed. */
  merge(runId: string): unknown;
  /** Stops rec, Gemini and everything they started, by pid; closes the mock; removes the temp dir. */
  dispose(): Promise<void>;
}

export async function startRec(opts: RecSessionOptions = {}): Promise<RecSession> {
  noteNetworkIsolation();
  const server = await startGenerateContentServer({ modelName: GEMINI_MODEL });
  // The mock is the proxy too: anything that tries to leave 127.0.0.1 is refused and recorded.
  const env = createEnv({ baseUrl: server.baseUrl, token: server.token, proxyUrl: server.baseUrl, ...(opts.fakeEditor ? { fakeEditor: true } : {}), ...(opts.mcpServer ? { mcpServer: true } : {}), ...(opts.permanentToolApproval ? { permanentToolApproval: true } : {}) });
  if (opts.policies !== undefined) {
    mkdirSync(join(env.home, '.gemini', 'policies'), { recursive: true });
    writeFileSync(join(env.home, '.gemini', 'policies', 'rec-rules.toml'), opts.policies);
  }
  // Scan: a TMPDIR like /tmp, which Gemini never takes a settings file from (systemSettingsLayer.ts).
  if ((opts.sessionPath ?? 'scan') === 'scan') chmodSync(env.env.TMPDIR!, 0o1777);
  if (opts.sessionPath === 'layer' && opts.runtimeDir === undefined) throw new Error('sessionPath layer needs a root-owned runtimeDir');
  const snapshots = new SessionSnapshots(env.chatsDir);
  const dbPath = join(env.baseDir, 'rec.db');
  // rec's debug log (never the terminal): the witness of the way rec found the chat file (sessionPathTaken).
  const debugLog = join(env.baseDir, 'rec-debug.log');
  let base: AgentSession | undefined;
  base = startAgentSession({
    agent: 'gemini',
    bin: AGENT_BIN,
    ...(opts.bare ? { bare: true } : {}),
    dbPath,
    ...(opts.args ? { args: opts.args } : {}),
    cwd: env.workDir,
    env: { ...env.env, REC_GEMINI_BIN: AGENT_BIN, REC_DEBUG: '1', REC_DEBUG_LOG: debugLog, ...(opts.runtimeDir ? { XDG_RUNTIME_DIR: opts.runtimeDir } : {}) },
    ...(opts.cols !== undefined ? { cols: opts.cols } : {}),
    ...(opts.rows !== undefined ? { rows: opts.rows } : {}),
    timeoutMs: STEP_TIMEOUT_MS,
    // Gemini queries once at start; rec passes the query out and our answer back in, untouched.
    ...(opts.kitty ? { onOutput: (data: string) => void (data.includes(KITTY_QUERY) && queueMicrotask(() => base?.proc.send(KITTY_ANSWER))) } : {}),
    typed: (text) => text,
    // Gemini 0.61 turns an Enter within 30 ms of the previous key into a newline (its
    // FAST_RETURN_TIMEOUT paste guard), and the text can show on screen within that window: wait
    // as a person would before pressing it.
    beforeEnter: settle,
    stopProcesses: (pids) => env.stopProcesses(pids),
  });
  const session = base;
  const p = session.proc;
  const driver: Driver = session.driver;
  let disposed = false;
  return {
    proc: p,
    env,
    server,
    dbPath,
    driver,
    snapshots,
    async quit() {
      snapshots.sample();
      await quitGemini(driver, async (ms) => (await p.expect([EOF, TIMEOUT], ms)) === 0);
      return p.expectExit(REC_EXIT_TIMEOUT_MS);
    },
    rows: session.rows,
    sessionPathTaken: () => (existsSync(debugLog) && /gemini SessionStart: acked/.test(readFileSync(debugLog, 'utf8')) ? 'layer' : 'scan'),
    merge(runId) {
      const out = execFileSync(process.execPath, [REC_BIN, 'merge', '--run', runId, '--db', dbPath], { cwd: env.workDir, env: env.env, encoding: 'utf8' });
      return JSON.parse(out) as unknown;
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      snapshots.stop();
      await session.stop();
      await server.close();
      await env.dispose();
    },
  };
}

/** Waits until Gemini shows its composer. */
export async function waitReady(s: RecSession): Promise<void> {
  await s.proc.expectScreen(SCREEN.ready, START_TIMEOUT_MS);
}
