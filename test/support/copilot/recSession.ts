// One e2e run: the mock Messages server playing Copilot's scenarios, a fresh isolated HOME and
// COPILOT_HOME, and either `rec --db <file> copilot` or plain copilot (the smoke test) under the
// pexpect-style harness; a Driver over it so the key scripts in
// src/agents/copilot/bench/recordedScenarios.ts drive it exactly as they drove plain copilot for
// the fixtures.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Spawned } from '../../../src/lab/spawn.js';
import { startMessagesServer, type MessagesServer } from '../../../src/lab/mock/anthropicMessages/server.js';
import { COPILOT_SCENARIOS } from '../../../src/agents/copilot/bench/mockScenarios.js';
import { copilotTyped } from '../../../src/agents/copilot/bench/doctorRun.js';
import { quitCopilot, SCREEN, type CopilotDriver } from '../../../src/agents/copilot/bench/recordedScenarios.js';
import { noteNetworkIsolation } from '../networkIsolation.js';
import { builtMissing, REC_BIN } from '../recBin.js';
import { startAgentSession } from '../recSession.js';
import type { EventRow } from '../sidecarRows.js';
import { AGENT_BIN, AGENT_VERSION, createEnv, type AgentEnv } from './env.js';

/** Copilot draws its first screen in a few seconds on two shared cores (it unpacks its JavaScript once per cache); allow far more. */
export const START_TIMEOUT_MS = 60_000;
/** Any one screen change after a key or a model reply. */
export const STEP_TIMEOUT_MS = 30_000;
/** rec reads events.jsonl for a while after Copilot exits, then closes the database. */
const EXIT_TIMEOUT_MS = 30_000;

export interface RecSessionOptions {
  /** Plain copilot, not under rec (the smoke test). */
  readonly bare?: boolean;
  readonly cols?: number;
  readonly rows?: number;
  /** The user's own flags for copilot (`--continue`, `--deny-tool …`), passed as given. */
  readonly args?: readonly string[];
  /** Copilot gets the one-tool MCP server (env.ts). */
  readonly mcpServer?: boolean;
  /** Leave the work dir untrusted: the folder-trust dialog shows at start. */
  readonly untrusted?: boolean;
  /** An existing world to start in (a second run in the same folder, a resumed session); not disposed by this session. */
  readonly world?: { readonly env: AgentEnv; readonly server: MessagesServer };
  /** Where the CLI unpacks its JavaScript (COPILOT_PKG_CACHE_HOME), shared across runs of a suite. */
  readonly pkgCacheHome?: string;
  /** The database, when several runs share one. */
  readonly dbPath?: string;
  /** More variables for rec and Copilot (REC_DEBUG, REC_DEBUG_LOG). */
  readonly env?: NodeJS.ProcessEnv;
}

export interface RecSession {
  readonly proc: Spawned;
  readonly env: AgentEnv;
  readonly server: MessagesServer;
  readonly dbPath: string;
  readonly driver: CopilotDriver;
  /** Ends Copilot as a user would (Ctrl+C twice at the idle prompt) and waits until rec (or copilot) exited. */
  quit(): Promise<{ exitCode: number; signal: number | undefined }>;
  rows(): EventRow[];
  /** `rec <command> --run <id> --db <db>` (merge, stats --json) on this run's database, parsed. */
  recJson(command: 'merge' | 'stats', runId: string): unknown;
  /** Stops rec, Copilot and everything they started, by pid; closes the mock and removes the world it made. */
  dispose(): Promise<void>;
}

/** Why the e2e cannot run here, or null: the pinned package must be installed, and rec built. */
export function missingPart(): string | null {
  if (!AGENT_BIN) return `@github/copilot ${AGENT_VERSION} is not installed (npm ci)`;
  return builtMissing();
}

export async function startRec(opts: RecSessionOptions = {}): Promise<RecSession> {
  noteNetworkIsolation();
  const bin = AGENT_BIN;
  if (!bin) throw new Error('@github/copilot is not installed');
  const owned = opts.world === undefined;
  const server = opts.world?.server ?? (await startMessagesServer({ scenarios: COPILOT_SCENARIOS }));
  const env =
    opts.world?.env ??
    createEnv({
      baseUrl: server.baseUrl,
      token: server.token,
      ...(opts.mcpServer ? { mcpServer: true } : {}),
      ...(opts.untrusted ? { untrusted: true } : {}),
      ...(opts.pkgCacheHome ? { pkgCacheHome: opts.pkgCacheHome } : {}),
    });
  const dbPath = opts.dbPath ?? join(env.baseDir, 'rec.db');
  const base = startAgentSession({
    agent: 'copilot',
    bin,
    ...(opts.bare ? { bare: true } : {}),
    ...(opts.args ? { args: opts.args } : {}),
    dbPath,
    cwd: env.workDir,
    env: { ...env.env, REC_COPILOT_BIN: bin, ...opts.env },
    ...(opts.cols !== undefined ? { cols: opts.cols } : {}),
    ...(opts.rows !== undefined ? { rows: opts.rows } : {}),
    timeoutMs: STEP_TIMEOUT_MS,
    typed: copilotTyped,
    stopProcesses: (pids) => env.stopProcesses(pids),
  });
  const proc = base.proc;
  const driver: CopilotDriver = {
    ...base.driver,
    async waitStream(predicate, timeoutMs = STEP_TIMEOUT_MS) {
      await server.waitForStream(predicate, timeoutMs);
    },
  };
  let disposed = false;
  return {
    proc,
    env,
    server,
    dbPath,
    driver,
    async quit() {
      await quitCopilot(driver);
      return proc.expectExit(EXIT_TIMEOUT_MS);
    },
    rows: base.rows,
    recJson(command, runId) {
      const args = command === 'stats' ? ['stats', '--json'] : ['merge'];
      const out = execFileSync(process.execPath, [REC_BIN, ...args, '--run', runId, '--db', dbPath], { cwd: env.workDir, env: env.env, encoding: 'utf8' });
      return JSON.parse(out) as unknown;
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      await base.stop();
      if (!owned) return;
      await server.close();
      await env.dispose();
    },
  };
}

/** Waits until Copilot shows its idle composer. */
export async function waitReady(s: RecSession): Promise<void> {
  await s.proc.expectScreen(SCREEN.idle, START_TIMEOUT_MS);
}
