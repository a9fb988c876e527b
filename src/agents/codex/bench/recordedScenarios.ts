// The scenarios of issue 3 as key scripts over the real Codex TUI. The same scripts drive the fixture
// recorder (scripts/record-codex-fixtures.mjs, plain codex) and can drive `rec codex` in the e2e tests,
// through the Driver of ../driver.ts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEYS } from '../../../lab/keys.js';
import { NPM_TEST_CALLS } from '../../../lab/mock/openaiResponses/scenarios.js';
import { press, settle, type Driver, type RecordedScenario } from '../../../lab/driver.js';

export { type Driver, type RecordedScenario } from '../../../lab/driver.js';

/** Keys as the scenarios write them (the one key map: ../keys.ts). */
export const KEY = { esc: KEYS.esc, enter: KEYS.enter, ctrlC: KEYS['ctrl-c'], down: KEYS.down, up: KEYS.up } as const;

/** Screen texts of Codex 0.169.0. */
export const SCREEN = {
  ready: /Ask Codex to do anything/,
  execPrompt: /Would you like to run the following command\?/,
  editsPrompt: /Would you like to make the following edits\?/,
  promptFooter: /Press enter to confirm or esc to cancel/,
  approvedOnce: /✔ You approved codex to run .* this time/,
  approvedAlways: /✔ You approved codex to always run/,
  canceled: /✗ You canceled the request to run/,
  interrupted: /Conversation interrupted/,
  working: /esc to interrupt/,
  taskMenu: /Task is still running/,
  menuExitSelected: /› 3\. Exit/,
  menuBackgroundSelected: /› 2\. Run in background/,
  disconnected: /Disconnected from this task\./,
  done: /^• Done\.$/m,
  option3Selected: /› 3\. No, and tell Codex what to do differently/,
} as const;

const SHELL_PROMPT = 'SCN=shell please write the file';

async function shellPrompt(d: Driver): Promise<void> {
  await d.line(SHELL_PROMPT);
  await d.waitScreen(SCREEN.promptFooter, 'prompt');
}

/** The `sleep 60` command asked for, approved with y, and running. */
async function sleepRunning(d: Driver): Promise<void> {
  await d.line('SCN=sleep long command');
  await d.waitScreen(SCREEN.promptFooter, 'prompt');
  await press(d, 'y');
  await d.waitScreen(SCREEN.working, 'running');
}

/** Ctrl+C during a turn, which opens Codex's "Task is still running" menu. */
async function openTaskMenu(d: Driver): Promise<void> {
  await press(d, KEY.ctrlC);
  await d.waitScreen(SCREEN.taskMenu, 'menu');
}

/**
 * A project whose `npm test` only prints, for the plain commands of the `npmtest` scenario; npm's
 * own update check is off so that nothing but the test script runs.
 */
export function writeNpmProject(workDir: string): void {
  const pkg = { name: 'rec-fixture', version: '1.0.0', private: true, scripts: { test: 'echo tests pass' } };
  writeFileSync(join(workDir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  writeFileSync(join(workDir, '.npmrc'), 'update-notifier=false\nfund=false\naudit=false\n');
}

/** The justification of each `npmtest` call: the prompt's `Reason:` line tells them apart. */
const NPM_TEST_REASONS = NPM_TEST_CALLS.map((c) => String(c.args['justification']));

/** Each plain command of the `npmtest` scenario prompts in turn and is approved with y. */
async function approveNpmTests(d: Driver): Promise<void> {
  await d.line('SCN=npmtest run the tests');
  for (const [i, reason] of NPM_TEST_REASONS.entries()) {
    await d.waitScreen(new RegExp(`Reason: ${reason.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\s\\S]*Press enter to confirm`), `prompt-${i + 1}`);
    await press(d, 'y');
  }
  await d.waitScreen(SCREEN.done, 'done');
}

export const SCENARIOS: readonly RecordedScenario[] = [
  {
    name: 'shell-approve-y',
    description: 'escalated exec_command, approved with y',
    async run(d) {
      await shellPrompt(d);
      await press(d, 'y');
      await d.waitScreen(SCREEN.approvedOnce, 'approved');
      await d.waitScreen(SCREEN.done, 'done');
    },
  },
  {
    name: 'shell-approve-p',
    description: "escalated exec_command, approved with p (don't ask again)",
    async run(d) {
      await shellPrompt(d);
      await press(d, 'p');
      await d.waitScreen(SCREEN.approvedAlways, 'approved');
      await d.waitScreen(SCREEN.done, 'done');
    },
  },
  {
    name: 'shell-reject-esc',
    description: 'escalated exec_command, rejected with Esc',
    async run(d) {
      await shellPrompt(d);
      await press(d, KEY.esc);
      await d.waitScreen(SCREEN.interrupted, 'rejected');
    },
  },
  {
    name: 'shell-reject-n',
    description: 'escalated exec_command, rejected with n',
    async run(d) {
      await shellPrompt(d);
      await press(d, 'n');
      await d.waitScreen(SCREEN.interrupted, 'rejected');
    },
  },
  {
    name: 'shell-reject-option3',
    description: 'escalated exec_command, option 3 chosen with Down Down Enter',
    async run(d) {
      await shellPrompt(d);
      await press(d, KEY.down, KEY.down);
      await d.waitScreen(SCREEN.option3Selected, 'selected-3');
      await press(d, KEY.enter);
      await d.waitScreen(SCREEN.interrupted, 'rejected');
    },
  },
  {
    name: 'shell-ctrlc-at-prompt',
    description: 'escalated exec_command, Ctrl+C at the prompt',
    async run(d) {
      await shellPrompt(d);
      await press(d, KEY.ctrlC);
      await d.waitScreen(SCREEN.interrupted, 'after-ctrl-c');
    },
  },
  {
    name: 'shell-reject-then-reason',
    description: 'Esc at the prompt, then the next message (the reason)',
    async run(d) {
      await shellPrompt(d);
      await press(d, KEY.esc);
      await d.waitScreen(SCREEN.interrupted, 'rejected');
      await d.line('do not write files in the repo');
      await d.waitScreen(/Noted: do not write files in the repo/, 'reason-answered');
    },
  },
  {
    name: 'patch-reject-esc',
    description: 'apply_patch heredoc, edits prompt rejected with Esc',
    async run(d) {
      await d.line('SCN=patch add a file');
      await d.waitScreen(SCREEN.editsPrompt, 'prompt');
      await press(d, KEY.esc);
      await d.waitScreen(SCREEN.interrupted, 'rejected');
    },
  },
  {
    name: 'patch-approve-y',
    description: 'apply_patch heredoc, edits prompt approved with y',
    async run(d) {
      await d.line('SCN=patch add a file');
      await d.waitScreen(SCREEN.editsPrompt, 'prompt');
      await press(d, 'y');
      await d.waitScreen(SCREEN.done, 'done');
    },
  },
  {
    name: 'sleep-esc-while-running',
    description: 'sleep 60 approved, then Esc while it runs',
    async run(d) {
      await sleepRunning(d);
      await press(d, KEY.esc);
      await d.waitScreen(SCREEN.interrupted, 'interrupted');
    },
  },
  {
    name: 'sleep-ctrlc-cancel',
    description: 'sleep 60 approved, Ctrl+C, then "Cancel task" in the menu',
    async run(d) {
      await sleepRunning(d);
      await openTaskMenu(d);
      await press(d, KEY.enter);
      await d.waitScreen(SCREEN.interrupted, 'interrupted');
    },
  },
  {
    name: 'sleep-ctrlc-exit',
    description: 'sleep 60 approved, Ctrl+C, then "Exit" (Down Down Enter) in the menu: Codex stops the turn and exits',
    async run(d) {
      await sleepRunning(d);
      await openTaskMenu(d);
      await press(d, KEY.down, KEY.down);
      await d.waitScreen(SCREEN.menuExitSelected, 'menu-exit');
      await press(d, KEY.enter);
      await d.waitScreen(SCREEN.disconnected, 'exited');
    },
  },
  {
    name: 'text-ctrlc-background',
    description: 'a slowly streamed answer, Ctrl+C, then "Run in background": Codex exits, its daemon finishes the turn',
    async run(d) {
      await d.line('SCN=text stream slowly');
      await d.waitScreen(/w4\b/, 'streaming');
      await openTaskMenu(d);
      await press(d, KEY.down);
      await d.waitScreen(SCREEN.menuBackgroundSelected, 'menu-background');
      await press(d, KEY.enter);
      await d.waitScreen(SCREEN.disconnected, 'detached');
    },
  },
  {
    name: 'text-esc-while-streaming',
    description: 'a slowly streamed answer cut with Esc',
    async run(d) {
      await d.line('SCN=text stream slowly');
      await d.waitScreen(/w12\b/, 'streaming');
      await press(d, KEY.esc);
      await d.waitScreen(SCREEN.interrupted, 'interrupted');
    },
  },
  {
    name: 'parallel-approve-reject',
    description: 'three parallel calls: the first approved (y), the second rejected (Esc)',
    async run(d) {
      await d.line('SCN=parallel three calls');
      // Codex queues the three prompts in whatever order the calls ask (not always call order).
      await d.waitScreen(/Reason: Write p\d\.txt\?[\s\S]*Press enter to confirm/, 'prompt-1');
      const first = /Reason: Write (p\d)\.txt\?/.exec(d.screen())![1]!;
      await press(d, 'y');
      await d.waitScreen(new RegExp(`Reason: Write (?!${first})p\\d\\.txt\\?[\\s\\S]*Press enter to confirm`), 'prompt-2');
      await press(d, KEY.esc);
      await d.waitScreen(SCREEN.interrupted, 'rejected');
    },
  },
  {
    name: 'long-command-wrapped',
    description: 'a long command that wraps in the prompt at 80 columns, approved with y',
    cols: 80,
    rows: 40,
    async run(d) {
      await d.line('SCN=long wrapped command');
      await d.waitScreen(SCREEN.promptFooter, 'prompt');
      await press(d, 'y');
      await d.waitScreen(SCREEN.done, 'done');
    },
  },
  {
    name: 'npm-test-approve-y',
    description: 'three plain commands (npm test with varied arguments) in one turn, each approved with y',
    setup: writeNpmProject,
    run: approveNpmTests,
  },
  {
    name: 'resize-at-prompt',
    description: 'the exec prompt open while the terminal shrinks from 120x40 to 70x30, then Esc',
    async run(d) {
      await shellPrompt(d);
      // A resize right as the overlay appears can be dropped like a key (no redraw follows).
      await settle();
      d.resize(70, 30);
      // Codex's own redraw at 70 columns wraps option 2 with a five-space hanging indent; the
      // terminal's reflow of the old 120-column rows does not indent, so this waits for the redraw.
      await d.waitScreen(/^ {5}\S.*` \(p\)$[\s\S]*Press enter to confirm/m, 'resized');
      await press(d, KEY.esc);
      await d.waitScreen(SCREEN.interrupted, 'rejected');
    },
  },
];
