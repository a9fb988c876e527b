// Codex's row of the sessions suite (test/support/sessionsSuite.ts): its rollouts, found by scanning
// CODEX_HOME/sessions; y approves and Esc refuses; `resume --last` and `resume <id>` go on with one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEY, SCREEN } from '../../../src/agents/codex/bench/recordedScenarios.js';
import { settle } from '../../../src/lab/driver.js';
import { startResponsesServer } from '../../../src/lab/mock/openaiResponses/server.js';
import { EOF, spawn, TIMEOUT, type Spawned } from '../../../src/lab/spawn.js';
import { noteNetworkIsolation } from '../networkIsolation.js';
import { assertBuilt, REC_BIN } from '../recBin.js';
import { recordCount, stopWorld, type SessionsCase, type SessionsPane, type SessionsWorld } from '../sessionsSuite.js';
import { AGENT_BIN, AGENT_VERSION, createEnv } from './env.js';
import { readRolloutCalls } from './rolloutCalls.js';

const START_TIMEOUT_MS = 60_000;
const STEP_TIMEOUT_MS = 30_000;
const QUIT_WAIT_MS = 2_000;
const REC_EXIT_TIMEOUT_MS = 30_000;
/** The same words in every pane: the mock proposes the same command to each. */
const SHELL_PROMPT = 'SCN=shell please write the file';

/** A deciding key, after a person's reaction time (KEY_SETTLE_MS: Codex drops a key sent the instant a prompt appears). */
async function decide(rec: Spawned, key: string): Promise<void> {
  await settle();
  rec.send(key);
}

function pane(rec: Spawned): SessionsPane {
  return {
    async ask(words) {
      await rec.expectScreen(SCREEN.ready, START_TIMEOUT_MS);
      // Enter only once the words show (Codex takes a burst ending in Enter as a paste).
      rec.send(words);
      await rec.expectScreen(`› ${words}`);
      rec.sendKey('enter');
      await rec.expectScreen(SCREEN.promptFooter);
    },
    async approve() {
      await decide(rec, 'y');
      await rec.expectScreen(SCREEN.done);
    },
    async refuse() {
      await decide(rec, KEY.esc);
      await rec.expectScreen(SCREEN.canceled);
    },
    // Ctrl+C at the idle composer, as a user quits; waits until rec has exited.
    async quit() {
      for (let attempt = 0; attempt < 3 && !rec.exitStatus; attempt += 1) {
        rec.sendKey('ctrl-c');
        if ((await rec.expect([EOF, TIMEOUT], QUIT_WAIT_MS)) === 0) break;
      }
      return (await rec.expectExit(REC_EXIT_TIMEOUT_MS)).exitCode;
    },
  };
}

async function startWorld(): Promise<SessionsWorld> {
  noteNetworkIsolation();
  const server = await startResponsesServer({});
  const env = createEnv({ baseUrl: server.baseUrl, token: server.token });
  const recs: Spawned[] = [];
  return {
    baseDir: env.baseDir,
    workDir: env.workDir,
    env: env.env,
    start(name, args = []) {
      const rec = spawn(process.execPath, [REC_BIN, '--db', join(env.baseDir, `${name}.db`), 'codex', ...args], {
        cols: 120,
        rows: 40,
        cwd: env.workDir,
        env: { ...env.env, REC_CODEX_BIN: AGENT_BIN },
        timeoutMs: STEP_TIMEOUT_MS,
      });
      recs.push(rec);
      return pane(rec);
    },
    sessionFiles: () =>
      env.rolloutFiles().map((file) => ({
        file,
        calls: readRolloutCalls(file).map((c) => ({ id: c.callId, ran: c.ranPerRollout, refused: /aborted by user/.test(c.output ?? '') })),
        lines: recordCount(readFileSync(file, 'utf8')),
      })),
    async dispose() {
      await stopWorld({ env, recs, server });
    },
  };
}

export const SESSIONS: SessionsCase = {
  title: `rec codex on the real Codex ${AGENT_VERSION}: the right rollout, always`,
  agentName: 'codex',
  testTimeoutMs: 180_000,
  assertRunnable: assertBuilt,
  startWorld,
  words: { first: SHELL_PROMPT, again: `${SHELL_PROMPT} once more` },
  // The session to go on with: the last one, or one named by its id.
  resumeWays: [
    { how: 'resume --last', args: () => ['resume', '--last'] },
    { how: 'resume <id>', args: (id) => ['resume', id] },
  ],
  mayBeAmbiguous: false,
};
