// The scenarios of issue 14 again, with Claude Code's inline renderer: the user's own flag
// `--settings '{"tui":"default"}'` (normal screen, history in the scrollback) instead of the default
// full-screen one. rec merges its hooks into that flag and never changes the user's choice. The same
// key scripts drive the fixture recorder (`--inline`, into recorded-inline/) and the e2e tests. The
// prompt, its footers and the decision rows read as in full screen (SCREEN); what differs is above
// the prompt: every call of a batch keeps its `● Bash(…)` row there.
import { DISCARDED_REASON, KEY, REASON, SCREEN, type ClaudeDriver, type ClaudeScenario } from '../../../src/agents/claude/bench/recordedScenarios.js';
import { press } from '../../../src/lab/driver.js';

/** The user's flag that picks the inline renderer (README §8). */
export const INLINE_ARGS: readonly string[] = ['--settings', '{"tui":"default"}'];

/** The Bash prompt whose body is this command. */
function inlinePromptFor(command: string): RegExp {
  return new RegExp(`^ ${command.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$[\\s\\S]*Do you want to proceed\\?[\\s\\S]*Esc to cancel`, 'm');
}

async function bashPrompt(d: ClaudeDriver, scenario = 'bash'): Promise<void> {
  await d.line(`SCENARIO ${scenario}`);
  await d.waitScreen(SCREEN.bashPrompt, 'prompt');
}

function inline(name: string, description: string, run: (d: ClaudeDriver) => Promise<void>): ClaudeScenario {
  return { name: `inline-${name}`, description: `inline renderer: ${description}`, args: INLINE_ARGS, run };
}

export const INLINE_SCENARIOS: readonly ClaudeScenario[] = [
  inline('bash-reject-esc', 'Bash prompt, rejected with Esc', async (d) => {
    await bashPrompt(d);
    await press(d, KEY.esc);
    await d.waitScreen(SCREEN.interrupted, 'rejected');
  }),
  inline('bash-approve-once', 'Bash prompt, approved with 1 (Yes)', async (d) => {
    await bashPrompt(d);
    await press(d, '1');
    await d.waitScreen(SCREEN.final, 'final');
  }),
  inline('bash-reject-digit', 'Bash prompt, rejected with 4 (No)', async (d) => {
    await bashPrompt(d);
    await press(d, '4');
    await d.waitScreen(SCREEN.interrupted, 'rejected');
  }),
  inline('bash-reject-reason', 'Bash prompt: Down to No, Tab, a typed reason, Enter (the turn goes on)', async (d) => {
    await bashPrompt(d);
    await press(d, KEY.down, KEY.down, KEY.down);
    await d.waitScreen(SCREEN.noSelected, 'no-selected');
    await press(d, KEY.tab);
    await d.waitScreen(SCREEN.amendNo, 'amend');
    d.send(REASON);
    await d.waitScreen(new RegExp(`❯ 4\\. No, ${REASON}`), 'typed');
    await press(d, KEY.enter);
    await d.waitScreen(SCREEN.final, 'final');
  }),
  inline('bash-reject-reason-discarded', 'Bash prompt: Down to No, Tab, a typed reason, then Esc (the text is thrown away)', async (d) => {
    await bashPrompt(d);
    await press(d, KEY.down, KEY.down, KEY.down);
    await d.waitScreen(SCREEN.noSelected, 'no-selected');
    await press(d, KEY.tab);
    await d.waitScreen(SCREEN.amendNo, 'amend');
    d.send(DISCARDED_REASON);
    await d.waitScreen(new RegExp(`❯ 4\\. No, ${DISCARDED_REASON}`), 'typed');
    await press(d, KEY.esc);
    await d.waitScreen(SCREEN.interrupted, 'rejected');
  }),
  inline('edit-reject', 'Read (auto-allowed), then the Edit prompt for notes.txt, rejected with 3 (No)', async (d) => {
    await d.line('SCENARIO edit');
    await d.waitScreen(SCREEN.editPrompt, 'prompt');
    await press(d, '3');
    await d.waitScreen(SCREEN.editRejected, 'rejected');
  }),
  inline('sleep-esc-running', 'a 30 s command approved with 1, then Esc while it runs', async (d) => {
    await bashPrompt(d, 'sleep');
    await press(d, '1');
    await d.waitScreen(SCREEN.running, 'running');
    await press(d, KEY.esc);
    await d.waitScreen(SCREEN.interrupted, 'interrupted');
  }),
  {
    name: 'inline-parallel-second-rejected',
    description: 'inline renderer: three parallel Bash calls: the first approved with 1, the second rejected with Esc, the third never prompted',
    args: INLINE_ARGS,
    async run(d) {
      await d.line('SCENARIO parallel');
      // Inline, the batch's tool rows (`● Bash(echo two > p2.txt)`) stay above the prompt: wait for
      // the command in the prompt's own body row (one space of indent), not anywhere on screen.
      await d.waitScreen(inlinePromptFor('echo one > p1.txt'), 'prompt-1');
      await press(d, '1');
      await d.waitScreen(inlinePromptFor('echo two > p2.txt'), 'prompt-2');
      await press(d, KEY.esc);
      await d.waitScreen(SCREEN.interrupted, 'rejected');
    },
  },
  inline('slowtext-esc', 'an endless slowly streamed answer, cut with Esc', async (d) => {
    await d.line('SCENARIO slowtext');
    await d.waitStream((n) => n.scenario === 'slowtext' && n.chunks >= 8);
    await d.waitScreen(SCREEN.working, 'streaming');
    await press(d, KEY.esc);
    await d.waitStream((n) => n.scenario === 'slowtext' && n.event === 'client_aborted_stream');
    await d.waitScreen(SCREEN.interrupted, 'interrupted');
  }),
];
