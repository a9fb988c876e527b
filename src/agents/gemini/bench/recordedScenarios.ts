// The recorded scenarios as key scripts over the real Gemini CLI 0.61.0. The same scripts drive the
// fixture recorder (scripts/record-gemini-fixtures.mjs, plain gemini), `rec gemini` in the e2e
// tests and `rec doctor gemini`, through the Driver of ../driver.ts. Every wait is on screen text.
import { KEYS } from '../../../lab/keys.js';
import { press, type Driver, type RecordedScenario } from '../../../lab/driver.js';

export interface ContentScenario extends RecordedScenario {
  /** The terminal answers Gemini's kitty keyboard query (`CSI ? u` → `CSI ? 1 u`), so Gemini turns kitty on. */
  readonly kitty?: boolean;
  /** Gemini's editor is the fake vim (env.ts), for "Modify with external editor". */
  readonly fakeEditor?: boolean;
  /** Gemini has the one-tool MCP server (env.ts). */
  readonly mcpServer?: boolean;
  /** Gemini's arguments (none when the user types the first message). */
  readonly args?: readonly string[];
}

/** Keys as the scenarios write them (the one key map: src/lab/keys.ts), plus Esc as kitty encodes it. */
export const KEY = {
  esc: KEYS.esc,
  enter: KEYS.enter,
  ctrlC: KEYS['ctrl-c'],
  down: KEYS.down,
  /** Esc under the kitty keyboard protocol (CSI 27 u). */
  kittyEsc: '\x1b[27u',
} as const;

/** The kitty keyboard query Gemini sends at start (with OSC 11, XTVERSION, modifyOtherKeys and DA1 queries). */
export const KITTY_QUERY = '\x1b[?u';
/**
 * A kitty-capable terminal's answer: kitty flags 1, then Primary Device Attributes. Gemini waits up
 * to 1 s for the answers and stops waiting at the DA1 one.
 */
export const KITTY_ANSWER = '\x1b[?1u\x1b[?62;22c';

/** Screen texts of Gemini 0.61.0. */
export const SCREEN = {
  /**
   * The composer. Gemini may still be initializing then: a prompt sent early is shown with
   * "ℹ Initializing... Prompts will be queued." (a history line that stays) and runs once it is ready.
   */
  ready: /Type your message/,
  shellDialog: /Allow execution of \[Shell\]\?[\s\S]*No, suggest changes \(esc\)/,
  mcpDialog: /Allow execution of MCP tool "[^"]*touch_marker" from server "marker"\?[\s\S]*No, suggest changes \(esc\)/,
  proceedDialog: /Do you want to proceed\?[\s\S]*No, suggest changes \(esc\)/,
  editDialog: /Apply this change\?[\s\S]*No, suggest changes \(esc\)/,
  /** The edit dialog again, after the fake editor changed the proposed line. */
  editedDialog: /\+ edited line[\s\S]*Apply this change\?[\s\S]*No, suggest changes \(esc\)/,
  option3Selected: /● 3\. No, suggest changes \(esc\)/,
  cancelled: /ℹ Request cancelled\./,
  pressCtrlCAgain: /Press Ctrl\+C again to exit/,
  /** The approved command's running row (its mark toggles ⊶/⊷) with the spinner: Gemini shows the spinner at other moments too. */
  running: /[⊶⊷]\s+Shell[\s\S]*esc to cancel/,
  final: /MOCK FINAL: all done\./,
  /** The completion row under a typed `/quit`. */
  quitSuggestion: /^ *quit +Exit the cli/m,
  /** The slow stream has shown at least this word. */
  streamedTo: (n: number) => new RegExp(`\\bw${n}\\b`),
  writeDialog: (file: string) => new RegExp(`\\? WriteFile\\s+Writing to ${file.replace('.', '\\.')}[\\s\\S]*Allow once`),
  counter: (n: number, of: number) => new RegExp(`\\b${n} of ${of}\\b[\\s\\S]*Allow once`),
} as const;

/** The prompt that picks a mock scenario; the words after the marker are what the user "asks". */
export function promptFor(scenario: string): string {
  return `[[scenario:${scenario}]] please do the thing`;
}

/** The user's reason, typed as the next prompt after a rejection (Gemini's dialogs take no text). */
export const REASON = 'do not touch files in this repo';

async function ask(d: Driver, scenario: string, dialog: RegExp): Promise<void> {
  await d.line(promptFor(scenario));
  await d.waitScreen(dialog, 'dialog');
}

/** The approved `sleep 30` is running (the spinner says "esc to cancel"). */
async function sleepRunning(d: Driver): Promise<void> {
  await ask(d, 'long', SCREEN.shellDialog);
  await press(d, KEY.enter);
  await d.waitScreen(SCREEN.running, 'running');
}

async function streaming(d: Driver): Promise<void> {
  await d.line(promptFor('stream'));
  await d.waitScreen(SCREEN.streamedTo(6), 'streaming');
}

/** A scenario of one key at one dialog: ask for it, press the key, wait for what follows. */
function oneKey(
  name: string,
  description: string,
  scenario: string,
  dialog: RegExp,
  key: string,
  until: RegExp,
  label: string,
  flags: Pick<ContentScenario, 'kitty' | 'fakeEditor' | 'mcpServer'> = {},
): ContentScenario {
  return {
    name,
    description,
    ...flags,
    async run(d) {
      await ask(d, scenario, dialog);
      await press(d, key);
      await d.waitScreen(until, label);
    },
  };
}

export const SCENARIOS: readonly ContentScenario[] = [
  oneKey(
    'shell-approve-enter',
    'run_shell_command dialog, "Allow once" with Enter',
    'shell', SCREEN.shellDialog, KEY.enter, SCREEN.final, 'done',
  ),
  {
    name: 'shell-approve-enter-initial',
    description: 'gemini --prompt-interactive with the shell prompt: the first dialog, "Allow once" with Enter',
    args: ['--prompt-interactive', promptFor('shell')],
    async run(d) {
      // The message is Gemini's argument: nothing is typed, the dialog follows the start.
      await d.waitScreen(SCREEN.shellDialog, 'dialog');
      await press(d, KEY.enter);
      await d.waitScreen(SCREEN.final, 'done');
    },
  },
  oneKey(
    'shell-approve-session',
    'run_shell_command dialog, "Allow for this session" with 2',
    'shell', SCREEN.shellDialog, '2', SCREEN.final, 'done',
  ),
  oneKey(
    'shell-reject-esc',
    'run_shell_command dialog rejected with Esc (a deny-only session: Gemini deletes its file at exit)',
    'shell', SCREEN.shellDialog, KEY.esc, SCREEN.cancelled, 'rejected',
  ),
  oneKey(
    'shell-reject-digit',
    'run_shell_command dialog rejected with 3 ("No, suggest changes (esc)")',
    'shell', SCREEN.shellDialog, '3', SCREEN.cancelled, 'rejected',
  ),
  {
    name: 'shell-reject-down-enter',
    description: 'run_shell_command dialog, Down Down to option 3, then Enter',
    async run(d) {
      await ask(d, 'shell', SCREEN.shellDialog);
      await press(d, KEY.down, KEY.down);
      await d.waitScreen(SCREEN.option3Selected, 'selected-3');
      await press(d, KEY.enter);
      await d.waitScreen(SCREEN.cancelled, 'rejected');
    },
  },
  oneKey(
    'shell-ctrlc-at-dialog',
    'Ctrl+C at the run_shell_command dialog (the global handler cancels the request)',
    'shell', SCREEN.shellDialog, KEY.ctrlC, SCREEN.cancelled, 'rejected',
  ),
  oneKey(
    'edit-reject-esc',
    'replace on edit_me.txt, "Apply this change?" rejected with Esc',
    'edit', SCREEN.editDialog, KEY.esc, SCREEN.cancelled, 'rejected',
  ),
  {
    name: 'edit-modify-then-allow',
    description: 'replace on edit_me.txt: 3 ("Modify with external editor"), the editor changes the line, then 1 at the dialog shown again',
    fakeEditor: true,
    async run(d) {
      await ask(d, 'edit', SCREEN.editDialog);
      await press(d, '3');
      await d.waitScreen(SCREEN.editedDialog, 'edited-dialog');
      await press(d, '1');
      await d.waitScreen(SCREEN.final, 'done');
    },
  },
  oneKey(
    'mcp-reject-esc',
    'an MCP tool call (server marker, tool touch_marker): its dialog refused with Esc',
    'mcp', SCREEN.mcpDialog, KEY.esc, SCREEN.cancelled, 'rejected', { mcpServer: true },
  ),
  oneKey(
    'mcp-approve-enter',
    'an MCP tool call approved once with Enter: the tool runs (creates its marker file)',
    'mcp', SCREEN.mcpDialog, KEY.enter, SCREEN.final, 'done', { mcpServer: true },
  ),
  oneKey(
    'fetch-reject-esc',
    'web_fetch asks "Do you want to proceed?"; Esc refuses it',
    'fetch', SCREEN.proceedDialog, KEY.esc, SCREEN.cancelled, 'rejected',
  ),
  oneKey(
    'parallel-writes-reject-first',
    'two write_file calls in one response: Esc at the first; the second dialog never shows',
    'parallel-writes', SCREEN.writeDialog('a.txt'), KEY.esc, SCREEN.cancelled, 'rejected',
  ),
  {
    name: 'parallel-writes-approve-then-reject',
    description: 'two write_file calls in one response: Enter at the first, Esc at the second',
    async run(d) {
      await ask(d, 'parallel-writes', SCREEN.writeDialog('a.txt'));
      await press(d, KEY.enter);
      await d.waitScreen(SCREEN.writeDialog('b.txt'), 'second-dialog');
      await press(d, KEY.esc);
      // One call succeeded, so both function responses go back and the model answers.
      await d.waitScreen(SCREEN.final, 'done');
    },
  },
  {
    name: 'parallel-shell-esc',
    description: 'three run_shell_command calls in one response ("1 of 3"), all cancelled by one Esc',
    async run(d) {
      await ask(d, 'parallel-shell', SCREEN.counter(1, 3));
      await press(d, KEY.esc);
      await d.waitScreen(SCREEN.cancelled, 'rejected');
    },
  },
  {
    name: 'long-esc-running',
    description: 'sleep 30 approved with Enter, then Esc while it runs',
    async run(d) {
      await sleepRunning(d);
      await press(d, KEY.esc);
      await d.waitScreen(SCREEN.cancelled, 'interrupted');
    },
  },
  {
    name: 'long-ctrlc-running',
    description: 'sleep 30 approved with Enter, then Ctrl+C while it runs',
    async run(d) {
      await sleepRunning(d);
      await press(d, KEY.ctrlC);
      await d.waitScreen(SCREEN.cancelled, 'interrupted');
    },
  },
  {
    name: 'stream-esc',
    description: 'an endless slow answer cut with Esc',
    async run(d) {
      await streaming(d);
      await press(d, KEY.esc);
      await d.waitScreen(SCREEN.cancelled, 'interrupted');
    },
  },
  {
    name: 'stream-ctrlc',
    description: 'an endless slow answer cut with Ctrl+C',
    async run(d) {
      await streaming(d);
      await press(d, KEY.ctrlC);
      await d.waitScreen(SCREEN.cancelled, 'interrupted');
    },
  },
  {
    name: 'shell-reject-then-reason',
    description: 'Esc at the run_shell_command dialog, then the next prompt (the reason)',
    async run(d) {
      await ask(d, 'shell', SCREEN.shellDialog);
      await press(d, KEY.esc);
      await d.waitScreen(SCREEN.cancelled, 'rejected');
      await d.line(REASON);
      await d.waitScreen(new RegExp(`Noted: ${REASON}`), 'reason-answered');
    },
  },
  oneKey(
    'shell-reject-esc-kitty',
    'the terminal supports the kitty keyboard protocol: Esc at the dialog arrives as CSI 27 u',
    'shell', SCREEN.shellDialog, KEY.kittyEsc, SCREEN.cancelled, 'rejected', { kitty: true },
  ),
];

/** How long one Enter on `/quit` gets to end Gemini (it prints its summary and exits in about a second). */
const QUIT_WAIT_MS = 5_000;
/** Enter presses on `/quit`: an Enter that lands while the completion menu redraws only picks the entry. */
const QUIT_ATTEMPTS = 3;

/**
 * Gemini's own quit: `/quit` at the composer, then Enter until it exits (0, after its session
 * summary). `exited` waits up to the given time for the process to end and says whether it did.
 */
export async function quitGemini(d: Driver, exited: (timeoutMs: number) => Promise<boolean>): Promise<void> {
  d.send('/quit');
  await d.waitScreen(SCREEN.quitSuggestion);
  for (let attempt = 0; attempt < QUIT_ATTEMPTS; attempt += 1) {
    await press(d, KEY.enter);
    if (await exited(QUIT_WAIT_MS)) return;
  }
  throw new Error(`gemini did not exit after /quit and ${QUIT_ATTEMPTS} Enter presses`);
}
