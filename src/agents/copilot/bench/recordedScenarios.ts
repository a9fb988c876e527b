// GitHub Copilot CLI's scenarios as key scripts over its real TUI (1.0.102, docs/copilot.md), for the
// fixture recorder (scripts/record-copilot-fixtures.mjs). Copilot draws full screen and redraws only
// what changed, so every wait is on the rendered screen (the headless terminal), and on the mock's
// stream notes where a reply must be mid-stream.
import { KEYS } from '../../../lab/keys.js';
import type { StreamNote } from '../../../lab/mock/anthropicMessages/server.js';
import { press, settle, type Driver, type RecordedScenario } from '../../../lab/driver.js';
import { REASON } from './mockScenarios.js';

export { settle };

/** A Driver that can also see the mock model's side: how far a reply has streamed. */
export interface CopilotDriver extends Driver {
  waitStream(predicate: (n: StreamNote) => boolean, timeoutMs?: number): Promise<void>;
}

/** One start of the CLI in the scenario's world: its flags and its key script. */
export interface CopilotLaunch {
  readonly args?: readonly string[];
  run(d: CopilotDriver): Promise<void>;
  /** How this start ends, when Ctrl+C twice at the idle prompt (quitCopilot) does not fit. */
  quit?(d: Driver): Promise<void>;
}

export interface CopilotScenario extends Omit<RecordedScenario, 'run'>, CopilotLaunch {
  /** Leave the work dir untrusted (the folder-trust dialog). */
  readonly untrusted?: boolean;
  /** Log every hook payload (the env's hook logger in ~/.copilot/hooks). */
  readonly hooks?: boolean;
  /** Configure the MCP server `marker` (test/fakes/mcp/markerServer.mjs). */
  readonly mcpServer?: boolean;
  /** Later starts in the same world (e.g. `--continue`), each recorded as `<name>.launch<N>.*`. */
  readonly then?: readonly CopilotLaunch[];
}

export const KEY = { esc: KEYS.esc, enter: KEYS.enter, ctrlC: KEYS['ctrl-c'], down: KEYS.down, up: KEYS.up, ctrlU: '\x15' } as const;

/** Screen texts of 1.0.102. */
export const SCREEN = {
  /** The idle footer (the composer empty, nothing running). */
  idle: /^ (?:← open sidebar · )?Interactive · Manual Approval · \/ commands · \? help/m,
  trust: /Confirm folder trust[\s\S]*Do you trust the files in this folder\?[\s\S]*esc to cancel/,
  shell: /Do you want to run this command\?[\s\S]*↑\/↓ to navigate · enter to select · esc to cancel/,
  create: /Create file[\s\S]*Do you want to create \S+\?[\s\S]*esc to cancel/,
  edit: /Edit file[\s\S]*Do you want to edit \S+\?[\s\S]*esc to cancel/,
  path: /Allow path access[\s\S]*Do you want to allow this\?[\s\S]*esc to cancel/,
  url: /Copilot is attempting to access the following URL:[\s\S]*Do you want to allow this access\?[\s\S]*esc to cancel/,
  mcp: /Do you want to use this tool\?[\s\S]*esc to cancel/,
  askUser: /Copilot needs information\.[\s\S]*esc cancel/,
  /** The "No, and tell Copilot…" row highlighted with the typed reason in place of its label. */
  reasonTyped: new RegExp(`❯ \\d\\. ${REASON} \\(Esc to stop\\)`),
  /** The second of several queued prompts. */
  queued: /Permission request \(\d remaining\)/,
  working: /Working · /,
  escAgain: /esc again to interrupt/,
  /**
   * The turn cut at a prompt: `● Operation cancelled by user` under the call's `✗ … Operation aborted
   * by user` row, or, at times, that row alone (the status line's `Cancelling` ends with no message).
   */
  cancelled: /Operation cancelled by user|^ ✗ .*Operation aborted by user/m,
  rejected: /The user rejected this tool call\./,
  final: /MOCK FINAL:/,
  ctrlCAgain: /ctrl\+c again to exit/,
} as const;

/** A screen with `re` and without `gone` (`(?<![\\s\\S])` is the start of the screen, even with the `m` flag). */
const without = (re: RegExp, gone: RegExp): RegExp => new RegExp(`(?<![\\s\\S])(?![\\s\\S]*${gone.source})[\\s\\S]*${re.source}`, re.flags);
/** Nothing waits for an answer any more and the turn is over: the idle footer, no dialog. */
const DONE = without(SCREEN.idle, /esc to cancel/);

/** Ctrl+C twice at the idle prompt: the footer asks for the second, then the CLI exits (code 0). */
export async function quitCopilot(d: Driver): Promise<void> {
  await d.waitScreen(DONE, 'idle');
  await press(d, KEY.ctrlC);
  await d.waitScreen(SCREEN.ctrlCAgain, 'ctrl-c-once');
  d.send(KEY.ctrlC);
}

/** Types `SCENARIO <name>`, sends it and waits for the prompt it raises. */
async function ask(d: CopilotDriver, scenario: string, prompt: RegExp): Promise<void> {
  await d.line(`SCENARIO ${scenario}`);
  await d.waitScreen(prompt, 'prompt');
}

/** Chooses the "No, and tell Copilot…" row with `key`, types the reason, waits until it shows. */
async function typeReason(d: CopilotDriver, key: string): Promise<void> {
  await press(d, key);
  await settle();
  d.send(REASON);
  await d.waitScreen(SCREEN.reasonTyped, 'reason-typed');
}

/** A prompt of `scenario`, the keys that decide it, and the screen that follows. */
function at(name: string, description: string, scenario: string, prompt: RegExp, decide: (d: CopilotDriver) => Promise<void>, outcome: RegExp = DONE): CopilotScenario {
  return {
    name,
    description,
    async run(d) {
      await ask(d, scenario, prompt);
      await decide(d);
      await d.waitScreen(outcome, 'after');
    },
  };
}

const keys =
  (...k: string[]) =>
  (d: CopilotDriver): Promise<void> =>
    press(d, ...k);

/** Approves the running command, waits until it runs, then interrupts it with `k`. */
function interruptRunning(name: string, description: string, ...k: string[]): CopilotScenario {
  return at(name, description, 'sleep', SCREEN.shell, async (d) => {
    await press(d, '1');
    await d.waitScreen(without(SCREEN.working, /Do you want to run/), 'running');
    await settle();
    for (const key of k) {
      d.send(key);
      if (k.length > 1) await d.waitScreen(SCREEN.escAgain, 'esc-once');
    }
  });
}

/** Waits until the endless answer streams, then interrupts it with `k`. */
function interruptStream(name: string, description: string, ...k: string[]): CopilotScenario {
  return {
    name,
    description,
    async run(d) {
      await d.line('SCENARIO slowtext');
      await d.waitStream((n) => n.scenario === 'slowtext' && n.chunks >= 8);
      await d.waitScreen(/word5 /, 'streaming');
      for (const key of k) {
        d.send(key);
        if (k.length > 1) await d.waitScreen(SCREEN.escAgain, 'esc-once');
      }
      await d.waitStream((n) => n.scenario === 'slowtext' && n.event === 'client_aborted_stream');
      await d.waitScreen(DONE, 'after');
    },
  };
}

export const SCENARIOS: readonly CopilotScenario[] = [
  {
    name: 'trust-remember',
    description: 'Untrusted folder: the trust dialog, 2 ("Yes, and remember this folder…")',
    untrusted: true,
    async run(d) {
      await d.waitScreen(SCREEN.trust, 'trust');
      await press(d, '2');
      await d.waitScreen(DONE, 'trusted');
    },
  },
  {
    name: 'trust-esc',
    description: 'Untrusted folder: Esc ("3. No (Esc)") at the trust dialog',
    untrusted: true,
    async run(d) {
      await d.waitScreen(SCREEN.trust, 'trust');
      await press(d, KEY.esc);
    },
    // "No" leaves the CLI: the recorder waits for it to exit.
    quit: async (d) => {
      await settle();
      d.snap('after-esc');
    },
  },
  at('bash-approve-digit', 'Shell prompt (echo > file): 1', 'bash', SCREEN.shell, keys('1')),
  at('bash-approve-enter', 'Shell prompt: Enter on the highlighted "1. Yes"', 'bash', SCREEN.shell, keys(KEY.enter)),
  at('bash-approve-arrows', 'Shell prompt: ↓ (to "2. No…"), Enter there (nothing happens without text), ↑, Enter', 'bash', SCREEN.shell, async (d) => {
    await press(d, KEY.down);
    await d.waitScreen(/❯ 2\. No, and tell Copilot/, 'down');
    await press(d, KEY.enter);
    await settle();
    d.snap('enter-on-empty-no');
    await press(d, KEY.up);
    await d.waitScreen(/❯ 1\. Yes/, 'up');
    await press(d, KEY.enter);
  }),
  at('bash-reject-esc', 'Shell prompt: Esc', 'bash', SCREEN.shell, keys(KEY.esc), SCREEN.cancelled),
  at('bash-reject-ctrlc', 'Shell prompt: Ctrl+C once', 'bash', SCREEN.shell, keys(KEY.ctrlC), SCREEN.cancelled),
  at('bash-reject-reason', 'Shell prompt: 2, a typed reason, Enter', 'bash', SCREEN.shell, async (d) => {
    await typeReason(d, '2');
    await press(d, KEY.enter);
  }, SCREEN.final),
  at('bash-reject-reason-esc', 'Shell prompt: 2, a typed reason, then Esc (the reason is thrown away)', 'bash', SCREEN.shell, async (d) => {
    await typeReason(d, '2');
    await press(d, KEY.esc);
  }, SCREEN.cancelled),
  at('bash-read-auto', 'A read-only command (cat notes.txt): no prompt', 'bashread', SCREEN.final, async () => {}),
  at('bash-pipe-approve', 'Shell prompt for `cat | wc -l > file`: 1', 'bashpipe', SCREEN.shell, keys('1')),
  at('bash-and-reject-esc', 'Shell prompt for `mkdir -p out && echo > file` (offers "don\'t ask again for `mkdir`"): Esc', 'bashand', SCREEN.shell, keys(KEY.esc), SCREEN.cancelled),
  {
    name: 'bash-approve-location',
    description: 'Shell prompt for `node -e …`: 2 ("Yes, and don\'t ask again for `node` in this repo"), then the same command again: no prompt',
    async run(d) {
      await ask(d, 'bashnode', SCREEN.shell);
      await press(d, '2');
      await d.waitScreen(SCREEN.final, 'after');
      await d.waitScreen(DONE);
      await d.line('SCENARIO bashnode');
      await d.waitScreen(/MOCK FINAL:[\s\S]*MOCK FINAL:/, 'again');
    },
  },
  at('create-approve', 'Create-file prompt: 1', 'create', SCREEN.create, keys('1')),
  at('create-reject-esc', 'Create-file prompt: Esc', 'create', SCREEN.create, keys(KEY.esc), SCREEN.cancelled),
  at('create-approve-location', 'Create-file prompt: 2 ("don\'t ask again for file operations when in this repo")', 'create', SCREEN.create, keys('2')),
  at('edit-reject-reason', 'Edit-file prompt (after an auto-approved view): 3, a typed reason, Enter', 'edit', SCREEN.edit, async (d) => {
    await typeReason(d, '3');
    await press(d, KEY.enter);
  }, SCREEN.final),
  at('path-reject-digit', 'Path-access prompt (view /etc/hostname): 4 ("No (Esc)")', 'outside', SCREEN.path, keys('4'), SCREEN.rejected),
  at('path-reject-esc', 'Path-access prompt: Esc', 'outside', SCREEN.path, keys(KEY.esc)),
  at('path-approve-session', 'Path-access prompt: 2 ("Yes, and remember this path for this session")', 'outside', SCREEN.path, keys('2')),
  at('url-approve', 'URL prompt of a curl to loopback: 1, then the shell prompt of the same call: 1', 'bashurl', SCREEN.url, async (d) => {
    await press(d, '1');
    await d.waitScreen(SCREEN.shell, 'shell-prompt');
    await press(d, '1');
  }),
  at('url-reject-esc', 'URL prompt: Esc', 'bashurl', SCREEN.url, keys(KEY.esc), SCREEN.cancelled),
  at('url-approve-always', 'URL prompt: 3 ("approve all URLs from … permanently"), then Esc at the shell prompt', 'bashurl', SCREEN.url, async (d) => {
    await press(d, '3');
    await d.waitScreen(SCREEN.shell, 'shell-prompt');
    await press(d, KEY.esc);
  }, SCREEN.cancelled),
  { ...at('mcp-approve', 'MCP tool prompt (marker/touch_marker): 1', 'mcp', SCREEN.mcp, keys('1')), mcpServer: true },
  { ...at('mcp-reject-esc', 'MCP tool prompt: Esc', 'mcp', SCREEN.mcp, keys(KEY.esc), SCREEN.cancelled), mcpServer: true },
  { ...at('mcp-approve-location', 'MCP tool prompt: 2 ("don\'t ask again for tool … in this repo")', 'mcp', SCREEN.mcp, keys('2')), mcpServer: true },
  at('askuser-esc', 'ask_user form: Esc', 'askuser', SCREEN.askUser, keys(KEY.esc)),
  at('askuser-answer', 'ask_user form: Enter on the first suggestion', 'askuser', SCREEN.askUser, keys(KEY.enter)),
  ...parallelScenarios(),
  ...interruptScenarios(),
  ...laterScenarios(),
];

/** The title of the shell prompt on screen (its call's description: `Write p1.txt`…). */
function promptTitle(d: Driver): string {
  return /^│ (Write p\d\.txt) +│\n│ ─/m.exec(d.screen())?.[1] ?? '';
}

/**
 * Waits for the next queued shell prompt of the parallel batch: another title than `title`. The
 * three prompts are all requested at once and queued (`Permission request (2 remaining)`), in the
 * order their requests were made, which is not always the calls' order.
 */
async function nextPrompt(d: CopilotDriver, title: string, label: string): Promise<string> {
  await d.waitScreen(new RegExp(`^│ (?!${title.replace('.', '\\.')} )Write p\\d\\.txt +│\\n│ ─[\\s\\S]*${SCREEN.shell.source}`, 'm'), label);
  return promptTitle(d);
}

function parallelScenarios(): CopilotScenario[] {
  return [
    at('parallel-second-esc', 'Three echo > file calls in one message: 1 at the first prompt, Esc at the second', 'parallel', SCREEN.shell, async (d) => {
      const first = promptTitle(d);
      await press(d, '1');
      await nextPrompt(d, first, 'second-prompt');
      await press(d, KEY.esc);
    }),
    at('parallel-first-reason', 'Three calls: 2 + a reason at the first prompt, then 1 at each prompt that follows', 'parallel', SCREEN.shell, async (d) => {
      let title = promptTitle(d);
      await typeReason(d, '2');
      await press(d, KEY.enter);
      for (let i = 0; i < 2; i += 1) {
        title = await nextPrompt(d, title, `next-prompt-${i + 1}`);
        await press(d, '1');
      }
    }, SCREEN.final),
  ];
}

function interruptScenarios(): CopilotScenario[] {
  return [
    interruptRunning('sleep-esc-esc-running', 'sleep 30 approved, then Esc, Esc while it runs', KEY.esc, KEY.esc),
    interruptRunning('sleep-ctrlc-running', 'sleep 30 approved, then Ctrl+C once while it runs', KEY.ctrlC),
    interruptStream('slowtext-esc-esc', 'An endless streamed answer: Esc, Esc', KEY.esc, KEY.esc),
    interruptStream('slowtext-ctrlc', 'An endless streamed answer: Ctrl+C once', KEY.ctrlC),
  ];
}

function laterScenarios(): CopilotScenario[] {
  return [
    { ...at('deny-tool-rule', "`--deny-tool 'shell(rm)'`: the rm command is refused by the rule, no prompt", 'denyrule', SCREEN.final, async () => {}), args: ['--deny-tool', 'shell(rm)'] },
    // `shell(echo)` does not cover `echo … > file`: a redirection is a write, which only --allow-all-tools allows.
    { ...at('allow-tool-rule', "`--allow-tool 'shell(node)'`: `node -e …` runs with no prompt", 'bashnode', SCREEN.final, async () => {}), args: ['--allow-tool', 'shell(node)'] },
    {
      ...at('hooks-bash-reject-reason', 'With the hook logger: shell prompt, 2 + a reason, Enter', 'bash', SCREEN.shell, async (d) => {
        await typeReason(d, '2');
        await press(d, KEY.enter);
      }, SCREEN.final),
      hooks: true,
    },
    { ...at('hooks-parallel-esc', 'With the hook logger: three calls, Esc at the first prompt', 'parallel', SCREEN.shell, keys(KEY.esc), SCREEN.cancelled), hooks: true },
    {
      ...at('resume-continue', 'A shell approval, quit, then `copilot --continue` and another approval (same session, appended)', 'bash', SCREEN.shell, keys('1')),
      then: [
        {
          args: ['--continue'],
          async run(d) {
            await d.waitScreen(DONE, 'resumed');
            await ask(d, 'bash', SCREEN.shell);
            await press(d, '1');
            // The restored history already shows the first turn's answer: wait for the turn to end.
            await settle();
            await d.waitScreen(DONE, 'after');
          },
        },
      ],
    },
  ];
}
