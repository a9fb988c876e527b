// Codex's row of the demo suite (test/support/demoSuite.ts): `rec demo` (Codex is the default
// agent) answered with y and Esc, the reason typed into Codex's composer after the refusal.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { KEY, SCREEN } from '../../../src/agents/codex/bench/recordedScenarios.js';
import { settle } from '../../../src/lab/driver.js';
import { DEMO_EDIT_FILE } from '../../../src/lab/mock/demoScenario.js';
import { EOF, TIMEOUT, type Spawned } from '../../../src/lab/spawn.js';
import { DEMO_REASON, type DemoCase } from '../demoSuite.js';
import { AGENT_BIN, AGENT_VERSION } from './env.js';

const START_TIMEOUT_MS = 60_000;
const STEP_TIMEOUT_MS = 30_000;
const QUIT_WAIT_MS = 2_000;

/** Codex daemons the demo started under our TMPDIR and did not stop (only after a failure). */
function daemonPids(dir: string): number[] {
  const pids: number[] = [];
  for (const world of existsSync(dir) ? readdirSync(dir) : []) {
    const daemonDir = join(dir, world, 'home', '.codex', 'app-server-daemon');
    if (!existsSync(daemonDir)) continue;
    for (const f of readdirSync(daemonDir).filter((n) => n.endsWith('.pid'))) {
      const pid = Number(/\d+/.exec(readFileSync(join(daemonDir, f), 'utf8'))?.[0]);
      if (pid > 0) pids.push(pid);
    }
  }
  return pids;
}

/** Waits for the approval prompt whose Reason line says `reason`. */
async function promptFor(r: Spawned, reason: RegExp): Promise<void> {
  await r.expectScreen(new RegExp(`${reason.source}[\\s\\S]*${SCREEN.promptFooter.source}`), STEP_TIMEOUT_MS);
}

/** A deciding key, a person's reaction time after the screen that asks (Codex drops keys sent at once). */
async function settled(r: Spawned, key: string): Promise<void> {
  await settle();
  r.send(key);
}

/** Types text into Codex's composer, waits until it shows (not taken for a paste), then Enter. */
async function line(r: Spawned, text: string): Promise<void> {
  r.send(text);
  await r.expectScreen(`› ${text}`, STEP_TIMEOUT_MS);
  r.sendKey('enter');
}

async function drive(r: Spawned, reason: string): Promise<void> {
  await r.expectScreen(/Print a greeting/, START_TIMEOUT_MS);
  await promptFor(r, /Print a greeting/);
  await settled(r, 'y');
  await r.expectScreen(SCREEN.approvedOnce);

  await r.expectScreen(SCREEN.editsPrompt);
  await settled(r, KEY.esc);
  await r.expectScreen(SCREEN.interrupted);
  await line(r, reason);

  await promptFor(r, /Count to 60/);
  await settled(r, 'y');
  await r.expectScreen(SCREEN.working);
  await r.expectScreen(/tick 1/);
  await settled(r, KEY.esc);
  await r.expectScreen(/Conversation interrupted[\s\S]*Conversation interrupted/);

  for (let attempt = 0; attempt < 3 && !r.exitStatus; attempt += 1) {
    r.sendKey('ctrl-c');
    if ((await r.expect([EOF, TIMEOUT], QUIT_WAIT_MS)) === 0) break;
  }
}

export const DEMO: DemoCase = {
  agent: `Codex ${AGENT_VERSION}`,
  demoArgs: [],
  agentBin: AGENT_BIN,
  rows: 60,
  testTimeoutMs: 180_000,
  stepTimeoutMs: STEP_TIMEOUT_MS,
  recExitTimeoutMs: 30_000,
  drive,
  triggers: { approve: 'letter', refuse: 'esc' },
  cells: { command: expect.stringMatching(/^echo hello/), edit: `edit ${DEMO_EDIT_FILE}`, longCommand: expect.stringMatching(/^for i in/) },
  refusalEvent: ['rejection', 'edit', 'esc', `edit ${DEMO_EDIT_FILE}`, DEMO_REASON],
  worldPrefix: 'rec-codex-e2e-',
  leftoverPids: daemonPids,
};
