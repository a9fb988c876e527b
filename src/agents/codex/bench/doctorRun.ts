// One conformance scenario on an installed Codex: a fresh mock Responses server on 127.0.0.1, a fresh
// isolated CODEX_HOME and HOME (env.ts: no login, no update check, no analytics, proxies on a dead
// loopback port), `rec codex` in a pty playing the key script, and what it recorded.
import { join } from 'node:path';
import type { RecordedScenario } from '../../../lab/driver.js';
import { startResponsesServer } from '../../../lab/mock/openaiResponses/server.js';
import { startRecUnderPty } from '../../../lab/recUnderPty.js';
import { playScenario, type ScenarioRun } from '../../../lab/scenarioRun.js';
import { keepDaemonPackage, seedDaemonPackage } from './daemonPackage.js';
import { createCodexEnv } from './env.js';
import { SCENARIOS, SCREEN } from './recordedScenarios.js';

/** Codex draws its composer in about a second; its daemon's first start on loaded cores takes far longer. */
const START_TIMEOUT_MS = 60_000;
/** Any one screen change after a key or a model reply. */
const STEP_TIMEOUT_MS = 30_000;

export function codexScript(name: string): RecordedScenario | undefined {
  return SCENARIOS.find((s) => s.name === name);
}

export async function runCodexScenario(o: { readonly recJs: string; readonly agentBin: string; readonly script: RecordedScenario; readonly cacheDir?: string; readonly debugLog?: string }): Promise<ScenarioRun> {
  const server = await startResponsesServer();
  const env = createCodexEnv({ baseUrl: server.baseUrl, token: server.token, prefix: 'rec-doctor-codex-' });
  if (o.cacheDir !== undefined) seedDaemonPackage(o.cacheDir, env.codexHome);
  const dbPath = join(env.baseDir, 'rec.db');
  const session = startRecUnderPty({
    recJs: o.recJs,
    agent: 'codex',
    dbPath,
    cwd: env.workDir,
    env: { ...env.env, REC_CODEX_BIN: o.agentBin },
    debugLog: o.debugLog,
    cols: o.script.cols,
    rows: o.script.rows,
    timeoutMs: STEP_TIMEOUT_MS,
    // Codex treats a burst ending in Enter as a paste.
    typed: (text) => `› ${text}`,
  });
  const played = await playScenario({
    proc: session.proc,
    ready: SCREEN.ready,
    startTimeoutMs: START_TIMEOUT_MS,
    play: () => o.script.run(session.driver),
    quit: async () => void (await session.quit()),
    dbPath,
    stopProcesses: () => env.stopProcesses([session.proc.pid]),
    cleanup: async () => {
      if (o.cacheDir !== undefined) keepDaemonPackage(o.cacheDir, env.codexHome);
      await env.dispose();
      await server.close();
    },
  });
  return {
    ...played,
    issuedCallIds: server.calls.map((c) => c.callId),
    modelTurns: server.requests.filter((r) => r.kind === 'turn').length,
  };
}
