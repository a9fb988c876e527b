// Gemini's row of the demo suite (test/support/demoSuite.ts): `rec demo gemini` answered with Enter
// and Esc, the reason typed into Gemini's composer after the refusal, quit with Gemini's own /quit.
import { expect } from 'vitest';
import { GEMINI_DEMO_COMMAND, GEMINI_DEMO_LONG_COMMAND } from '../../../src/agents/gemini/bench/demo.js';
import { KEY, quitGemini, SCREEN } from '../../../src/agents/gemini/bench/recordedScenarios.js';
import { settle, type Driver } from '../../../src/lab/driver.js';
import { DEMO_EDIT_FILE } from '../../../src/lab/mock/demoScenario.js';
import { EOF, TIMEOUT, type Spawned } from '../../../src/lab/spawn.js';
import type { DemoCase } from '../demoSuite.js';
import { AGENT_BIN, AGENT_VERSION } from './env.js';

/** Gemini draws its first dialog after 10-20 s on two loaded cores (it relaunches itself once). */
const START_TIMEOUT_MS = 120_000;

/** A deciding key, a person's reaction time after the screen that asks (agents drop keys sent at once). */
async function decide(r: Spawned, key: string): Promise<void> {
  await settle();
  r.send(key);
}

/** Types text into Gemini's composer, waits until it shows, then Enter a moment later (Gemini takes a quick Enter for a newline). */
async function typeLine(r: Spawned, text: string): Promise<void> {
  r.send(text);
  await r.expectScreen(text);
  await settle();
  r.sendKey('enter');
}

/** Enough of a Driver for quitGemini. */
function driverOf(r: Spawned): Driver {
  return {
    waitScreen: async (re, _label, timeoutMs) => void (await r.expectScreen(re, timeoutMs)),
    send: (data) => r.send(data),
    line: (text) => typeLine(r, text),
    resize: (cols, rows) => r.resize(cols, rows),
    snap: () => undefined,
    screen: () => r.screen(),
  };
}

const shellDialogFor = (command: string) => new RegExp(`${command.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\s\\S]*No, suggest changes \\(esc\\)`);

async function drive(r: Spawned, reason: string): Promise<void> {
  await r.expectScreen(SCREEN.ready, START_TIMEOUT_MS);
  await typeLine(r, 'show me');
  await r.expectScreen(shellDialogFor(GEMINI_DEMO_COMMAND));
  await decide(r, KEY.enter);

  await r.expectScreen(SCREEN.writeDialog(DEMO_EDIT_FILE));
  await decide(r, KEY.esc);
  await r.expectScreen(SCREEN.cancelled);
  await typeLine(r, reason);

  await r.expectScreen(shellDialogFor(GEMINI_DEMO_LONG_COMMAND));
  await decide(r, KEY.enter);
  await r.expectScreen(SCREEN.running);
  await decide(r, KEY.esc);
  await r.expectScreen(/Request cancelled\.[\s\S]*Request cancelled\./);

  // Gemini's own quit (a Ctrl+C this soon after the Esc could still land on the cut command).
  // Gemini has exited once its goodbye shows (rec then merges and prints before it exits itself).
  await quitGemini(driverOf(r), async (ms) => (await r.expect([/Agent powering down/, EOF, TIMEOUT], ms)) !== 2);
}

export const DEMO: DemoCase = {
  agent: `Gemini CLI ${AGENT_VERSION}`,
  demoArgs: ['gemini'],
  agentBin: AGENT_BIN,
  rows: 60,
  testTimeoutMs: 300_000,
  stepTimeoutMs: 45_000,
  recExitTimeoutMs: 60_000,
  drive,
  triggers: { approve: 'enter', refuse: 'esc' },
  // Cells are cut to fit 80 columns.
  cells: {
    command: expect.stringMatching(/^touch hello-from-the-rec/),
    edit: expect.stringContaining(DEMO_EDIT_FILE),
    longCommand: expect.stringMatching(/^sleep 60; touch demo-wait/),
  },
  worldPrefix: 'rec-demo-gemini-',
};
