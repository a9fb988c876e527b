// GitHub Copilot CLI's row of the demo suite (test/support/demoSuite.ts): `rec demo copilot`
// answered with 1, the file refused with "No, and tell Copilot what to do differently" and the
// reason typed there, the long command cut with Esc Esc; quit with Ctrl+C twice.
import { expect } from 'vitest';
import { COPILOT_DEMO_LONG_COMMAND } from '../../../src/agents/copilot/bench/demo.js';
import { KEY, SCREEN } from '../../../src/agents/copilot/bench/recordedScenarios.js';
import { settle } from '../../../src/lab/driver.js';
import type { Spawned } from '../../../src/lab/spawn.js';
import type { DemoCase } from '../demoSuite.js';
import { AGENT_BIN, AGENT_VERSION } from './env.js';

const START_TIMEOUT_MS = 60_000;
const STEP_TIMEOUT_MS = 30_000;

/** Waits for the prompt `what`, then presses the keys a person's reaction time later. */
async function answer(r: Spawned, what: RegExp, ...keys: string[]): Promise<void> {
  await r.expectScreen(what, STEP_TIMEOUT_MS);
  await settle();
  for (const k of keys) r.send(k);
}

async function drive(r: Spawned, reason: string): Promise<void> {
  await r.expectScreen(/Write a greeting/, START_TIMEOUT_MS);
  await answer(r, SCREEN.shell, '1');

  // The new file: 3 ("No, and tell Copilot…") takes the reason in place of its label, Enter sends it.
  // At 80 columns the question wraps with the file's path: the prompt is known by its title and question.
  await answer(r, /Create file[\s\S]*Do you want to create[\s\S]*esc to cancel/, '3');
  await settle();
  r.send(reason);
  await r.expectScreen(new RegExp(`❯ 3\\. ${reason} \\(Esc to stop\\)`));
  r.send(KEY.enter);

  await answer(r, /Count to 60[\s\S]*Do you want to run this command\?/, '1');
  // Running: Copilot shows it working (its output only once the command ends), the prompt gone.
  await r.expectScreen(/^(?![\s\S]*Do you want to run)[\s\S]*Working · /);
  await settle();
  r.send(KEY.esc);
  await r.expectScreen(SCREEN.escAgain);
  r.send(KEY.esc);
  await r.expectScreen(SCREEN.cancelled);

  // The idle footer, cut at 80 columns before its "? help".
  await r.expectScreen(/^ (?:← open sidebar · )?Interactive · Manual Approval · \/ commands/m);
  await settle();
  r.send(KEY.ctrlC);
  await r.expectScreen(SCREEN.ctrlCAgain);
  r.send(KEY.ctrlC);
}

export const DEMO: DemoCase = {
  agent: `GitHub Copilot CLI ${AGENT_VERSION}`,
  demoArgs: ['copilot'],
  agentBin: AGENT_BIN ?? 'copilot',
  rows: 50,
  testTimeoutMs: 180_000,
  stepTimeoutMs: STEP_TIMEOUT_MS,
  recExitTimeoutMs: 30_000,
  drive,
  triggers: { approve: 'digit', refuse: 'digit' },
  cells: {
    command: expect.stringMatching(/^echo hello/),
    edit: expect.stringMatching(/demo-notes|^(edit|write) /),
    longCommand: expect.stringMatching(new RegExp(`^${COPILOT_DEMO_LONG_COMMAND.slice(0, 12).replace(/[$()]/g, '\\$&')}`)),
  },
  worldPrefix: 'rec-demo-copilot-',
};
