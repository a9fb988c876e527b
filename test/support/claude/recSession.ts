// One e2e run: the mock Messages server, a fresh isolated HOME, and either `rec --db <file> claude` or
// plain claude (the smoke test) under the pexpect-style harness with the pinned Claude Code; a Driver
// over it so the scenario scripts in src/agents/claude/bench/recordedScenarios.ts drive it exactly as they drove plain claude
// for the fixtures.
import { join } from 'node:path';
import type { Spawned } from '../../../src/lab/spawn.js';
import { startMessagesServer, type Classifier, type MessagesServer } from '../../../src/lab/mock/anthropicMessages/server.js';
import { noteNetworkIsolation } from '../networkIsolation.js';
import { builtMissing } from '../recBin.js';
import { startAgentSession } from '../recSession.js';
import type { EventRow } from '../sidecarRows.js';
import { AGENT_VERSION, AGENT_BIN, createEnv, type AgentEnv } from './env.js';
import { quitClaude, SCREEN, type ClaudeDriver } from '../../../src/agents/claude/bench/recordedScenarios.js';
import { readTranscript } from './transcriptCalls.js';

/** Claude Code draws its first screen in 4-6 s on two shared cores (a 380 MB native binary); allow far more. */
export const START_TIMEOUT_MS = 60_000;
/** Any one screen change after a key or a model reply. */
export const STEP_TIMEOUT_MS = 30_000;
/** rec reads the transcript for a while after Claude Code exits, then closes the database. */
const EXIT_TIMEOUT_MS = 30_000;

export interface RecSessionOptions {
  /** Plain claude, not under rec (the smoke test). */
  readonly bare?: boolean;
  readonly cols?: number;
  readonly rows?: number;
  readonly env?: NodeJS.ProcessEnv;
  /** The user's own flags for claude (e.g. the inline renderer's --settings), passed as given. */
  readonly args?: readonly string[];
  /** More keys for the user's `~/.claude/settings.json`. */
  readonly userSettings?: Record<string, unknown>;
  /** Claude Code gets the one-tool MCP server (claudeEnv's mcpServer). */
  readonly mcpServer?: boolean;
  /** The mock's auto-mode classifier (default: every call not_flagged). */
  readonly classifier?: Classifier;
}

export interface RecSession {
  readonly proc: Spawned;
  readonly env: AgentEnv;
  readonly server: MessagesServer;
  readonly dbPath: string;
  readonly driver: ClaudeDriver;
  /** Ends Claude Code as a user would (Ctrl+C twice at the idle prompt) and waits until rec (or claude) exited. */
  quit(): Promise<{ exitCode: number; signal: number | undefined }>;
  rows(): EventRow[];
  /** The one session transcript of this run. */
  transcriptFile(): string;
  transcript(): ReturnType<typeof readTranscript>;
  /** Stops rec, Claude Code and everything they started, by pid; closes the mock; removes the temp dir. */
  dispose(): Promise<void>;
}

/** Why the e2e cannot run here, or null: the pinned package must be installed, and rec built. */
export function missingPart(): string | null {
  if (!AGENT_BIN) return `@anthropic-ai/claude-code ${AGENT_VERSION} is not installed (npm ci)`;
  return builtMissing();
}

export async function startRec(opts: RecSessionOptions = {}): Promise<RecSession> {
  noteNetworkIsolation();
  const bin = AGENT_BIN;
  if (!bin) throw new Error('@anthropic-ai/claude-code is not installed');
  const server = await startMessagesServer(opts.classifier ? { classifier: opts.classifier } : {});
  const env = createEnv({ baseUrl: server.baseUrl, token: server.token, ...(opts.userSettings ? { userSettings: opts.userSettings } : {}), ...(opts.mcpServer ? { mcpServer: true } : {}) });
  const dbPath = join(env.baseDir, 'rec.db');
  const base = startAgentSession({
    agent: 'claude',
    bin,
    ...(opts.bare ? { bare: true } : {}),
    ...(opts.args ? { args: opts.args } : {}),
    dbPath,
    cwd: env.workDir,
    env: { ...env.env, REC_CLAUDE_BIN: bin, ...opts.env },
    ...(opts.cols !== undefined ? { cols: opts.cols } : {}),
    ...(opts.rows !== undefined ? { rows: opts.rows } : {}),
    timeoutMs: STEP_TIMEOUT_MS,
    typed: (text) => `❯\u00a0${text}`,
    stopProcesses: (pids) => env.stopProcesses(pids),
  });
  const proc = base.proc;
  const driver: ClaudeDriver = {
    ...base.driver,
    async waitStream(predicate, timeoutMs = STEP_TIMEOUT_MS) {
      await server.waitForStream(predicate, timeoutMs);
    },
  };
  const transcriptFile = (): string => {
    const files = env.transcripts();
    if (files.length !== 1) throw new Error(`expected one transcript under ${env.home}/.claude/projects, found ${files.length}`);
    return files[0]!;
  };
  let disposed = false;
  return {
    proc,
    env,
    server,
    dbPath,
    driver,
    async quit() {
      await quitClaude(driver);
      return proc.expectExit(EXIT_TIMEOUT_MS);
    },
    rows: base.rows,
    transcriptFile,
    transcript: () => readTranscript(transcriptFile()),
    async dispose() {
      if (disposed) return;
      disposed = true;
      await base.stop();
      await server.close();
      await env.dispose();
    },
  };
}

/** Waits until Claude Code shows its input prompt. */
export async function waitReady(s: RecSession): Promise<void> {
  await s.proc.expectScreen(SCREEN.ready, START_TIMEOUT_MS);
}
