// One conformance scenario on an installed GitHub Copilot CLI: a fresh mock Messages server on
// 127.0.0.1 (BYOK, provider type anthropic, its per-run key), a fresh isolated HOME and COPILOT_HOME
// (env.ts: offline mode, no login, no telemetry or auto-update, proxies on the mock's guard), `rec
// copilot` in a pty playing the key script, and what it recorded.
import { join } from 'node:path';
import type { RecordedScenario } from '../../../lab/driver.js';
import { startMessagesServer } from '../../../lab/mock/anthropicMessages/server.js';
import { startRecUnderPty } from '../../../lab/recUnderPty.js';
import { playScenario, type ScenarioRun } from '../../../lab/scenarioRun.js';
import { createCopilotEnv } from './env.js';
import { COPILOT_SCENARIOS } from './mockScenarios.js';
import { quitCopilot, SCENARIOS, SCREEN, type CopilotDriver } from './recordedScenarios.js';

/** Copilot draws its first screen in a few seconds on two shared cores (it unpacks its JavaScript once per cache); allow far more. */
const START_TIMEOUT_MS = 60_000;
/** Any one screen change after a key or a model reply. */
const STEP_TIMEOUT_MS = 30_000;
/** rec reads events.jsonl for a while after Copilot exits, then closes the database. */
const EXIT_TIMEOUT_MS = 30_000;

export function copilotScript(name: string): RecordedScenario | undefined {
  return SCENARIOS.find((s) => s.name === name);
}

/** What the composer shows once `text` is typed (Enter is pressed only then). */
export function copilotTyped(text: string): RegExp {
  return new RegExp(`^❯ ${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`, 'm');
}

export async function runCopilotScenario(o: {
  readonly recJs: string;
  readonly agentBin: string;
  readonly script: RecordedScenario;
  readonly cacheDir?: string;
  readonly debugLog?: string;
}): Promise<ScenarioRun> {
  const server = await startMessagesServer({ scenarios: COPILOT_SCENARIOS });
  // The unpacked JavaScript (COPILOT_PKG_CACHE_HOME) is the same for every scenario: unpacked once per doctor run.
  const env = createCopilotEnv({ baseUrl: server.baseUrl, token: server.token, prefix: 'rec-doctor-copilot-', ...(o.cacheDir ? { pkgCacheHome: join(o.cacheDir, 'pkg-cache') } : {}) });
  const dbPath = join(env.baseDir, 'rec.db');
  const session = startRecUnderPty({
    recJs: o.recJs,
    agent: 'copilot',
    dbPath,
    cwd: env.workDir,
    env: { ...env.env, REC_COPILOT_BIN: o.agentBin },
    debugLog: o.debugLog,
    cols: o.script.cols,
    rows: o.script.rows,
    timeoutMs: STEP_TIMEOUT_MS,
    typed: copilotTyped,
  });
  const driver: CopilotDriver = { ...session.driver, waitStream: async (p, t = STEP_TIMEOUT_MS) => void (await server.waitForStream(p, t)) };
  const played = await playScenario({
    proc: session.proc,
    ready: SCREEN.idle,
    startTimeoutMs: START_TIMEOUT_MS,
    play: () => o.script.run(driver),
    quit: async () => {
      await quitCopilot(driver);
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
    error: played.error ?? (escapes.length > 0 ? `Copilot tried to reach ${escapes[0]!.path} outside 127.0.0.1 (refused)` : null),
  };
}
