// Gemini's row of the sessions suite (test/support/sessionsSuite.ts): its chat files, found by the
// scan every user but root gets (no runtime dir: no hook), so that two panes with the same words may
// leave rec unsure which is whose; Enter approves and Esc refuses; `--resume latest` and
// `--resume <id>` go on with one. Gemini deletes a session with nothing worth resuming as it exits:
// the files are read from copies kept as they change (SessionSnapshots).
import { join } from 'node:path';
import { KEY, promptFor, quitGemini, SCREEN } from '../../../src/agents/gemini/bench/recordedScenarios.js';
import { settle, type Driver } from '../../../src/lab/driver.js';
import { startGenerateContentServer } from '../../../src/lab/mock/googleGenerateContent/server.js';
import { EOF, spawn, TIMEOUT, type Spawned } from '../../../src/lab/spawn.js';
import { noteNetworkIsolation } from '../networkIsolation.js';
import { assertBuilt, REC_BIN } from '../recBin.js';
import { recordCount, stopWorld, type SessionsCase, type SessionsPane, type SessionsWorld } from '../sessionsSuite.js';
import { AGENT_BIN, AGENT_VERSION, createEnv, GEMINI_MODEL } from './env.js';
import { readToolCalls, SessionSnapshots } from './sessionSnapshots.js';

const START_TIMEOUT_MS = 90_000;
const STEP_TIMEOUT_MS = 45_000;
const REC_EXIT_TIMEOUT_MS = 30_000;

function pane(rec: Spawned): SessionsPane {
  const driver: Driver = {
    waitScreen: async (re, _label, timeoutMs = STEP_TIMEOUT_MS) => void (await rec.expectScreen(re, timeoutMs)),
    send: (data) => rec.send(data),
    async line(text) {
      rec.send(text);
      await rec.expectScreen(text);
      // Gemini 0.61 takes an Enter within 30 ms of the previous key as a newline (test/support/gemini/recSession.ts).
      await settle();
      rec.sendKey('enter');
    },
    resize: (cols, rows) => rec.resize(cols, rows),
    snap: () => undefined,
    screen: () => rec.screen(),
  };
  return {
    async ask(words) {
      await rec.expectScreen(SCREEN.ready, START_TIMEOUT_MS);
      await driver.line(words);
      await rec.expectScreen(SCREEN.shellDialog);
    },
    async approve() {
      await settle();
      rec.send(KEY.enter);
      await rec.expectScreen(SCREEN.final);
    },
    async refuse() {
      await settle();
      rec.send(KEY.esc);
      await rec.expectScreen(SCREEN.cancelled);
    },
    async quit() {
      await quitGemini(driver, async (ms) => (await rec.expect([EOF, TIMEOUT], ms)) === 0);
      return (await rec.expectExit(REC_EXIT_TIMEOUT_MS)).exitCode;
    },
  };
}

async function startWorld(): Promise<SessionsWorld> {
  noteNetworkIsolation();
  const server = await startGenerateContentServer({ modelName: GEMINI_MODEL });
  const env = createEnv({ baseUrl: server.baseUrl, token: server.token, proxyUrl: server.baseUrl });
  const snapshots = new SessionSnapshots(env.chatsDir);
  const recs: Spawned[] = [];
  return {
    baseDir: env.baseDir,
    workDir: env.workDir,
    env: env.env,
    start(name, args = []) {
      const rec = spawn(process.execPath, [REC_BIN, '--db', join(env.baseDir, `${name}.db`), 'gemini', ...args], {
        cols: 120,
        rows: 40,
        cwd: env.workDir,
        env: { ...env.env, REC_GEMINI_BIN: AGENT_BIN },
        timeoutMs: STEP_TIMEOUT_MS,
      });
      recs.push(rec);
      return pane(rec);
    },
    sessionFiles() {
      snapshots.sample();
      return [...snapshots.contents.entries()].map(([file, text]) => ({
        file,
        calls: readToolCalls(text).map((c) => ({ id: c.callId, ran: c.status === 'success', refused: c.status === 'cancelled' })),
        lines: recordCount(text),
      }));
    },
    async dispose() {
      snapshots.stop();
      await stopWorld({ env, recs, server });
    },
  };
}

export const SESSIONS: SessionsCase = {
  title: `rec gemini on the real Gemini ${AGENT_VERSION}, found by scanning: the right chat file, always`,
  agentName: 'gemini',
  testTimeoutMs: 300_000,
  assertRunnable: assertBuilt,
  startWorld,
  words: { first: promptFor('shell'), again: `${promptFor('shell')} once more` },
  // The session to go on with: the latest one, or one named by its id.
  resumeWays: [
    { how: '--resume latest', args: () => ['--resume', 'latest'] },
    { how: '--resume <id>', args: (id) => ['--resume', id] },
  ],
  mayBeAmbiguous: true,
  mayLeaveEmptySession: true,
  newLinesNameEarlierCalls: true,
};
