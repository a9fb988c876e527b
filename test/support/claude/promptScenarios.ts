// Claude Code's prompts for tools other than Bash, the file tools and ExitPlanMode: WebFetch (kind
// network), a tool of an MCP server (kind mcp) and NotebookEdit (kind edit). One Claude Code start
// per tool meets its dialog four times, one key each: Esc, the No option's digit, 1, then 2 (the
// option that stops asking), and a fifth request that must not ask again. The same key scripts drive
// the fixture recorder (scripts/record-claude-fixtures.mjs, into recorded/) and `rec claude` in the
// e2e tests (recClaudePrompts.test.ts).
import { press, type Driver } from '../../../src/lab/driver.js';
import { KEY, SCREEN, type ClaudeDriver, type ClaudeScenario } from '../../../src/agents/claude/bench/recordedScenarios.js';

/** Each dialog as Claude Code 2.1.332 draws it: title, question, and the first option. */
export const PROMPT_SCREEN = {
  webfetch: /^ Fetch\n Claude wants to fetch content from 127\.0\.0\.1[\s\S]*Do you want to allow Claude to fetch this content\?\n ❯ 1\. Yes/m,
  mcp: /^ Tool use\n marker — Touch Marker Tool: \(MCP\)[\s\S]*Do you want to proceed\?\n ❯ 1\. Yes/m,
  // The notebook's path, what changes and the cell's diff come between title and question in some
  // draws (seen on a fresh machine at the second dialog of a run), in none in others.
  notebook: /^ Edit notebook\n(?:(?! Edit notebook\n)[\s\S])*?^ Do you want to make this edit to analysis\.ipynb\?\n ❯ 1\. Yes/m,
} as const;

export type PromptTool = keyof typeof PROMPT_SCREEN;

/** The No option of each dialog, by its digit. */
export const NO_DIGIT: Readonly<Record<PromptTool, string>> = { webfetch: '3', mcp: '3', notebook: '3' };

export interface PromptScenario extends ClaudeScenario {
  /** Claude Code gets the one-tool MCP server (claudeEnv's mcpServer). */
  readonly mcpServer?: boolean;
}

/**
 * The last turn, from the user's last message to the idle input prompt, ends with `outcome` in it:
 * earlier turns (still on screen above) cannot match, since no user message may come between, and
 * the input must be empty (a typed request not yet sent is no new turn). The footer names the mode:
 * manual, or accept edits once NotebookEdit's option 2 switched to it.
 */
export function lastTurn(outcome: RegExp): RegExp {
  return new RegExp(`^❯.SCENARIO \\w+\\s*\\n(?:(?!❯.SCENARIO)[\\s\\S])*${outcome.source}(?:(?!❯.SCENARIO)[\\s\\S])*^❯\\u00a0\\s*$[\\s\\S]*(?:⏸ manual|⏵⏵ accept edits) (?:mode )?on(?!.*esc to interrupt)`, 'm');
}

const IDLE_ANY_MODE = /^❯\u00a0\s*$[\s\S]*(?:⏸ manual|⏵⏵ accept edits) (?:mode )?on(?!.*esc to interrupt)/m;

const REFUSED = /(?:Interrupted · What should Claude do instead\?|Rejected )/;

async function ask(d: ClaudeDriver, tool: PromptTool, label: string): Promise<void> {
  await d.line(`SCENARIO ${tool}`);
  await d.waitScreen(PROMPT_SCREEN[tool], label);
}

/** Esc, the No digit, 1, 2, then the same call once more: it runs without a dialog. */
async function fourKeys(d: ClaudeDriver, tool: PromptTool): Promise<void> {
  await ask(d, tool, 'dialog-esc');
  await press(d, KEY.esc);
  await d.waitScreen(lastTurn(REFUSED), 'refused-esc');
  await ask(d, tool, 'dialog-no');
  await press(d, NO_DIGIT[tool]);
  await d.waitScreen(lastTurn(REFUSED), 'refused-no');
  await ask(d, tool, 'dialog-yes');
  await press(d, '1');
  await d.waitScreen(lastTurn(SCREEN.final), 'approved-once');
  await ask(d, tool, 'dialog-always');
  await press(d, '2');
  await d.waitScreen(lastTurn(SCREEN.final), 'approved-always');
  await d.line(`SCENARIO ${tool}`);
  await d.waitScreen(lastTurn(SCREEN.final), 'asked-no-more');
}

/** Ctrl+C twice at the idle prompt, whichever mode the dialogs left on. */
async function quitAnyMode(d: Driver): Promise<void> {
  await d.waitScreen(IDLE_ANY_MODE, 'idle');
  await press(d, KEY.ctrlC);
  await d.waitScreen(SCREEN.pressAgain);
  d.send(KEY.ctrlC);
}

export const PROMPT_SCENARIOS: readonly PromptScenario[] = [
  {
    name: 'prompt-webfetch',
    description: 'the WebFetch dialog: Esc, 3 (No), 1 (Yes), 2 (don’t ask again for the host), then no dialog',
    run: (d) => fourKeys(d, 'webfetch'),
  },
  {
    name: 'prompt-mcp',
    description: 'an MCP tool’s dialog: Esc, 3 (No), 1 (Yes), 2 (don’t ask again for the tool), then no dialog',
    mcpServer: true,
    run: (d) => fourKeys(d, 'mcp'),
  },
  {
    name: 'prompt-notebook',
    description: 'the NotebookEdit dialog: Esc, 3 (No), 1 (Yes), 2 (accept edits for the session), then no dialog',
    run: (d) => fourKeys(d, 'notebook'),
    quit: quitAnyMode,
  },
];
