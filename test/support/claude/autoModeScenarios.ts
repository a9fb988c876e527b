// Claude Code's auto mode where it puts the call to the user (docs/claude-auto-mode.md §4). With no
// verdict from the classifier, the "can't check actions in this session" dialog: Enter stays in auto
// mode and the call gets an unnumbered No/Yes prompt; Esc or Shift+Tab stop the turn at the dialog.
// With three calls flagged in a row, the breaker's numbered prompt. The same key scripts drive the
// fixture recorder (scripts/record-claude-fixtures.mjs, into recorded/) and `rec claude` in the e2e
// tests (recClaudeAutoMode.test.ts).
import { KEYS } from '../../../src/lab/keys.js';
import { press, type Driver } from '../../../src/lab/driver.js';
import type { Classifier } from '../../../src/lab/mock/anthropicMessages/server.js';
import { KEY, SCREEN, type ClaudeDriver, type ClaudeScenario } from '../../../src/agents/claude/bench/recordedScenarios.js';

/** The user's flag that starts Claude Code in auto mode. */
export const AUTO_ARGS: readonly string[] = ['--permission-mode', 'auto'];

/** The classifier's explanation for each call the breaker's scenario flags. */
export const BREAKER_EXPLANATION = 'MOCK-CLASSIFIER: writing a file with node -e was not asked for by the user.';

/** Screen texts of 2.1.332 in auto mode (docs/claude-auto-mode.md §1, §4); after `⎿` come a space and a no-break space. */
export const AUTO_SCREEN = {
  /** The idle footer after a turn in auto mode, or in accept edits mode after Shift+Tab at the dialog. */
  idle: /^❯\u00a0[\s\S]*^ +⏵⏵ (?:auto mode|accept edits) on(?!.*esc to interrupt).*$/m,
  started: /auto mode on/,
  dialog: /^ +Auto mode can't check actions in this session\n[\s\S]*^ +Enter to stay in auto mode · shift\+Tab to leave for accept edits mode and stop · Esc to cancel/m,
  /** The prompt after Enter at the dialog: its note, and No first and highlighted, unnumbered. */
  fallback: /^ Auto mode can't check actions in this session, so this one needs your approval *\n[\s\S]*^ Do you want to proceed\? *\n ❯ No *\n +Yes *\n/m,
  fallbackYesSelected: /^ Do you want to proceed\? *\n +No *\n ❯ Yes *\n/m,
  breaker: /^ │ Auto mode needs your confirmation for this command\.\n │ 3 consecutive actions were blocked\.[\s\S]*^ Do you want to proceed\?\n ❯ 1\. Yes/m,
  blocked: /⎿\s+Blocked by auto mode/,
  acceptEdits: /⏵⏵ accept edits on/,
} as const;

export interface AutoModeScenario extends ClaudeScenario {
  /** The mock's classifier for the run. */
  readonly classifier: Classifier;
}

/** No verdict at all: Claude Code says auto mode cannot check actions in this session. */
const noVerdict: Classifier = () => 'omit';
/** Every call flagged: the third in a row trips the breaker. */
const flagAll: Classifier = () => ({ outcome: 'flagged', explanation: BREAKER_EXPLANATION });

/** Ctrl+C twice at the idle prompt, in auto mode or in accept edits mode. */
async function quitAuto(d: Driver): Promise<void> {
  await d.waitScreen(AUTO_SCREEN.idle, 'idle');
  await press(d, KEY.ctrlC);
  await d.waitScreen(SCREEN.pressAgain);
  d.send(KEY.ctrlC);
}

function auto(name: string, description: string, classifier: Classifier, run: (d: ClaudeDriver) => Promise<void>): AutoModeScenario {
  return { name: `automode-${name}`, description: `auto mode: ${description}`, args: AUTO_ARGS, classifier, run, quit: quitAuto };
}

/** Asks for the one command with no verdict to come, and waits for the dialog. */
export async function cannotCheckDialog(d: ClaudeDriver): Promise<void> {
  await d.waitScreen(AUTO_SCREEN.started);
  await d.line('SCENARIO automode');
  await d.waitScreen(AUTO_SCREEN.dialog, 'dialog');
}

/** The dialog, Enter to stay in auto mode, and the prompt it leads to. */
export async function fallbackPrompt(d: ClaudeDriver): Promise<void> {
  await cannotCheckDialog(d);
  await press(d, KEY.enter);
  await d.waitScreen(AUTO_SCREEN.fallback, 'fallback');
}

/** Three commands, each flagged: two blocked, the third put to the user. */
export async function breakerPrompt(d: ClaudeDriver): Promise<void> {
  await d.waitScreen(AUTO_SCREEN.started);
  await d.line('SCENARIO automode3');
  await d.waitScreen(AUTO_SCREEN.breaker, 'breaker');
}

export const AUTO_MODE_SCENARIOS: readonly AutoModeScenario[] = [
  auto('cannot-check-yes', 'no verdict: Enter at the dialog; at the unnumbered prompt 1 (nothing), Down, Enter on Yes', noVerdict, async (d) => {
    await fallbackPrompt(d);
    await press(d, '1', KEY.down);
    // The digit picked nothing: Down still moved the highlight of the same prompt.
    await d.waitScreen(AUTO_SCREEN.fallbackYesSelected, 'yes-selected');
    await press(d, KEY.enter);
    await d.waitScreen(SCREEN.final, 'final');
  }),
  auto('cannot-check-no', 'no verdict: Enter at the dialog, Enter on the prompt’s highlighted No', noVerdict, async (d) => {
    await fallbackPrompt(d);
    await press(d, KEY.enter);
    await d.waitScreen(SCREEN.interrupted, 'rejected');
  }),
  auto('cannot-check-esc', 'no verdict: Enter at the dialog, Esc at the prompt', noVerdict, async (d) => {
    await fallbackPrompt(d);
    await press(d, KEY.esc);
    await d.waitScreen(SCREEN.interrupted, 'rejected');
  }),
  auto('dialog-esc', 'no verdict: Esc at the dialog (the turn stops, the call never runs)', noVerdict, async (d) => {
    await cannotCheckDialog(d);
    await press(d, KEY.esc);
    await d.waitScreen(SCREEN.interrupted, 'interrupted');
  }),
  auto('dialog-shifttab', 'no verdict: Shift+Tab at the dialog (accept edits mode, the turn stops)', noVerdict, async (d) => {
    await cannotCheckDialog(d);
    await press(d, KEYS['shift-tab']);
    await d.waitScreen(AUTO_SCREEN.acceptEdits, 'accept-edits');
  }),
  auto('breaker-yes', 'three calls flagged in a row: the third put to the user, 1 (Yes)', flagAll, async (d) => {
    await breakerPrompt(d);
    await press(d, '1');
    await d.waitScreen(SCREEN.final, 'final');
  }),
  auto('breaker-esc', 'three calls flagged in a row: the third put to the user, Esc', flagAll, async (d) => {
    await breakerPrompt(d);
    await press(d, KEY.esc);
    await d.waitScreen(SCREEN.interrupted, 'rejected');
  }),
];
