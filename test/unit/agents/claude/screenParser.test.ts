import { describe, expect, it } from 'vitest';
import { parseClaudeScreen } from '../../../../src/agents/claude/screenParser.js';
import { CLAUDE_2_1_330 } from '../../../../src/agents/claude/strings/v2_1_330.js';
import { CLAUDE_2_1_332 } from '../../../../src/agents/claude/strings/v2_1_332.js';
import { join } from 'node:path';
import { readScreenFrames } from '../../../support/castReplay.js';
import { RECORDED_INLINE_DIR } from '../../../support/claude/recordedRun.js';
import { sampleScreen, sampleScreenText, screenFromText } from '../../../support/claude/samples.js';

const parse = (name: string) => parseClaudeScreen(sampleScreen(name), CLAUDE_2_1_330);
const parseText = (text: string, cols = 120) => parseClaudeScreen(screenFromText(text, cols), CLAUDE_2_1_330);

describe('claude 2.1.328/2.1.330, 120x45, full-screen renderer, permission prompts', () => {
  it('reads the Bash prompt: title, description, command, question, options, the highlighted ❯', () => {
    const { prompt } = parse('bash-approve--screen-prompt');
    expect(prompt).toMatchObject({
      kind: 'command',
      title: 'Bash command',
      body: 'command',
      command: 'echo mock-bash-ran > <SCRATCH>/ws/bash-out.txt',
      details: { description: 'Write a marker file', question: 'Do you want to proceed?' },
      highlighted: 1,
    });
    expect(prompt!.feedback).toBeUndefined();
    expect(prompt!.options.map((o) => [o.number, o.label])).toEqual([
      [1, 'Yes'],
      [2, 'Yes, and always allow access to <SCRATCH>/ws from this project'],
      [3, 'Yes, and switch to auto mode · auto mode handles these prompts for you'],
      [4, 'No'],
    ]);
  });

  it('keeps the note under the command and the "don’t ask again" option of a non-write command', () => {
    const { prompt } = parse('sleep-esc--screen-prompt');
    expect(prompt).toMatchObject({
      command: `node -e "setTimeout(() => console.log('done-waiting'), 30000)"`,
      details: { description: 'Wait 30 seconds', note: 'This command requires approval' },
    });
    expect(prompt!.options[1]!.label).toBe('Yes, and don’t ask again for: node *');
  });

  it('reads the Edit prompt: the file, its diff rows as drawn, three options', () => {
    const { prompt } = parse('edit-no--screen-prompt');
    expect(prompt).toMatchObject({
      kind: 'edit',
      title: 'Edit file',
      body: 'file',
      details: { file: 'notes.txt', body: '1  line one\n2 -original line\n2 +EDITED BY MOCK\n3  line three', question: 'Do you want to make this edit to notes.txt?' },
    });
    expect(prompt!.command).toBeUndefined();
    expect(prompt!.options.map((o) => o.label)).toEqual([
      'Yes',
      'Yes, and switch to accept edits (auto-approve file edits and common file commands) for this session (shift+tab)',
      'No',
    ]);
  });

  it('reads the Create prompt of a parallel batch, and tells the batch’s prompts apart', () => {
    const first = parse('par-approve--screen-prompt').prompt!;
    const second = parse('par-approve--screen-p3').prompt!;
    expect(first).toMatchObject({ kind: 'edit', title: 'Create file', details: { file: 'a.txt', body: ' 1 content of a' } });
    expect(second.details.file).toBe('b.txt');
    expect(second.identity).not.toBe(first.identity);
  });

  it('reads the prompt of a subagent (its title says so)', () => {
    expect(parse('agent-esc--screen-after').prompt).toMatchObject({ kind: 'command', title: 'Bash command · from the general-purpose agent' });
  });

  it('follows the ❯ moved with arrows, with the same identity', () => {
    const moved = parse('bash-no-arrows--screen-sel').prompt!;
    expect(moved.highlighted).toBe(4);
    expect(moved.identity).toBe(parse('bash-approve--screen-prompt').prompt!.identity);
  });

  it('re-joins the command and the labels wrapped at 60 columns, with the identity of the 120-column prompt', () => {
    const narrow = [
      '────────────────────────────────────────────────────────────',
      ' Bash command',
      ' Write a marker file',
      '╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌',
      ' echo mock-bash-ran >',
      ' <SCRATCH>/ws/bash-out.txt',
      '╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌╌',
      ' Do you want to proceed?',
      ' ❯ 1. Yes',
      '   2. Yes, and always allow access to <SCRATCH>/ws from',
      '      this project',
      '   3. Yes, and switch to auto mode · auto mode handles',
      '      these prompts for you',
      '   4. No',
      '',
      ' Esc to cancel · Tab to amend',
    ].join('\n');
    const prompt = parseText(narrow, 60).prompt!;
    expect(prompt.command).toBe('echo mock-bash-ran > <SCRATCH>/ws/bash-out.txt');
    expect(prompt.options.map((o) => o.label)).toEqual(parse('bash-approve--screen-prompt').prompt!.options.map((o) => o.label));
    expect(prompt.identity).toBe(parse('bash-approve--screen-prompt').prompt!.identity);
  });

  it('sees no prompt once it is decided (the pane is the input prompt again) and counts the rows Claude drew', () => {
    const screen = parse('bash-no--screen-after');
    expect(screen.prompt).toBeUndefined();
    expect(screen.decisionRows).toBe(2);
    expect(screen.working).toBe(false);
  });
});

describe('claude 2.1.330, the feedback field Tab opens', () => {
  it('after Tab and typing on No: the field is open and typed, the option keeps its label, the text is not kept', () => {
    const { prompt } = parse('bash-amend-then-esc--screen-typed');
    expect(prompt!.feedback).toEqual({ typed: true });
    expect(prompt!.highlighted).toBe(4);
    expect(prompt!.options[3]!.label).toBe('No');
    expect(JSON.stringify(prompt)).not.toContain('typed but not submitted');
    expect(prompt!.identity).toBe(parse('bash-approve--screen-prompt').prompt!.identity);
  });

  it('right after Tab on No (the placeholder, derived from the typed sample): open, nothing typed', () => {
    const text = sampleScreenText('bash-amend-then-esc--screen-typed').replace('❯ 4. No, typed but not submitted', '❯ 4. No, and tell Claude what to do differently');
    expect(parseText(text).prompt!.feedback).toEqual({ typed: false });
  });

  it('Tab on Yes of an Edit prompt, and Tab on No of a Create prompt', () => {
    const yes = parse('edit-yes-amend--screen-amend').prompt!;
    expect(yes.feedback).toEqual({ typed: true });
    expect(yes.options[0]!.label).toBe('Yes');
    const no = parse('par-yes-noreason--screen-amend').prompt!;
    expect(no).toMatchObject({ highlighted: 3, feedback: { typed: true } });
    expect(no.options[2]!.label).toBe('No');
  });

  it('a closed field: the option "Yes, and …" is not mistaken for typed feedback', () => {
    const { prompt } = parse('bash-no-arrows--screen-sel');
    expect(prompt!.feedback).toBeUndefined();
    expect(prompt!.options[1]!.label).toBe('Yes, and always allow access to <SCRATCH>/ws from this project');
  });
});

describe('claude 2.1.330, the rest of the screen', () => {
  it('reads a running Bash as working (esc to interrupt), with no prompt', () => {
    const screen = parse('sleep-esc--screen-running');
    expect(screen.working).toBe(true);
    expect(screen.prompt).toBeUndefined();
  });

  it('reads a streaming reply as working (the spinner; Claude shows no partial text)', () => {
    const screen = parse('slowtext-esc--screen-streaming');
    expect(screen.working).toBe(true);
    expect(screen.answerText).toBeUndefined();
  });

  it('reads the user’s messages in the history, never the input prompt', () => {
    const screen = parse('bash-no--screen-after');
    expect(screen.userMessages).toEqual(['SCENARIO bash', 'SCENARIO bash']);
  });

  it('reads the last answer under the user’s message, not tool rows or their descriptions', () => {
    const text = [
      '❯ SCENARIO bash',
      '',
      '● I will run a command.',
      '',
      '● Creating c.txt',
      '  ⎿  $ echo c > c.txt',
      '',
      '● MOCK FINAL: received 1 tool_result(s): toolu_1: ok "done"',
      '  and more',
      '',
      '✻ Churned for 2s · done 9:28 AM',
      '',
      '──────────────────',
      '❯',
      '──────────────────',
      '  ⏸ manual mode on · ? for shortcuts',
    ].join('\n');
    expect(parseText(text).answerText).toBe('MOCK FINAL: received 1 tool_result(s): toolu_1: ok "done"\nand more');
  });
});

// The inline renderer the user may pick (`--settings '{"tui":"default"}'`), as recorded by
// `record-claude-fixtures.mjs --inline` (recorded-inline/): the same prompt under tool rows of
// another shape (`● Bash(…)` / `⎿  Waiting…`), on the normal screen.
describe('claude 2.1.330, 120x40, inline renderer (tui default), recorded screens', () => {
  const frame = (name: string, label: string) => {
    const f = readScreenFrames(join(RECORDED_INLINE_DIR, `${name}.screen.txt`)).find((x) => x.label === label);
    if (!f) throw new Error(`${name}: no frame ${label}`);
    return parseClaudeScreen(screenFromText(f.text, f.cols), CLAUDE_2_1_330);
  };

  it('reads the Bash prompt under the inline tool rows: title, command, options, the highlight; the user message above', () => {
    const s = frame('inline-bash-reject-esc', 'prompt');
    expect(s.prompt).toMatchObject({
      kind: 'command',
      title: 'Bash command',
      command: 'echo mock-bash-ran > bash-out.txt',
      details: { description: 'Write a marker file', question: 'Do you want to proceed?' },
      highlighted: 1,
    });
    expect(s.prompt!.options.map((o) => o.label)).toEqual(['Yes', 'Yes, and always allow access to <BASE>/work from this project', 'Yes, and switch to auto mode · auto mode handles these prompts for you', 'No']);
    expect(s.userMessages).toEqual(['SCENARIO bash']);
    // The tool row `● Bash(…)` with `⎿  Waiting…` under it is not the answer.
    expect(s.answerText).toBe('I will run a command.');
    expect(s.working).toBe(false);
  });

  it('follows the highlight to No, the feedback field Tab opens there, and text typed into it (never kept)', () => {
    expect(frame('inline-bash-reject-reason', 'no-selected').prompt).toMatchObject({ highlighted: 4 });
    expect(frame('inline-bash-reject-reason', 'no-selected').prompt!.feedback).toBeUndefined();
    const amend = frame('inline-bash-reject-reason', 'amend').prompt!;
    expect(amend.feedback).toEqual({ typed: false });
    expect(amend.options[3]!.label).toBe('No');
    const typed = frame('inline-bash-reject-reason', 'typed').prompt!;
    expect(typed.feedback).toEqual({ typed: true });
    expect(typed.options[3]!.label).toBe('No');
    expect(typed.identity).toBe(amend.identity);
  });

  it('tells the prompts of a parallel batch apart although every call’s tool row stays on screen', () => {
    const first = frame('inline-parallel-second-rejected', 'prompt-1').prompt!;
    const second = frame('inline-parallel-second-rejected', 'prompt-2').prompt!;
    expect(first.command).toBe('echo one > p1.txt');
    expect(second.command).toBe('echo two > p2.txt');
    expect(second.identity).not.toBe(first.identity);
  });

  it('a running command: working, no prompt, and the tool row (its bullet blinked off) is not answer text', () => {
    const s = frame('inline-sleep-esc-running', 'running');
    expect(s.prompt).toBeUndefined();
    expect(s.working).toBe(true);
    expect(s.answerText).toBe('I will wait.');
    expect(frame('inline-sleep-esc-running', 'interrupted')).toMatchObject({ working: false, decisionRows: 1 });
  });

  it('a streamed answer cut by Esc: the partial text above the interrupt row is the answer, and the cut a decision row', () => {
    expect(frame('inline-slowtext-esc', 'streaming')).toMatchObject({ working: true, decisionRows: 0 });
    const cut = frame('inline-slowtext-esc', 'interrupted');
    expect(cut.answerText).toBe('word0 word1 word2 word3 word4 word5 word6 word7 word8 word9');
    expect(cut.decisionRows).toBe(1);
  });

  it('reads the Edit prompt whose diff is still drawn as `…`, under `● Update(notes.txt)`', () => {
    const s = frame('inline-edit-reject', 'prompt');
    expect(s.prompt).toMatchObject({ kind: 'edit', title: 'Edit file', body: 'file', details: { file: 'notes.txt', question: 'Do you want to make this edit to notes.txt?' } });
    expect(s.prompt!.options.map((o) => o.label)).toEqual(['Yes', 'Yes, and switch to accept edits (auto-approve file edits and common file commands) for this session (shift+tab)', 'No']);
    expect(s.answerText).toBe('Now I will edit it.');
    expect(frame('inline-edit-reject', 'rejected')).toMatchObject({ decisionRows: 1 });
  });

  it('decision rows of a reason and of an approved call in a batch', () => {
    expect(frame('inline-bash-reject-reason', 'final')).toMatchObject({ decisionRows: 1, answerText: expect.stringMatching(/^MOCK FINAL: /) });
    expect(frame('inline-parallel-second-rejected', 'rejected').decisionRows).toBe(2);
  });
});

describe('claude 2.1.332, 80 columns, a command wrapped with a gutter', () => {
  const prompt = (body: readonly string[]) =>
    parseClaudeScreen(
      screenFromText(
        [
          '─'.repeat(80),
          ' Bash command',
          ' Write long-node.txt',
          '╌'.repeat(80),
          ...body,
          '╌'.repeat(80),
          ' Do you want to proceed?',
          ' ❯ 1. Yes',
          '   2. No',
          '',
          ' Esc to cancel · Tab to amend',
        ].join('\n'),
        80,
      ),
      CLAUDE_2_1_332,
    ).prompt!;

  it('drops the `│ ` gutter Claude draws before every row of the wrapped command', () => {
    expect(prompt([' │ node -e "const a = 1; for (let i = 1; i <=', ' │ 12; i++) console.log(a)"']).command).toBe('node -e "const a = 1; for (let i = 1; i <= 12; i++) console.log(a)"');
  });

  it('keeps the rows as shown when not every row has it (the command is then not matched)', () => {
    expect(prompt([' │ node -e "a', ' b"']).command).toBe('│ node -e "a b"');
  });
});

describe('claude 2.1.332, 120 columns, the NotebookEdit dialog drawn with its path and diff (seen on a fresh machine)', () => {
  const screen = [
    '● Edit Notebook(analysis.ipynb@cell-a1)',
    '',
    '─'.repeat(120),
    ' Edit notebook',
    ' /tmp/rec-claude-e2e-j0tcQb/work/analysis.ipynb',
    ' Replace cell contents for cell cell-a1',
    '╌'.repeat(120),
    '  1 -print("original")',
    '  1 +print("edited by the mock")',
    '╌'.repeat(120),
    ' Do you want to make this edit to analysis.ipynb?',
    ' ❯ 1. Yes',
    '   2. Yes, and switch to accept edits (auto-approve file edits and common file commands) for this session (shift+tab)',
    '   3. No',
    '',
    ' Esc to cancel · Tab to amend',
  ].join('\n');

  it('reads it as the same edit prompt as the dialog drawn without them: kind, question and options', () => {
    const { prompt } = parseClaudeScreen(screenFromText(screen, 120), CLAUDE_2_1_332);
    expect(prompt).toMatchObject({ kind: 'edit', title: 'Edit notebook', body: 'file', details: { question: 'Do you want to make this edit to analysis.ipynb?' }, highlighted: 1 });
    expect(prompt!.options.map((o) => [o.number, o.label])).toEqual([
      [1, 'Yes'],
      [2, 'Yes, and switch to accept edits (auto-approve file edits and common file commands) for this session (shift+tab)'],
      [3, 'No'],
    ]);
  });
});
