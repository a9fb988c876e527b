// GitHub Copilot CLI's row of the sessions suite (test/support/sessionsSuite.ts): its events.jsonl
// files, one folder per session under ~/.copilot/session-state, found by scanning (rec installs no
// hook); 1 approves and Esc refuses; `--continue` and `--resume=<id>` append to the same file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { copilotTyped } from '../../../src/agents/copilot/bench/doctorRun.js';
import { COPILOT_SCENARIOS } from '../../../src/agents/copilot/bench/mockScenarios.js';
import { KEY, quitCopilot, SCREEN, type CopilotDriver } from '../../../src/agents/copilot/bench/recordedScenarios.js';
import { press } from '../../../src/lab/driver.js';
import { startMessagesServer } from '../../../src/lab/mock/anthropicMessages/server.js';
import { spawn, type Spawned } from '../../../src/lab/spawn.js';
import { noteNetworkIsolation } from '../networkIsolation.js';
import { REC_BIN } from '../recBin.js';
import { recordCount, stopWorld, type SessionFile, type SessionsCase, type SessionsPane, type SessionsWorld } from '../sessionsSuite.js';
import { readEventsText } from './readEvents.js';
import { AGENT_BIN, AGENT_VERSION, createEnv } from './env.js';
import { missingPart, START_TIMEOUT_MS, STEP_TIMEOUT_MS } from './recSession.js';

const EXIT_TIMEOUT_MS = 30_000;

function pane(rec: Spawned, driver: CopilotDriver): SessionsPane {
  return {
    async ask(words) {
      await rec.expectScreen(SCREEN.idle, START_TIMEOUT_MS);
      await driver.line(words);
      await rec.expectScreen(SCREEN.shell);
    },
    async approve() {
      await press(driver, '1');
      await rec.expectScreen(SCREEN.final);
    },
    async refuse() {
      await press(driver, KEY.esc);
      await rec.expectScreen(SCREEN.cancelled);
    },
    async quit() {
      await quitCopilot(driver);
      return (await rec.expectExit(EXIT_TIMEOUT_MS)).exitCode;
    },
  };
}

/** Each call of a session as Copilot's own file says it went, with the file's record count. */
function sessionFile(file: string): SessionFile {
  const text = readFileSync(file, 'utf8');
  const session = readEventsText(text, file);
  // A refusal is Copilot's own finding on the call (the reader leaves a refused call's fate to merge).
  const refused = new Set(session.findings.filter((f) => f.type === 'rejection').map((f) => f.call_id));
  const calls = session.calls.map((c) => ({ id: c.call_id, ran: c.fate === 'ran', refused: refused.has(c.call_id) }));
  return { file, calls, lines: recordCount(text) };
}

async function startWorld(): Promise<SessionsWorld> {
  noteNetworkIsolation();
  const server = await startMessagesServer({ scenarios: COPILOT_SCENARIOS });
  const env = createEnv({ baseUrl: server.baseUrl, token: server.token });
  const recs: Spawned[] = [];
  return {
    baseDir: env.baseDir,
    workDir: env.workDir,
    env: env.env,
    start(name, args = []) {
      const rec = spawn(process.execPath, [REC_BIN, '--db', join(env.baseDir, `${name}.db`), 'copilot', ...args], {
        cols: 120,
        rows: 40,
        cwd: env.workDir,
        env: { ...env.env, REC_COPILOT_BIN: AGENT_BIN! },
        timeoutMs: STEP_TIMEOUT_MS,
      });
      recs.push(rec);
      const driver: CopilotDriver = {
        waitScreen: async (re, _label, timeoutMs = STEP_TIMEOUT_MS) => void (await rec.expectScreen(re, timeoutMs)),
        send: (data) => rec.send(data),
        async line(text) {
          rec.send(text);
          await rec.expectScreen(copilotTyped(text));
          rec.sendKey('enter');
        },
        resize: (cols, rows) => rec.resize(cols, rows),
        snap: () => undefined,
        screen: () => rec.screen(),
        waitStream: async (predicate, timeoutMs = STEP_TIMEOUT_MS) => void (await server.waitForStream(predicate, timeoutMs)),
      };
      return pane(rec, driver);
    },
    sessionFiles: () => env.eventFiles().map(sessionFile),
    async dispose() {
      await stopWorld({ env, recs, server });
    },
  };
}

export const SESSIONS: SessionsCase = {
  title: `rec copilot on the real GitHub Copilot CLI ${AGENT_VERSION}: the right events.jsonl, always`,
  agentName: 'copilot',
  testTimeoutMs: 240_000,
  assertRunnable() {
    const missing = missingPart();
    if (missing) throw new Error(missing);
  },
  startWorld,
  words: { first: 'SCENARIO bash', again: 'SCENARIO bash' },
  // The session to go on with: the last one, or one named by its id.
  resumeWays: [
    { how: '--continue', args: () => ['--continue'] },
    { how: '--resume=<id>', args: (id) => [`--resume=${id}`] },
  ],
  mayBeAmbiguous: true,
};
