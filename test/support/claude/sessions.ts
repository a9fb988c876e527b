// Claude Code's row of the sessions suite (test/support/sessionsSuite.ts): its transcripts, each
// named after the --session-id rec gives the run (and, resumed, named by rec's hooks); 1 approves
// and Esc refuses; `--continue`, `--resume <id>` and `--resume <id> --fork-session` (a new
// transcript that starts from the earlier one's history) go on with one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEY, quitClaude, SCREEN, type ClaudeDriver } from '../../../src/agents/claude/bench/recordedScenarios.js';
import { press } from '../../../src/lab/driver.js';
import { startMessagesServer } from '../../../src/lab/mock/anthropicMessages/server.js';
import { spawn, type Spawned } from '../../../src/lab/spawn.js';
import { noteNetworkIsolation } from '../networkIsolation.js';
import { REC_BIN } from '../recBin.js';
import { recordCount, stopWorld, type SessionsCase, type SessionsPane, type SessionsWorld } from '../sessionsSuite.js';
import { AGENT_BIN, AGENT_VERSION, createEnv } from './env.js';
import { missingPart } from './recSession.js';
import { readTranscript } from './transcriptCalls.js';

const START_TIMEOUT_MS = 60_000;
const STEP_TIMEOUT_MS = 30_000;
const EXIT_TIMEOUT_MS = 30_000;

function pane(rec: Spawned, driver: ClaudeDriver): SessionsPane {
  return {
    async ask(words) {
      await rec.expectScreen(SCREEN.ready, START_TIMEOUT_MS);
      await driver.line(words);
      await rec.expectScreen(SCREEN.bashPrompt);
    },
    async approve() {
      await press(driver, '1');
      await rec.expectScreen(SCREEN.final);
    },
    async refuse() {
      await press(driver, KEY.esc);
      await rec.expectScreen(SCREEN.interrupted);
    },
    async quit() {
      await quitClaude(driver);
      return (await rec.expectExit(EXIT_TIMEOUT_MS)).exitCode;
    },
  };
}

async function startWorld(): Promise<SessionsWorld> {
  noteNetworkIsolation();
  const server = await startMessagesServer();
  const env = createEnv({ baseUrl: server.baseUrl, token: server.token });
  const recs: Spawned[] = [];
  return {
    baseDir: env.baseDir,
    workDir: env.workDir,
    env: env.env,
    start(name, args = []) {
      const rec = spawn(process.execPath, [REC_BIN, '--db', join(env.baseDir, `${name}.db`), 'claude', ...args], {
        cols: 120,
        rows: 40,
        cwd: env.workDir,
        env: { ...env.env, REC_CLAUDE_BIN: AGENT_BIN! },
        timeoutMs: STEP_TIMEOUT_MS,
      });
      recs.push(rec);
      const driver: ClaudeDriver = {
        waitScreen: async (re, _label, timeoutMs = STEP_TIMEOUT_MS) => void (await rec.expectScreen(re, timeoutMs)),
        send: (data) => rec.send(data),
        async line(text) {
          // Enter only once the text shows in the input, so it is typed, not taken for a paste.
          rec.send(text);
          await rec.expectScreen(`❯\u00a0${text}`);
          rec.sendKey('enter');
        },
        resize: (cols, rows) => rec.resize(cols, rows),
        snap: () => undefined,
        screen: () => rec.screen(),
        waitStream: async (predicate, timeoutMs = STEP_TIMEOUT_MS) => void (await server.waitForStream(predicate, timeoutMs)),
      };
      return pane(rec, driver);
    },
    sessionFiles: () =>
      env.transcripts().map((file) => ({
        file,
        calls: readTranscript(file).calls.map((c) => ({ id: c.id, ran: c.result !== undefined && !c.result.isError, refused: c.result?.isError === true })),
        lines: recordCount(readFileSync(file, 'utf8')),
      })),
    async dispose() {
      await stopWorld({ env, recs, server });
    },
  };
}

export const SESSIONS: SessionsCase = {
  title: `rec claude on the real Claude Code ${AGENT_VERSION}: the right transcript, always`,
  agentName: 'claude',
  testTimeoutMs: 240_000,
  assertRunnable() {
    const missing = missingPart();
    if (missing) throw new Error(missing);
  },
  startWorld,
  words: { first: 'SCENARIO bash', again: 'SCENARIO bash' },
  // How the user names the session to go on with: the last one, one by its id, or a fork of it.
  resumeWays: [
    { how: '--continue', args: () => ['--continue'] },
    { how: '--resume <id>', args: (id) => ['--resume', id] },
    { how: '--resume <id> --fork-session', args: (id) => ['--resume', id, '--fork-session'], forks: true },
  ],
  mayBeAmbiguous: false,
  sessionFileSuffix: (id) => `${id}.jsonl`,
};
