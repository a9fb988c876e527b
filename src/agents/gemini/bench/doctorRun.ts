// One conformance scenario on an installed Gemini CLI: a fresh mock Gemini API on 127.0.0.1 (also the
// proxy, so any attempt to leave the machine is refused and seen), a fresh isolated HOME (env.ts:
// API-key auth with the mock's per-run key, no update check, no usage statistics, no telemetry),
// `rec gemini` in a pty playing the key script, and what it recorded.
import { join } from 'node:path';
import { settle, type RecordedScenario } from '../../../lab/driver.js';
import type { ContentReply, ContentScenario } from '../../../lab/mock/googleGenerateContent/scenarios.js';
import { CONTENT_SCENARIOS } from '../../../lab/mock/googleGenerateContent/scenarios.js';
import { startGenerateContentServer } from '../../../lab/mock/googleGenerateContent/server.js';
import { startRecUnderPty } from '../../../lab/recUnderPty.js';
import { playScenario, type ScenarioRun } from '../../../lab/scenarioRun.js';
import { EOF, TIMEOUT } from '../../../lab/spawn.js';
import { createGeminiEnv, GEMINI_MODEL, geminiIsolationProblem } from './env.js';
import { quitGemini, SCENARIOS, SCREEN } from './recordedScenarios.js';

/** Gemini draws its composer after 10-20 s on two loaded cores (it relaunches itself once). */
const START_TIMEOUT_MS = 90_000;
/** Any one screen change after a key or a model reply. */
const STEP_TIMEOUT_MS = 45_000;
/** The separator of Gemini 0.61.0's call ids: `<tool name>__<the model's id>`. */
const CALL_ID_SEPARATOR = '__';

export function geminiScript(name: string): RecordedScenario | undefined {
  return SCENARIOS.find((s) => s.name === name);
}

/** Why Gemini cannot be isolated here (the machine's own settings would win), or undefined. */
export function geminiDoctorRefusal(): string | undefined {
  return geminiIsolationProblem({});
}

/**
 * The mock's scenarios with an id on every call: Gemini then names the call `<name>__<id>`, so each
 * call id rec records can be checked against the calls the mock really asked for.
 */
function withCallIds(scenarios: Readonly<Record<string, ContentScenario>>): Record<string, ContentScenario> {
  const named = (scenario: string, step: number, reply: ContentReply): ContentReply =>
    reply.type === 'calls' ? { ...reply, calls: reply.calls.map((c, i) => ({ ...c, id: c.id ?? `${c.name}_rec_${scenario}_${step}_${i}` })) } : reply;
  const out: Record<string, ContentScenario> = {};
  for (const [name, s] of Object.entries(scenarios)) {
    out[name] = typeof s === 'function' ? (ctx) => named(name, ctx.step, s(ctx)) : s.map((reply, step) => named(name, step, reply));
  }
  return out;
}

export async function runGeminiScenario(o: { readonly recJs: string; readonly agentBin: string; readonly script: RecordedScenario; readonly debugLog?: string }): Promise<ScenarioRun> {
  const server = await startGenerateContentServer({ scenarios: withCallIds(CONTENT_SCENARIOS), modelName: GEMINI_MODEL });
  const env = createGeminiEnv({ baseUrl: server.baseUrl, token: server.token, proxyUrl: server.baseUrl, prefix: 'rec-doctor-gemini-' });
  const dbPath = join(env.baseDir, 'rec.db');
  const session = startRecUnderPty({
    recJs: o.recJs,
    agent: 'gemini',
    dbPath,
    cwd: env.workDir,
    env: { ...env.env, REC_GEMINI_BIN: o.agentBin },
    debugLog: o.debugLog,
    cols: o.script.cols,
    rows: o.script.rows,
    timeoutMs: STEP_TIMEOUT_MS,
    typed: (text) => text,
    // Gemini 0.61 turns an Enter within 30 ms of the previous key into a newline (a paste guard).
    beforeEnter: settle,
  });
  const played = await playScenario({
    proc: session.proc,
    ready: SCREEN.ready,
    startTimeoutMs: START_TIMEOUT_MS,
    play: () => o.script.run(session.driver),
    quit: async () => {
      await quitGemini(session.driver, async (ms) => (await session.proc.expect([EOF, TIMEOUT], ms)) === 0);
      await session.proc.expectExit(STEP_TIMEOUT_MS);
    },
    dbPath,
    stopProcesses: () => env.stopProcesses([session.proc.pid]),
    cleanup: async () => {
      await env.dispose();
      await server.close();
    },
  });
  const escapes = server.requests.filter((r) => r.kind === 'guard' || r.kind === 'denied');
  const error = played.error ?? (escapes.length === 0 ? null : `Gemini sent ${escapes.length} request(s) rec's mock refused (first: ${escapes[0]!.kind} ${escapes[0]!.path})`);
  return {
    ...played,
    issuedCallIds: server.calls.flatMap((c) => (c.id === undefined ? [] : [`${c.name}${CALL_ID_SEPARATOR}${c.id}`])),
    modelTurns: server.requests.filter((r) => r.kind === 'turn').length,
    error,
  };
}
