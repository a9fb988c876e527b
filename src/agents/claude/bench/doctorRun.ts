// One conformance scenario on an installed Claude Code: a fresh mock Messages server on 127.0.0.1, a
// fresh isolated HOME (env.ts: an API key for the mock, no login of the user's, telemetry, error
// reports and the autoupdater off, proxies on the mock's guard), `rec claude` in a pty playing the
// key script, and what it recorded.
import { join } from 'node:path';
import type { RecordedScenario } from '../../../lab/driver.js';
import { startMessagesServer } from '../../../lab/mock/anthropicMessages/server.js';
import { startRecUnderPty } from '../../../lab/recUnderPty.js';
import { playScenario, type ScenarioRun } from '../../../lab/scenarioRun.js';
import { createClaudeEnv } from './env.js';
import { quitClaude, SCENARIOS, SCREEN, type ClaudeDriver } from './recordedScenarios.js';

/** Claude Code draws its first screen in 4-6 s on two shared cores (a 380 MB native binary); allow far more. */
const START_TIMEOUT_MS = 60_000;
/** Any one screen change after a key or a model reply. */
const STEP_TIMEOUT_MS = 30_000;
/** rec reads the transcript for a while after Claude Code exits, then closes the database. */
const EXIT_TIMEOUT_MS = 30_000;

export function claudeScript(name: string): RecordedScenario | undefined {
  return SCENARIOS.find((s) => s.name === name);
}

export async function runClaudeScenario(o: { readonly recJs: string; readonly agentBin: string; readonly version: string; readonly script: RecordedScenario; readonly debugLog?: string }): Promise<ScenarioRun> {
  const server = await startMessagesServer();
  const env = createClaudeEnv({ baseUrl: server.baseUrl, token: server.token, version: o.version, prefix: 'rec-doctor-claude-' });
  const dbPath = join(env.baseDir, 'rec.db');
  const session = startRecUnderPty({
    recJs: o.recJs,
    agent: 'claude',
    dbPath,
    cwd: env.workDir,
    env: { ...env.env, REC_CLAUDE_BIN: o.agentBin },
    debugLog: o.debugLog,
    cols: o.script.cols,
    rows: o.script.rows,
    timeoutMs: STEP_TIMEOUT_MS,
    typed: (text) => `❯\u00a0${text}`,
  });
  const driver: ClaudeDriver = { ...session.driver, waitStream: async (p, t = STEP_TIMEOUT_MS) => void (await server.waitForStream(p, t)) };
  const played = await playScenario({
    proc: session.proc,
    ready: SCREEN.ready,
    startTimeoutMs: START_TIMEOUT_MS,
    play: () => o.script.run(driver),
    quit: async () => {
      await quitClaude(driver);
      await session.proc.expectExit(EXIT_TIMEOUT_MS);
    },
    dbPath,
    stopProcesses: () => env.stopProcesses([session.proc.pid]),
    cleanup: async () => {
      await env.dispose();
      await server.close();
    },
  });
  const escapes = server.requests.filter((r) => r.kind === 'escape');
  return {
    ...played,
    issuedCallIds: [...server.toolUseIds],
    modelTurns: server.requests.filter((r) => r.kind === 'turn').length,
    // The guard refused it, but a try to leave loopback is a failure of the isolation all the same.
    error: played.error ?? (escapes.length > 0 ? `Claude Code tried to reach ${escapes[0]!.path} outside 127.0.0.1 (refused)` : null),
  };
}
