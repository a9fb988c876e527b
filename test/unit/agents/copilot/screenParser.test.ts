import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCopilotScreen, type CopilotScreen } from '../../../../src/agents/copilot/screenParser.js';
import { COPILOT_1_0_102 } from '../../../../src/agents/copilot/strings/v1_0_102.js';
import type { ScreenSnapshot } from '../../../../src/core/screen.js';
import { readScreenFrames, type ScreenFrame } from '../../../support/castReplay.js';
import { sampleScreen } from '../../../support/copilot/samples.js';

const DIR = join(import.meta.dirname, '../../../fixtures/copilot/1.0.102/recorded');

function snapshot(lines: readonly string[], cols = 120): ScreenSnapshot {
  const rows = lines.map((l) => l.trimEnd());
  return { cols, rows: rows.length, lines: rows, styles: [], cursor: { x: 0, y: 0 }, seq: 0 };
}

/** A labelled frame's screen: its first `rows` rows. */
function frameScreen(frame: ScreenFrame): ScreenSnapshot {
  return snapshot(frame.text.split('\n').slice(0, frame.rows), frame.cols);
}

/** The frame taken after Copilot exited (`# exited code=… signal=…`): the summary it printed on the main screen. */
const EXITED = 'exited';

const read = (screen: ScreenSnapshot): CopilotScreen => parseCopilotScreen(screen, COPILOT_1_0_102);
const frames = (name: string) => readScreenFrames(join(DIR, `${name}.screen.txt`));
/** The frames Copilot drew while it ran. */
const runFrames = (name: string) => frames(name).filter((f) => f.label !== EXITED);
const frame = (name: string, label: string) => sampleScreen(`${name}.${label}`);

/** A frame's reading in one line: the prompt (title/kind, highlight, field), the dialog, the footer state, messages, decision rows. */
function summary(r: CopilotScreen): string {
  const p = r.prompt;
  const field = p?.feedback ? (p.feedback.typed ? ' typed' : ' field') : '';
  return [
    p ? `P:${p.title}/${p.kind} hl${p.highlighted}${field}` : '',
    r.dialog ? `d=${r.dialog}` : '',
    r.unreadOptionList ? 'unread' : '',
    r.working ? 'working' : '',
    r.interruptArmed ? 'armed' : '',
    r.cancelling ? 'cancelling' : '',
    `m${r.userMessages.length}`,
    `dr${r.decisionRows}`,
  ]
    .filter((s) => s !== '')
    .join(' ');
}

/** What every labelled frame of every recording reads (`<scenario> <label>: <summary>`), in file order. */
const EXPECTED = `
allow-tool-rule: start m0 dr0 | prompt working m1 dr0 | after m1 dr0 | idle m1 dr0 | ctrl-c-once m1 dr0
askuser-answer: start m0 dr0 | prompt d=ask_user m1 dr0 | after m1 dr0 | idle m1 dr0 | ctrl-c-once m1 dr0
askuser-esc: start m0 dr0 | prompt d=ask_user m1 dr0 | after m1 dr0 | idle m1 dr0 | ctrl-c-once m1 dr0
bash-and-reject-esc: start m0 dr0 | prompt P:Make out/and.txt/command hl1 m1 dr0 | after cancelling m1 dr2 | idle m1 dr2 | ctrl-c-once m1 dr2
bash-approve-arrows: start m0 dr0 | prompt P:Write a marker file/command hl1 m1 dr0 | down P:Write a marker file/command hl2 field m1 dr0 | enter-on-empty-no P:Write a marker file/command hl2 field m1 dr0 | up P:Write a marker file/command hl1 m1 dr0 | after m1 dr0 | idle m1 dr0 | ctrl-c-once m1 dr0
bash-approve-digit: start m0 dr0 | prompt P:Write a marker file/command hl1 m1 dr0 | after m1 dr0 | idle m1 dr0 | ctrl-c-once m1 dr0
bash-approve-enter: start m0 dr0 | prompt P:Write a marker file/command hl1 m1 dr0 | after m1 dr0 | idle m1 dr0 | ctrl-c-once m1 dr0
bash-approve-location: start m0 dr0 | prompt P:Write node-out.txt with node/command hl1 m1 dr0 | after working m1 dr0 | again working m2 dr0 | idle m2 dr0 | ctrl-c-once m2 dr0
bash-pipe-approve: start m0 dr0 | prompt P:Count lines of notes.txt/command hl1 m1 dr0 | after m1 dr0 | idle m1 dr0 | ctrl-c-once m1 dr0
bash-read-auto: start m0 dr0 | prompt working m1 dr0 | after m1 dr0 | idle m1 dr0 | ctrl-c-once m1 dr0
bash-reject-ctrlc: start m0 dr0 | prompt P:Write a marker file/command hl1 m1 dr0 | after cancelling m1 dr2 | idle m1 dr2 | ctrl-c-once m1 dr2
bash-reject-esc: start m0 dr0 | prompt P:Write a marker file/command hl1 m1 dr0 | after cancelling m1 dr2 | idle m1 dr2 | ctrl-c-once m1 dr2
bash-reject-reason-esc: start m0 dr0 | prompt P:Write a marker file/command hl1 m1 dr0 | reason-typed P:Write a marker file/command hl2 typed m1 dr0 | after cancelling m1 dr2 | idle m1 dr2 | ctrl-c-once m1 dr2
bash-reject-reason: start m0 dr0 | prompt P:Write a marker file/command hl1 m1 dr0 | reason-typed P:Write a marker file/command hl2 typed m1 dr0 | after working m1 dr1 | idle m1 dr1 | ctrl-c-once m1 dr1
create-approve-location: start m0 dr0 | prompt P:Create file/edit hl1 m1 dr0 | after m1 dr0 | idle m1 dr0 | ctrl-c-once m1 dr0
create-approve: start m0 dr0 | prompt P:Create file/edit hl1 m1 dr0 | after m1 dr0 | idle m1 dr0 | ctrl-c-once m1 dr0
create-reject-esc: start m0 dr0 | prompt P:Create file/edit hl1 m1 dr0 | after cancelling m1 dr2 | idle m1 dr2 | ctrl-c-once m1 dr2
deny-tool-rule: start m0 dr0 | prompt working m1 dr0 | after m1 dr0 | idle m1 dr0 | ctrl-c-once m1 dr0
edit-reject-reason: start m0 dr0 | prompt P:Edit file/edit hl1 m1 dr0 | reason-typed P:Edit file/edit hl3 typed m1 dr0 | after working m1 dr1 | idle m1 dr1 | ctrl-c-once m1 dr1
hooks-bash-reject-reason: start m0 dr0 | prompt P:Write a marker file/command hl1 m1 dr0 | reason-typed P:Write a marker file/command hl2 typed m1 dr0 | after working m1 dr1 | idle m1 dr1 | ctrl-c-once m1 dr1
hooks-parallel-esc: start m0 dr0 | prompt P:Write p2.txt/command hl1 m1 dr0 | after cancelling m1 dr4 | idle m1 dr4 | ctrl-c-once m1 dr4
mcp-approve-location: start m0 dr0 | prompt P:touch_marker/mcp hl1 m1 dr0 | after m1 dr0 | idle m1 dr0 | ctrl-c-once m1 dr0
mcp-approve: start m0 dr0 | prompt P:touch_marker/mcp hl1 m1 dr0 | after m1 dr0 | idle m1 dr0 | ctrl-c-once m1 dr0
mcp-reject-esc: start m0 dr0 | prompt P:touch_marker/mcp hl1 m1 dr0 | after working m1 dr2 | idle m1 dr2 | ctrl-c-once m1 dr2
parallel-first-reason: start m0 dr0 | prompt P:Write p3.txt/command hl1 m1 dr0 | reason-typed P:Write p3.txt/command hl2 typed m1 dr0 | next-prompt-1 P:Write p2.txt/command hl1 m1 dr0 | next-prompt-2 P:Write p1.txt/command hl1 m1 dr1 | after working m1 dr1 | idle m1 dr1 | ctrl-c-once m1 dr1
parallel-second-esc: start m0 dr0 | prompt P:Write p2.txt/command hl1 m1 dr0 | second-prompt P:Write p3.txt/command hl1 m1 dr0 | after m1 dr3 | idle m1 dr3 | ctrl-c-once m1 dr3
path-approve-session: start m0 dr0 | prompt P:Allow path access/permission hl1 m1 dr0 | after m1 dr0 | idle m1 dr0 | ctrl-c-once m1 dr0
path-reject-digit: start m0 dr0 | prompt P:Allow path access/permission hl1 m1 dr0 | after m1 dr2 | idle m1 dr2 | ctrl-c-once m1 dr2
path-reject-esc: start m0 dr0 | prompt P:Allow path access/permission hl1 m1 dr0 | after m1 dr2 | idle m1 dr2 | ctrl-c-once m1 dr2
resume-continue.launch2: start m1 dr0 | resumed m1 dr0 | prompt P:Write a marker file/command hl1 m1 dr0 | after m2 dr0 | idle m2 dr0 | ctrl-c-once m2 dr0
resume-continue: start m0 dr0 | prompt P:Write a marker file/command hl1 m1 dr0 | after m1 dr0 | idle m1 dr0 | ctrl-c-once m1 dr0
sleep-ctrlc-running: start m0 dr0 | prompt P:Wait 30 seconds/command hl1 m1 dr0 | running working m1 dr0 | after m1 dr0 | idle m1 dr0 | ctrl-c-once m1 dr2
sleep-esc-esc-running: start m0 dr0 | prompt P:Wait 30 seconds/command hl1 m1 dr0 | running working m1 dr0 | esc-once working armed m1 dr0 | esc-once working armed m1 dr0 | after m1 dr0 | idle m1 dr0 | ctrl-c-once m1 dr2
slowtext-ctrlc: start m0 dr0 | streaming working m1 dr0 | after m1 dr0 | idle m1 dr0 | ctrl-c-once m1 dr1
slowtext-esc-esc: start m0 dr0 | streaming working m1 dr0 | esc-once working armed m1 dr0 | esc-once working armed m1 dr0 | after m1 dr0 | idle m1 dr0 | ctrl-c-once m1 dr1
trust-esc: start d=folder_trust m0 dr0 | trust d=folder_trust m0 dr0 | after-esc m0 dr0
trust-remember: start d=folder_trust m0 dr0 | trust d=folder_trust m0 dr0 | trusted m0 dr0 | idle m0 dr0 | ctrl-c-once m0 dr0
url-approve-always: start m0 dr0 | prompt P:Fetch a page on loopback/network hl1 m1 dr0 | shell-prompt P:Fetch a page on loopback/command hl1 m1 dr0 | after cancelling m1 dr2 | idle m1 dr2 | ctrl-c-once m1 dr2
url-approve: start m0 dr0 | prompt P:Fetch a page on loopback/network hl1 m1 dr0 | shell-prompt P:Fetch a page on loopback/command hl1 m1 dr0 | after m1 dr0 | idle m1 dr0 | ctrl-c-once m1 dr0
url-reject-esc: start m0 dr0 | prompt P:Fetch a page on loopback/network hl1 m1 dr0 | after armed m1 dr2 | idle m1 dr2 | ctrl-c-once m1 dr2
`;

const SCENARIOS = readdirSync(DIR)
  .filter((f) => f.endsWith('.screen.txt'))
  .map((f) => f.slice(0, -'.screen.txt'.length))
  .sort();

describe('copilot 1.0.102, 120x40, every labelled frame of the recordings', () => {
  const expected = new Map(
    EXPECTED.trim()
      .split('\n')
      .map((line) => {
        const [name, rest] = line.split(': ');
        return [name!, rest!.split(' | ')];
      }),
  );

  it('the table covers every recording', () => {
    expect([...expected.keys()].sort()).toEqual(SCENARIOS);
  });

  it.each(SCENARIOS)('%s', (name) => {
    const got = runFrames(name).map((f) => `${f.label} ${summary(read(frameScreen(f)))}`);
    expect(got).toEqual(expected.get(name));
  });

  // Quit before any message (the trust scenarios), Copilot prints no summary.
  it.each(SCENARIOS.filter((n) => !n.startsWith('trust-')))('%s: the exit screen names the session, and nothing else is read there', (name) => {
    const exit = frames(name).at(-1)!;
    expect(exit.label).toBe(EXITED);
    const r = read(frameScreen(exit));
    expect(r.sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(summary(r)).toBe('m0 dr0');
  });

  it('every message shown is the scenario line the user typed', () => {
    const messages = SCENARIOS.flatMap((n) => runFrames(n).flatMap((f) => read(frameScreen(f)).userMessages));
    expect(messages.length).toBeGreaterThan(150);
    for (const m of messages) expect(m).toMatch(/^SCENARIO [a-z]+$/);
  });
});

/** Copilot indents a diff's text with two no-break spaces. */
const NBSP = '\u00a0\u00a0';
const NO_TELL = 'No, and tell Copilot what to do differently (Esc to stop)';
const labels = (r: CopilotScreen) => r.prompt!.options.map((o) => (o.key ? `${o.number}. ${o.label} [${o.key}]` : `${o.number}. ${o.label}`));

describe('copilot 1.0.102, 120x40, what each prompt shows', () => {
  it('shell: the description is the title, the command comes from the inner box, two options', () => {
    const r = read(frame('bash-approve-digit', 'prompt'));
    expect(r.prompt).toMatchObject({
      kind: 'command',
      title: 'Write a marker file',
      command: 'echo mock-bash-ran > bash-out.txt',
      details: { question: 'Do you want to run this command?', description: 'Write a marker file' },
      body: 'command',
      highlighted: 1,
      identity: 'command|Write a marker file|Do you want to run this command?|echomock-bash-ran>bash-out.txt|2',
    });
    expect(r.prompt!.feedback).toBeUndefined();
    expect(labels(r)).toEqual(['1. Yes', `2. ${NO_TELL}`]);
    expect(r.answerText).toBe('I will run a command.');
  });

  it('shell with a remembered identifier: the "don\'t ask again" option in the middle', () => {
    const r = read(frame('bash-approve-location', 'prompt'));
    expect(r.prompt!.command).toBe(`node -e "require('fs').writeFileSync('node-out.txt', 'x')"`);
    expect(labels(r)).toEqual(['1. Yes', "2. Yes, and don't ask again for `node` in this repo (<BASE>/work)", `3. ${NO_TELL}`]);
  });

  it('the text field: highlighted by ↓ it is open and empty; with text typed its label stays the option\'s', () => {
    const down = read(frame('bash-approve-arrows', 'down')).prompt!;
    expect(down).toMatchObject({ highlighted: 2, feedback: { typed: false } });
    const typed = read(frame('bash-reject-reason', 'reason-typed')).prompt!;
    expect(typed).toMatchObject({ highlighted: 2, feedback: { typed: true } });
    expect(typed.options[1]!.label).toBe(NO_TELL);
    // The typed text is never kept, and the prompt is the same one as before the field opened.
    expect(JSON.stringify(typed)).not.toContain('printf');
    expect(typed.identity).toBe(read(frame('bash-reject-reason', 'prompt')).prompt!.identity);
  });

  it('create and edit: the file, its folder, the diff as drawn, the path the question names', () => {
    const create = read(frame('create-approve', 'prompt'));
    expect(create.prompt).toMatchObject({
      kind: 'edit',
      title: 'Create file',
      body: 'file',
      details: { file: 'created.txt', folder: '<BASE>/work', path: '<BASE>/work/created.txt', diff: `1 + ${NBSP}created by the mock` },
    });
    expect(create.prompt!.command).toBeUndefined();
    expect(labels(create)).toEqual(['1. Yes', "2. Yes, and don't ask again for file operations when in this repo (<BASE>/work)", `3. ${NO_TELL}`]);
    const edit = read(frame('edit-reject-reason', 'prompt')).prompt!;
    expect(edit).toMatchObject({ title: 'Edit file', details: { file: 'notes.txt', path: '<BASE>/work/notes.txt', question: 'Do you want to edit <BASE>/work/notes.txt?' } });
    expect(edit.details.diff!.split('\n')).toEqual([`1   ${NBSP}line one`, `2 - ${NBSP}original line`, `2 + ${NBSP}EDITED BY MOCK`, `3   ${NBSP}line three`, '4']);
  });

  it('path outside the folder: the path, the folder read access would cover, No names Esc', () => {
    const r = read(frame('path-reject-digit', 'prompt'));
    expect(r.prompt).toMatchObject({ kind: 'permission', title: 'Allow path access', body: 'path', details: { path: '/etc/hostname', directory: '/etc' } });
    expect(labels(r)).toEqual([
      '1. Yes',
      '2. Yes, and remember this path for this session',
      '3. Yes, allow file-tool read-only access to the listed directory for this session',
      '4. No (Esc) [esc]',
    ]);
  });

  it('URL, then the shell prompt of the same call: one title, two prompts told apart by their kind', () => {
    const url = read(frame('url-approve', 'prompt')).prompt!;
    const shell = read(frame('url-approve', 'shell-prompt')).prompt!;
    expect(url).toMatchObject({ kind: 'network', body: 'url', details: { url: 'http://127.0.0.1:9/rec-page' } });
    expect(url.options.map((o) => o.label)).toEqual([
      'Yes',
      'Yes, and approve all URLs from "http://127.0.0.1:9" for the rest of the running session',
      'Yes, and approve all URLs from "http://127.0.0.1:9" permanently',
      NO_TELL,
    ]);
    expect(shell).toMatchObject({ kind: 'command', title: url.title, command: 'curl -sS -m 5 http://127.0.0.1:9/rec-page' });
    expect(shell.identity).not.toBe(url.identity);
  });

  it('MCP tool: the tool is the title, its arguments as drawn', () => {
    const r = read(frame('mcp-approve', 'prompt'));
    expect(r.prompt).toMatchObject({ kind: 'mcp', title: 'touch_marker', body: 'tool', details: { tool: 'touch_marker', arguments: '{\n  "name": "mcp-marker.txt"\n}' } });
    expect(labels(r)[1]).toBe('2. Yes, and don\'t ask again for tool "touch_marker" from "marker" in this repo (<BASE>/work)');
  });

  it('a queue of prompts: each its own identity, and how many wait behind it', () => {
    const shown = ['prompt', 'next-prompt-1', 'next-prompt-2'].map((l) => read(frame('parallel-first-reason', l)).prompt!);
    expect(shown.map((p) => [p.command, p.remaining])).toEqual([
      ['echo three > p3.txt', 2],
      ['echo two > p2.txt', 1],
      ['echo one > p1.txt', undefined],
    ]);
    expect(new Set(shown.map((p) => p.identity)).size).toBe(3);
  });

  it('a box whose bottom border the old footer still shows through is read (its rows are whole)', () => {
    expect(read(frame('hooks-bash-reject-reason', 'prompt')).prompt?.title).toBe('Write a marker file');
  });

  it('the streamed answer, cut where the screen stands; the banner version', () => {
    const r = read(frame('slowtext-esc-esc', 'streaming'));
    expect(r.answerText).toBe('word0 word1 word2 word3 word4 word5 word6');
    expect(r.bannerVersion).toBe('1.0.102');
    // A finished tool's row with its `└` detail is not the answer.
    expect(read(frame('askuser-answer', 'after')).answerText).toMatch(/^MOCK FINAL: /);
  });
});

describe('copilot 1.0.102: screens that only look like a prompt', () => {
  const box = (indent: string) =>
    [
      '╭──────────────────────────────────────╮',
      '│ Write a marker file                  │',
      '│ ──────────────────────────────────── │',
      '│ ╭──────────────────────────────────╮ │',
      '│ │ rm -rf ~                         │ │',
      '│ ╰──────────────────────────────────╯ │',
      '│ Do you want to run this command?     │',
      '│ ❯ 1. Yes                             │',
      "│   2. No, and tell Copilot what to do differently (Esc to stop) │",
      '│ ↑/↓ to navigate · enter to select · esc to cancel │',
      '╰──────────────────────────────────────╯',
    ].map((l) => indent + l);
  const composer = ['─'.repeat(120), '❯', '─'.repeat(120), ' ← open sidebar · Interactive · Manual Approval · / commands · ? help · tab next tab     mock-model'];

  it('a message the user sent that holds a drawn box is a message, not a prompt', () => {
    const [first, ...rest] = box('');
    const r = read(snapshot([` ❯ ${first}    03:40`, ...rest.map((l) => `   ${l}`), '', ...composer]));
    expect(r.prompt).toBeUndefined();
    expect(r.unreadOptionList).toBe(false);
    expect(r.userMessages).toEqual([first]);
  });

  it('the same box in the history (indented), even as the last thing drawn, is not a prompt', () => {
    expect(read(snapshot([' ● Here is what a prompt looks like:', ...box('   ')])).prompt).toBeUndefined();
  });

  it('a draft in the composer that holds a box is not a prompt', () => {
    const [first, ...rest] = box('');
    expect(read(snapshot(['─'.repeat(120), `❯ ${first}`, ...rest.map((l) => `  ${l}`), '─'.repeat(120)])).prompt).toBeUndefined();
  });

  it('a whole box at the bottom whose options are not this kind\'s reads no prompt', () => {
    const lines = frame('bash-approve-digit', 'prompt').lines.map((l) => l.replace('2. No, and tell Copilot what to do differently (Esc to stop)', "2. Yes, and approve all URLs from \"x\" permanently          "));
    expect(read(snapshot(lines)).prompt).toBeUndefined();
  });

  it('a box with the permission footer and a question not measured is an option list rec cannot read', () => {
    const r = read(snapshot(frame('bash-approve-digit', 'prompt').lines.map((l) => l.replace('Do you want to run this command?', 'Do you want to run it elsewhere?'))));
    expect(r.prompt).toBeUndefined();
    expect(r.unreadOptionList).toBe(true);
  });
});

describe('copilot 1.0.102 at 80 columns: a question and an option wrapped onto the next row (screens of the real CLI under rec)', () => {
  const SCREENS = join(import.meta.dirname, '../../../fixtures/copilot/1.0.102/screens');
  const screen = (name: string) => {
    const lines = readFileSync(join(SCREENS, `${name}.txt`), 'utf8').replace(/\n$/, '').split('\n');
    return snapshot(lines, 80);
  };
  const FOLDER = '/tmp/rec-demo-test-AbCdEf/rec-demo-copilot-GhIjKl/work';

  it.each([
    ['create-80cols', 'Create file', `Do you want to create ${FOLDER}/created.txt?`, `${FOLDER}/created.txt`],
    ['edit-80cols', 'Edit file', `Do you want to edit ${FOLDER}/notes.txt?`, `${FOLDER}/notes.txt`],
  ])('%s: the question re-joined names the whole path; the second option keeps its wrapped row', (name, title, question, path) => {
    const r = read(screen(name));
    expect(r.prompt).toMatchObject({ kind: 'edit', title, body: 'file', question, highlighted: 1, details: { path } });
    expect(labels(r)).toEqual(['1. Yes', "2. Yes, and don't ask again for file operations when in this repo (/tmp/rec-demo-test-AbCdEf/.../work)", `3. ${NO_TELL}`]);
  });
});
