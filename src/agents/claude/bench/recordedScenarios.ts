// Claude Code's core scenarios as key scripts over its real TUI. The same scripts drive the fixture
// recorder (scripts/record-claude-fixtures.mjs, plain claude), `rec claude` in the e2e tests and
// `rec doctor claude`.
// Claude Code draws full screen and redraws only changed cells, so every wait is on the rendered
// screen (the headless terminal), never on the raw output; and on the mock's stream notes where the
// screen shows nothing (a streamed answer is not rendered while it streams).
import { KEYS } from '../../../lab/keys.js';
import type { StreamNote } from '../../../lab/mock/anthropicMessages/server.js';
import { press, settle, type Driver, type RecordedScenario } from '../../../lab/driver.js';

export { settle };

/** A Driver that can also see the mock model's side: how far a reply has streamed. */
export interface ClaudeDriver extends Driver {
  waitStream(predicate: (n: StreamNote) => boolean, timeoutMs?: number): Promise<void>;
}

export interface ClaudeScenario extends Omit<RecordedScenario, 'run'> {
  /** The user's own flags for claude (rec passes them on, merging its hooks into a --settings). */
  readonly args?: readonly string[];
  run(d: ClaudeDriver): Promise<void>;
  /** How the run ends, when Ctrl+C twice at the idle prompt (quitClaude) does not fit. */
  quit?(d: Driver): Promise<void>;
}

export const KEY = { esc: KEYS.esc, enter: KEYS.enter, tab: KEYS.tab, ctrlC: KEYS['ctrl-c'], down: KEYS.down, up: KEYS.up } as const;

/** Screen texts of Claude Code 2.1.330 and 2.1.332. */
export const SCREEN = {
  /** The input prompt: `❯` and a no-break space. */
  ready: /^❯\u00a0/m,
  /** The idle footer: no "esc to interrupt" anywhere on it (a running turn, or Stop hook, adds it, after other hints). */
  idle: /^❯\u00a0[\s\S]*^ +⏸ manual mode on(?!.*esc to interrupt).*$/m,
  permission: /Do you want to (?:proceed|create|make this edit)[\s\S]*Esc to cancel · Tab to amend/,
  bashPrompt: /Bash command[\s\S]*Do you want to proceed\?[\s\S]*Esc to cancel · Tab to amend/,
  editPrompt: /Edit file[\s\S]*Do you want to make this edit to notes\.txt\?[\s\S]*Esc to cancel · Tab to amend/,
  /** The highlighted option 4 (Bash's No). */
  noSelected: /❯ 4\. No\s*$/m,
  amendNo: /❯ 4\. No, and tell Claude what to do differently/,
  working: /esc to interrupt/,
  running: /ctrl\+b to run in background/,
  interrupted: /Interrupted · What should Claude do instead\?/,
  editRejected: /Rejected update to notes\.txt/,
  writePrompt: /Create file[\s\S]*Do you want to create created\.txt\?[\s\S]*Esc to cancel · Tab to amend/,
  writeRejected: /Rejected write to created\.txt/,
  subagentPrompt: /Bash command · from the general-purpose agent[\s\S]*Do you want to proceed\?[\s\S]*Esc to cancel/,
  /** The Agent call's row once its subagent was launched in the background (2.1.330 does so even when asked for the foreground). */
  backgrounded: /Agent\(Stream in a subagent\)\s*\n\s*⎿\s+Backgrounded agent/,
  /** The subagent runs in the background; when it finishes, Claude Code starts a turn of its own to report it. */
  agentFinished: /Agent "Run bash in a subagent" finished[\s\S]*MOCK FINAL: nothing to report\./,
  final: /MOCK FINAL:/,
  denied: /permission denied/,
  pressAgain: /Press Ctrl-C again to exit/,
} as const;

/** How long after the Esc the background subagent must still be streaming: 20 of the mock's slow chunks. */
const SUBAGENT_STILL_STREAMING_MS = 3_000;

export const REASON = 'please use printf instead';
export const DISCARDED_REASON = 'this text is thrown away';

/** Types a prompt, waits until it shows in the input, then presses Enter. */
async function prompt(d: ClaudeDriver, scenario: string, label: string): Promise<void> {
  await d.line(`SCENARIO ${scenario}`);
  await d.waitScreen(label === 'bash' ? SCREEN.bashPrompt : label === 'edit' ? SCREEN.editPrompt : SCREEN.permission, 'prompt');
}

/** Moves the highlight to Bash's "4. No". */
async function selectNo(d: ClaudeDriver): Promise<void> {
  await press(d, KEY.down, KEY.down, KEY.down);
  await d.waitScreen(SCREEN.noSelected, 'no-selected');
}

/** Ctrl+C twice at the idle prompt: Claude Code asks for the second, then exits. */
export async function quitClaude(d: Driver): Promise<void> {
  await d.waitScreen(SCREEN.idle, 'idle');
  await press(d, KEY.ctrlC);
  await d.waitScreen(SCREEN.pressAgain);
  d.send(KEY.ctrlC);
}

/** Down to "4. No", Tab, and a typed text in the field that opens there. */
async function amendNo(d: ClaudeDriver, text: string): Promise<void> {
  await selectNo(d);
  await press(d, KEY.tab);
  await d.waitScreen(SCREEN.amendNo, 'amend');
  d.send(text);
  await d.waitScreen(new RegExp(`❯ 4\\. No, ${text}`), 'typed');
}

/** The Bash prompt of `SCENARIO bash`, the keys that decide it, and the screen that follows. */
function atBashPrompt(name: string, description: string, decide: (d: ClaudeDriver) => Promise<void>, outcome: RegExp): ClaudeScenario {
  return {
    name,
    description,
    async run(d) {
      await prompt(d, 'bash', 'bash');
      await decide(d);
      await d.waitScreen(outcome, outcome === SCREEN.final ? 'final' : 'rejected');
    },
  };
}

/**
 * A reply still streaming from the mock (`slowtext` or `slowtool`), cut with Esc. Claude Code does not
 * render a reply while it streams, so the mock's notes say how far it got and that Claude Code hung up.
 */
function escMidStream(scenario: 'slowtext' | 'slowtool', description: string): ClaudeScenario {
  return {
    name: `${scenario}-esc`,
    description,
    async run(d) {
      await d.line(`SCENARIO ${scenario}`);
      await d.waitStream((n) => n.scenario === scenario && n.chunks >= 8);
      await d.waitScreen(SCREEN.working, 'streaming');
      await press(d, KEY.esc);
      await d.waitStream((n) => n.scenario === scenario && n.event === 'client_aborted_stream');
      await d.waitScreen(SCREEN.interrupted, 'interrupted');
    },
  };
}

/** A 30 s command (node setTimeout: `sleep 30` is blocked) approved with 1, then cut with the key while it runs. */
function cutWhileRunning(key: 'esc' | 'ctrlc'): ClaudeScenario {
  const bytes = key === 'esc' ? KEY.esc : KEY.ctrlC;
  return {
    name: `sleep-${key}-running`,
    description: `a 30 s command approved with 1, then ${key === 'esc' ? 'Esc' : 'Ctrl+C'} while it runs`,
    async run(d) {
      await prompt(d, 'sleep', 'bash');
      await press(d, '1');
      await d.waitScreen(SCREEN.running, 'running');
      await press(d, bytes);
      await d.waitScreen(SCREEN.interrupted, 'interrupted');
    },
  };
}

export const SCENARIOS: readonly ClaudeScenario[] = [
  atBashPrompt('bash-approve-once', 'Bash prompt, approved with 1 (Yes)', (d) => press(d, '1'), SCREEN.final),
  atBashPrompt('bash-approve-always', "Bash prompt, approved with 2 (don't ask again for the work dir)", (d) => press(d, '2'), SCREEN.final),
  atBashPrompt('bash-reject-digit', 'Bash prompt, rejected with 4 (No)', (d) => press(d, '4'), SCREEN.interrupted),
  atBashPrompt('bash-reject-esc', 'Bash prompt, rejected with Esc', (d) => press(d, KEY.esc), SCREEN.interrupted),
  atBashPrompt(
    'bash-reject-reason',
    'Bash prompt: Down to No, Tab, a typed reason, Enter (the turn goes on)',
    async (d) => {
      await amendNo(d, REASON);
      await press(d, KEY.enter);
    },
    SCREEN.final,
  ),
  atBashPrompt(
    'bash-reject-reason-discarded',
    'Bash prompt: Down to No, Tab, a typed reason, then Esc (the text is thrown away)',
    async (d) => {
      await amendNo(d, DISCARDED_REASON);
      await press(d, KEY.esc);
    },
    SCREEN.interrupted,
  ),
  {
    name: 'edit-reject',
    description: 'Read (auto-allowed), then the Edit prompt for notes.txt, rejected with 3 (No)',
    async run(d) {
      await prompt(d, 'edit', 'edit');
      await press(d, '3');
      // A rejected edit leaves its own line (with the diff), not "Interrupted · What should Claude do instead?".
      await d.waitScreen(SCREEN.editRejected, 'rejected');
    },
  },
  {
    name: 'write-reject-esc',
    description: 'the Write prompt ("Create file") for a new created.txt, refused with Esc',
    async run(d) {
      await d.line('SCENARIO write');
      await d.waitScreen(SCREEN.writePrompt, 'prompt');
      await press(d, KEY.esc);
      await d.waitScreen(SCREEN.writeRejected, 'rejected');
    },
  },
  {
    name: 'parallel-second-rejected',
    description: 'three parallel Bash calls: the first approved with 1, the second rejected with Esc, the third never prompted',
    async run(d) {
      await d.line('SCENARIO parallel');
      await d.waitScreen(/echo one > p1\.txt[\s\S]*Do you want to proceed\?[\s\S]*Esc to cancel/, 'prompt-1');
      await press(d, '1');
      await d.waitScreen(/echo two > p2\.txt[\s\S]*Do you want to proceed\?[\s\S]*Esc to cancel/, 'prompt-2');
      await press(d, KEY.esc);
      await d.waitScreen(SCREEN.interrupted, 'rejected');
    },
  },
  {
    name: 'bash-long-wrap-approve',
    description: 'at 80x24, a long node -e command wrapped over several rows of the Bash prompt, approved with 1',
    cols: 80,
    rows: 24,
    async run(d) {
      await prompt(d, 'longnode', 'bash');
      await press(d, '1');
      await d.waitScreen(SCREEN.final, 'final');
    },
  },
  cutWhileRunning('esc'),
  cutWhileRunning('ctrlc'),
  escMidStream('slowtext', 'an endless slowly streamed answer, cut with Esc'),
  escMidStream('slowtool', 'a tool_use whose input is still streaming, cut with Esc (Claude Code drops the call)'),
  {
    name: 'deny-rule',
    description: 'a Bash call matched by the deny rule Bash(rm:*) in settings.json: refused without a prompt',
    async run(d) {
      await d.line('SCENARIO denyrule');
      await d.waitScreen(SCREEN.denied, 'denied');
      await d.waitScreen(SCREEN.final, 'final');
    },
  },
  {
    name: 'subagent-bash-esc',
    description: "a subagent's Bash prompt (\"from the general-purpose agent\") rejected with Esc; the subagent goes on",
    async run(d) {
      await d.line('SCENARIO agent');
      await d.waitScreen(SCREEN.subagentPrompt, 'prompt');
      await press(d, KEY.esc);
      await d.waitScreen(SCREEN.agentFinished, 'agent-finished');
    },
  },
  {
    name: 'subagent-foreground-esc',
    description:
      'a subagent asked for the foreground (run_in_background: false) that streams an endless answer; Esc at the prompt while it works (2.1.330 backgrounds it anyway; the Esc does not reach it)',
    async run(d) {
      await d.line('SCENARIO agent-foreground');
      await d.waitScreen(SCREEN.backgrounded, 'backgrounded');
      await d.waitStream((n) => n.scenario === 'slowtext' && n.chunks >= 8);
      await d.waitScreen(SCREEN.idle, 'working');
      const escAt = Date.now();
      await press(d, KEY.esc);
      // Still streaming well after the Esc (the mock sends a chunk every 150 ms), never cut.
      let aborted = false;
      await d.waitStream((n) => {
        if (n.scenario === 'slowtext' && n.event === 'client_aborted_stream') aborted = true;
        return aborted || (n.scenario === 'slowtext' && Date.parse(n.ts) > escAt + SUBAGENT_STILL_STREAMING_MS);
      });
      if (aborted) throw new Error('the Esc cut the background subagent');
    },
  },
  atBashPrompt(
    'resize-at-prompt',
    'the Bash prompt open while the terminal shrinks from 120x40 to 80x30, then Esc',
    async (d) => {
      await settle();
      d.resize(80, 30);
      // At 80 columns the tip wraps before "below": Claude Code's own redraw, not the old rows cut short.
      await d.waitScreen(/choose "switch to auto mode"\s*\n below\s*$[\s\S]*Esc to cancel · Tab to amend/m, 'resized');
      await press(d, KEY.esc);
    },
    SCREEN.interrupted,
  ),
  atBashPrompt(
    'ctrlc-at-prompt',
    'Ctrl+C at the Bash prompt (Claude Code ignores it), then Esc',
    async (d) => {
      await press(d, KEY.ctrlC);
      // Nothing to wait for: Ctrl+C changes nothing at a dialog. The Esc after it decides.
      await press(d, KEY.esc);
    },
    SCREEN.interrupted,
  ),
];
