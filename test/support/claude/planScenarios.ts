// Claude Code's plan approval: in plan mode (`--permission-mode plan`) the model calls ExitPlanMode
// with its plan, and Claude Code asks whether to leave plan mode. The same key scripts drive the
// fixture recorder (scripts/record-claude-fixtures.mjs, into recorded/) and `rec claude` in the e2e
// tests (recClaudePlan.test.ts).
import { press, type Driver } from '../../../src/lab/driver.js';
import { KEY, SCREEN, type ClaudeDriver, type ClaudeScenario } from '../../../src/agents/claude/bench/recordedScenarios.js';

/** The user's flag that starts Claude Code in plan mode. */
export const PLAN_ARGS: readonly string[] = ['--permission-mode', 'plan'];

export const PLAN_SCREEN = {
  dialog: /Exit plan mode\?[\s\S]*❯ 1\. Yes/,
  noSelected: /^ +❯ 2\. No\s*$/m,
  approved: /Exited plan mode/,
  rejected: /⎿\s+Rejected Claude's plan:/,
  /** A refused 60-step plan: its box is taller than the screen, and the row above it scrolled away. */
  rejectedLong: /│ 60\. Plan step number 60 +│\s*\n\s*╰─+╯/,
  /** The idle input prompt in either mode (plan mode stays on after a refusal). */
  idle: /^❯\u00a0[\s\S]*^ +⏸ (?:plan|manual) mode on(?!.*esc to interrupt).*$/m,
} as const;

/** Typed after Tab at the plan dialog, where no field opens: it must be kept nowhere. */
export const PLAN_TYPED = 'keep it shorter';

/** Ctrl+C twice at the idle prompt, whichever mode the dialog left on. */
async function quitPlan(d: Driver): Promise<void> {
  await d.waitScreen(PLAN_SCREEN.idle, 'idle');
  await press(d, KEY.ctrlC);
  await d.waitScreen(SCREEN.pressAgain);
  d.send(KEY.ctrlC);
}

function plan(name: string, description: string, run: (d: ClaudeDriver) => Promise<void>): ClaudeScenario {
  return { name: `plan-${name}`, description: `plan mode: ${description}`, args: PLAN_ARGS, run, quit: quitPlan };
}

/** Asks for the plan and waits for the dialog. */
async function planDialog(d: ClaudeDriver, scenario: 'plan' | 'plan-long' = 'plan'): Promise<void> {
  await d.line(`SCENARIO ${scenario}`);
  await d.waitScreen(PLAN_SCREEN.dialog, 'dialog');
}

export const PLAN_SCENARIOS: readonly ClaudeScenario[] = [
  plan('approve', 'the plan dialog, approved with 1 (Yes, and switch to default)', async (d) => {
    await planDialog(d);
    await press(d, '1');
    await d.waitScreen(PLAN_SCREEN.approved, 'approved');
    await d.waitScreen(SCREEN.final, 'final');
  }),
  plan('reject-digit', 'the plan dialog, refused with 2 (No)', async (d) => {
    await planDialog(d);
    await press(d, '2');
    await d.waitScreen(PLAN_SCREEN.rejected, 'rejected');
  }),
  plan('reject-esc', 'the plan dialog, refused with Esc', async (d) => {
    await planDialog(d);
    await press(d, KEY.esc);
    await d.waitScreen(PLAN_SCREEN.rejected, 'rejected');
  }),
  plan('reject-tab-enter', 'the plan dialog: Down to No, Tab, typed text, Enter (Tab opens no field here: a plain No)', async (d) => {
    await planDialog(d);
    await press(d, KEY.down);
    await d.waitScreen(PLAN_SCREEN.noSelected, 'no-selected');
    // Nothing on screen changes after Tab or the typing: each key waits out the settle time only.
    await press(d, KEY.tab);
    await press(d, PLAN_TYPED);
    await press(d, KEY.enter);
    await d.waitScreen(PLAN_SCREEN.rejected, 'rejected');
  }),
  plan('long-reject-esc', 'a 60-step plan: the same dialog, refused with Esc', async (d) => {
    await planDialog(d, 'plan-long');
    await press(d, KEY.esc);
    await d.waitScreen(PLAN_SCREEN.rejectedLong, 'rejected');
  }),
];
