// One e2e run: the mock model server, a fresh isolated CODEX_HOME, and `rec --db <file> codex` under
// the pexpect-style harness with the pinned Codex; a Driver over it so the scenario scripts in
// recordedScenarios.ts drive `rec codex` exactly as they drove plain codex for the fixtures.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { keepDaemonPackage, seedDaemonPackage } from '../../../src/agents/codex/bench/daemonPackage.js';
import { EOF, TIMEOUT, type Spawned } from '../../../src/lab/spawn.js';
import { startResponsesServer, type ResponsesServer } from '../../../src/lab/mock/openaiResponses/server.js';
import type { Scenario } from '../../../src/lab/mock/openaiResponses/scenarios.js';
import type { Reviewer } from '../../../src/lab/mock/openaiResponses/reviewer.js';
import { withManagedNetwork } from '../../../src/agents/codex/bench/managedNetwork.js';
import { AGENT_BIN, createEnv, markerMcpToml, type AgentEnv } from './env.js';
import { startAgentSession } from '../recSession.js';
import { noteNetworkIsolation } from '../networkIsolation.js';
import type { Driver } from '../../../src/agents/codex/bench/recordedScenarios.js';
import type { EventRow } from '../sidecarRows.js';
import { readRolloutCalls, type RolloutCall } from './rolloutCalls.js';

/** Codex draws its composer in about a second; on two loaded cores (and the daemon's first start) allow far more. */
export const START_TIMEOUT_MS = 60_000;
/** Any one screen change after a key or a model reply. */
export const STEP_TIMEOUT_MS = 30_000;
/** How long a Ctrl+C at the idle composer gets to end Codex (it quits on the second press). */
const QUIT_WAIT_MS = 2_000;
/** What Codex prints as it quits (its resume hint). */
const CODEX_QUIT_TEXT = /codex resume/;
/** rec reads the rollout for up to 1.5 s after Codex exits (RECONCILE_AFTER_EXIT_MS), then closes the database. */
const REC_EXIT_TIMEOUT_MS = 30_000;

export { assertBuilt } from '../recBin.js';

export interface RecSessionOptions {
  readonly cols?: number;
  readonly rows?: number;
  readonly scenarios?: Readonly<Record<string, Scenario>>;
  /** The mock's answer to auto-review's reviewer requests (its default denies). */
  readonly reviewer?: Reviewer;
  /** The user's own flags for Codex, after `rec codex` (e.g. `--approve-for-me`). */
  readonly args?: readonly string[];
  /** Extra environment for rec (e.g. REC_CODEX_HOOKS=1). */
  readonly env?: NodeJS.ProcessEnv;
  /** Writes what the run needs into the fresh world before rec starts (project files, rule files). */
  readonly prepare?: (env: AgentEnv) => void;
  /** Codex gets the one-tool MCP server (markerMcpToml). */
  readonly mcpServer?: boolean;
  /** Codex runs under managed network requirements, in a private /etc (withManagedNetwork). */
  readonly managedNetwork?: boolean;
}

export interface RecSession {
  readonly rec: Spawned;
  readonly env: AgentEnv;
  readonly server: ResponsesServer;
  readonly dbPath: string;
  readonly driver: Driver;
  /** Ends Codex as a user would (Ctrl+C twice at the idle composer) and waits until rec has exited. */
  quit(): Promise<{ exitCode: number; signal: number | undefined }>;
  rows(): EventRow[];
  /** The function calls of this run's rollout (the session file the daemon wrote; never auto-review's reviewer thread). */
  rolloutCalls(): RolloutCall[];
  rolloutFile(): string;
  /** Stops rec, Codex, its daemon and everything they started, by pid; closes the mock; removes the temp dir. */
  dispose(): Promise<void>;
}

let daemonCacheDir: string | undefined;
// A vitest fork may end without its process 'exit' event: the file's own afterAll removes the folder.
afterAll(() => {
  if (daemonCacheDir !== undefined) rmSync(daemonCacheDir, { recursive: true, force: true });
  daemonCacheDir = undefined;
});

/** This test file's folder for Codex's daemon install (one process per file), removed as it exits. */
function daemonCache(): string {
  if (daemonCacheDir === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'rec-codex-daemon-cache-'));
    daemonCacheDir = dir;
  }
  return daemonCacheDir;
}

export async function startRec(opts: RecSessionOptions = {}): Promise<RecSession> {
  noteNetworkIsolation();
  const server = await startResponsesServer({ ...(opts.scenarios ? { scenarios: opts.scenarios } : {}), ...(opts.reviewer ? { reviewer: opts.reviewer } : {}) });
  const env = createEnv({ baseUrl: server.baseUrl, token: server.token, ...(opts.mcpServer ? { extraToml: markerMcpToml() } : {}) });
  // Codex copies its daemon package into every new home before its first turn; as rec doctor does,
  // the first install of this test file is handed on as hard links (daemonPackage.ts).
  seedDaemonPackage(daemonCache(), env.codexHome);
  opts.prepare?.(env);
  const dbPath = join(env.baseDir, 'rec.db');
  const base = startAgentSession({
    agent: 'codex',
    bin: AGENT_BIN,
    dbPath,
    cwd: env.workDir,
    ...(opts.args ? { args: opts.args } : {}),
    env: {
      ...env.env,
      REC_CODEX_BIN: AGENT_BIN,
      ...(process.env.REC_CODEX_HOOKS ? { REC_CODEX_HOOKS: process.env.REC_CODEX_HOOKS } : {}),
      ...opts.env,
    },
    ...(opts.cols !== undefined ? { cols: opts.cols } : {}),
    ...(opts.rows !== undefined ? { rows: opts.rows } : {}),
    timeoutMs: STEP_TIMEOUT_MS,
    // Codex treats a burst ending in Enter as a paste.
    typed: (text) => `› ${text}`,
    stopProcesses: (pids) => env.stopProcesses(pids),
    ...(opts.managedNetwork ? { wrap: (command: string, args: readonly string[]) => withManagedNetwork(env.baseDir, command, args) } : {}),
  });
  const rec = base.proc;
  const driver: Driver = base.driver;
  const rolloutFile = (): string => {
    const files = env.rolloutFiles().filter((f) => !isReviewerRollout(f));
    if (files.length !== 1) throw new Error(`expected one rollout in ${env.codexHome}/sessions, found ${files.length}`);
    return files[0]!;
  };
  let disposed = false;
  return {
    rec,
    env,
    server,
    dbPath,
    driver,
    async quit() {
      for (let attempt = 0; attempt < 3 && !rec.exitStatus; attempt += 1) {
        rec.sendKey('ctrl-c');
        // Codex printing how to resume has quit (at times on the first press): rec is reconciling,
        // and one more Ctrl+C would reach rec itself, not Codex.
        if ((await rec.expect([EOF, TIMEOUT, CODEX_QUIT_TEXT], QUIT_WAIT_MS)) !== 1) break;
      }
      return rec.expectExit(REC_EXIT_TIMEOUT_MS);
    },
    rows: base.rows,
    rolloutCalls: () => readRolloutCalls(rolloutFile()),
    rolloutFile,
    async dispose() {
      if (disposed) return;
      disposed = true;
      await base.stop();
      await server.close();
      keepDaemonPackage(daemonCache(), env.codexHome);
      await env.dispose();
    },
  };
}

/**
 * Auto-review's reviewer keeps a thread of its own, in a second rollout with the session's cwd and
 * session_id (docs/codex-auto-review.md §4b): its session_meta names the parent thread.
 */
function isReviewerRollout(file: string): boolean {
  const first = readFileSync(file, 'utf8').split('\n', 1)[0] ?? '';
  try {
    const meta = JSON.parse(first) as { payload?: { parent_thread_id?: unknown; thread_source?: unknown } };
    return (meta.payload?.parent_thread_id ?? null) !== null || meta.payload?.thread_source === 'guardian_review';
  } catch {
    return false; // A rollout still being written: it is not told apart here, and the count check says so.
  }
}

/** Waits until Codex shows its composer (and so has connected to its daemon). */
export async function waitReady(s: RecSession): Promise<void> {
  await s.rec.expectScreen(/Ask Codex to do anything/, START_TIMEOUT_MS);
}
