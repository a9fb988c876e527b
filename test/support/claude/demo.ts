// Claude Code's row of the demo suite (test/support/demoSuite.ts): `rec demo claude` answered with
// 1, and the refusal given with its reason typed after Tab on "3. No"; quit with Ctrl+C twice.
import { join } from 'node:path';
import { expect } from 'vitest';
import { CLAUDE_DEMO_COUNTER } from '../../../src/agents/claude/bench/demo.js';
import { KEY, SCREEN } from '../../../src/agents/claude/bench/recordedScenarios.js';
import { settle } from '../../../src/lab/driver.js';
import type { Spawned } from '../../../src/lab/spawn.js';
import { agentBin } from '../agentBin.js';
import { REPO_ROOT } from '../agentVersions.js';
import type { DemoCase } from '../demoSuite.js';
import { AGENT_VERSION } from './env.js';

const START_TIMEOUT_MS = 60_000;
const STEP_TIMEOUT_MS = 30_000;
/** The wrapper package's own binary, whose package.json gives the version the demo seeds Claude Code's first-run keys with. */
const PACKAGE_BIN = agentBin('claude').override ?? join(REPO_ROOT, 'node_modules/@anthropic-ai/claude-code/bin/claude.exe');

/** Waits for the permission prompt that shows `what`, then presses the keys a person's reaction time later. */
async function answer(r: Spawned, what: RegExp, ...keys: string[]): Promise<void> {
  await r.expectScreen(new RegExp(`${what.source}[\\s\\S]*Esc to cancel · Tab to amend`), STEP_TIMEOUT_MS);
  await settle();
  for (const k of keys) r.send(k);
}

async function drive(r: Spawned, reason: string): Promise<void> {
  await r.expectScreen(/Print a greeting/, START_TIMEOUT_MS);
  await answer(r, /Print a greeting/, '1');

  // The write: down to "3. No", Tab, a reason, Enter (Claude Code goes on to the next call).
  await answer(r, /Create file[\s\S]*demo-notes\.txt/, KEY.down, KEY.down);
  await r.expectScreen(/❯ 3\. No\s*$/m);
  await settle();
  r.send(KEY.tab);
  await r.expectScreen(/❯ 3\. No, and tell Claude what to do differently/);
  r.send(reason);
  await r.expectScreen(new RegExp(`❯ 3\\. No, ${reason}`));
  r.send(KEY.enter);

  await answer(r, /Count to 60/, '1');
  await r.expectScreen(SCREEN.running);
  await settle();
  r.send(KEY.esc);
  await r.expectScreen(SCREEN.interrupted);

  await r.expectScreen(SCREEN.idle);
  await settle();
  r.send(KEY.ctrlC);
  await r.expectScreen(SCREEN.pressAgain);
  r.send(KEY.ctrlC);
}

export const DEMO: DemoCase = {
  agent: `Claude Code ${AGENT_VERSION}`,
  demoArgs: ['claude'],
  agentBin: PACKAGE_BIN,
  rows: 50,
  testTimeoutMs: 180_000,
  stepTimeoutMs: STEP_TIMEOUT_MS,
  recExitTimeoutMs: 30_000,
  drive,
  triggers: { approve: 'digit', refuse: 'tab' },
  cells: {
    command: expect.stringMatching(/^echo hello/),
    // The write's absolute path, cut at 80 columns.
    edit: expect.stringMatching(/^edit \//),
    longCommand: `node ${CLAUDE_DEMO_COUNTER.file}`,
  },
  worldPrefix: 'rec-demo-claude-',
};
