import { describe, expect, it } from 'vitest';
import { parseGeminiScreen } from '../../../../src/agents/gemini/screenParser.js';
import { GEMINI_0_61_0 } from '../../../../src/agents/gemini/strings/v0_61_0.js';
import { narrowed, sampleScreen, screenFromLines } from '../../../support/gemini/samples.js';

const parse = (name: string) => parseGeminiScreen(sampleScreen(name), GEMINI_0_61_0);

const SHELL_OPTIONS = ['Allow once', 'Allow for this session', 'No, suggest changes (esc)'];
const FILE_OPTIONS = ['Allow once', 'Allow for this session', 'Modify with external editor', 'No, suggest changes (esc)'];

describe('gemini 0.61.0, 120 columns, confirmation dialogs', () => {
  it('a Shell dialog: the tool, the command from its body box, the question, the options and the highlight', () => {
    const s = parse('shell-deny-option3.screen-0-dialog');
    expect(s.prompt).toMatchObject({
      kind: 'command',
      tool: 'Shell',
      description: 'touch shell_marker.txt',
      command: 'touch shell_marker.txt',
      question: 'Allow execution of [Shell]?',
      highlighted: 1,
      details: { tool: 'Shell', description: 'touch shell_marker.txt' },
    });
    expect(s.prompt!.options.map((o) => o.label)).toEqual(SHELL_OPTIONS);
    expect(s.prompt!.batch).toBeUndefined();
    expect(s.working).toBe(false);
    expect(s.userMessages).toEqual(['[[scenario:shell]] please do the thing']);
  });

  it('a dialog whose question these strings do not know: no prompt, but an option list is live', () => {
    const known = parse('shell-deny-option3.screen-0-dialog');
    const altered = parseGeminiScreen(screenFromLines(sampleScreen('shell-deny-option3.screen-0-dialog').lines.map((l) => l.replace('Allow execution of', 'Grant execution of'))), GEMINI_0_61_0);
    expect(known.unreadOptionList).toBe(false);
    expect(altered.prompt).toBeUndefined();
    expect(altered.unreadOptionList).toBe(true);
  });

  it('a batch of parallel shell calls: the dialog carries its n-of-N counter, outside the description', () => {
    const s = parse('parallel-shell-esc.screen-0-dialog');
    expect(s.prompt).toMatchObject({ tool: 'Shell', description: 'touch one.txt', command: 'touch one.txt', batch: { index: 1, total: 3 } });
    expect(s.prompt!.details.batch).toBe('1 of 3');
  });

  it('an Edit dialog: the file from the title, the diff from the body, four options with "Modify with external editor"', () => {
    const s = parse('edit-approve.screen-0-dialog');
    expect(s.prompt).toMatchObject({ kind: 'edit', tool: 'Edit', file: 'edit_me.txt', question: 'Apply this change?' });
    expect(s.prompt!.command).toBeUndefined();
    expect(s.prompt!.body).toEqual(['1   first line', '2 - old line', '2 + new line', '3   last line']);
    expect(s.prompt!.options.map((o) => o.label)).toEqual(FILE_OPTIONS);
  });

  it('a WriteFile dialog below an accepted write: the file is the one of the live dialog', () => {
    const s = parse('parallel-approve-then-esc.screen-1-second-dialog');
    expect(s.prompt).toMatchObject({ kind: 'edit', tool: 'WriteFile', description: 'Writing to b.txt', file: 'b.txt', body: ['1 beta'] });
    expect(s.decisionRows).toBe(1);
  });

  it('the same dialog redrawn narrower keeps its identity; another dialog has another one', () => {
    const wide = parse('shell-deny-option3.screen-0-dialog').prompt!;
    const narrow = parseGeminiScreen(narrowed(sampleScreen('shell-deny-option3.screen-0-dialog'), 90), GEMINI_0_61_0).prompt!;
    expect(narrow.command).toBe('touch shell_marker.txt');
    expect(narrow.identity).toBe(wide.identity);
    const ids = ['parallel-shell-esc.screen-0-dialog', 'edit-approve.screen-0-dialog', 'parallel-approve-then-esc.screen-0-dialog', 'parallel-approve-then-esc.screen-1-second-dialog'].map(
      (n) => parse(n).prompt!.identity,
    );
    expect(new Set([wide.identity, ...ids]).size).toBe(5);
  });

  it('started with --prompt-interactive: the startup warning under the first dialog leaves it live; an indented row alone does not', () => {
    const dialog = sampleScreen('shell-deny-option3.screen-0-dialog').lines;
    const warning = ['', '⚠  Warning: True color (24-bit) support not detected. Using a terminal with true color enabled will result in a better', '   visual experience.', ''];
    const withWarning = parseGeminiScreen(screenFromLines([...dialog, ...warning]), GEMINI_0_61_0);
    expect(withWarning.prompt?.identity).toBe(parse('shell-deny-option3.screen-0-dialog').prompt!.identity);
    expect(withWarning.prompt!.options.map((o) => o.label)).toEqual(SHELL_OPTIONS);
    // Anything else drawn below the box means the dialog is no longer the live pane.
    expect(parseGeminiScreen(screenFromLines([...dialog, '', '   visual experience.']), GEMINI_0_61_0).prompt).toBeUndefined();
    expect(parseGeminiScreen(screenFromLines([...dialog, '', ' >   Type your message or @path/to/file']), GEMINI_0_61_0).prompt).toBeUndefined();
  });

  it('after a decision the dialog is gone: a rejected row and "Request cancelled." are decision rows', () => {
    const s = parse('write-deny-option.screen-2-after');
    expect(s.prompt).toBeUndefined();
    expect(s.decisionRows).toBe(2);
    expect(s.userMessages).toEqual(['[[scenario:write]] please do the thing']);
    const parallel = parse('parallel-shell-esc.screen-1-after');
    expect(parallel.prompt).toBeUndefined();
    expect(parallel.decisionRows).toBe(4);
  });
});

describe('gemini 0.61.0, working states', () => {
  it('a running command: working (the spinner says esc cancels), one running tool row, no dialog', () => {
    const s = parse('long-esc-running.screen-1-running');
    expect(s).toMatchObject({ working: true, runningRows: 1 });
    expect(s.prompt).toBeUndefined();
  });

  it("the running mark's other frame (⊶: Gemini's executing spinner toggles ⊶ and ⊷) is a running row too", () => {
    const frame = sampleScreen('long-esc-running.screen-1-running');
    expect(frame.lines.some((l) => l.includes('⊷'))).toBe(true);
    const other = parseGeminiScreen(screenFromLines(frame.lines.map((l) => l.replace('⊷', '⊶'))), GEMINI_0_61_0);
    expect(other).toMatchObject({ working: true, runningRows: 1, runningTools: [expect.stringMatching(/^⊶ +Shell sleep 30/)] });
  });

  it('a streamed answer: working, with the answer text as shown', () => {
    const s = parse('stream-esc.screen-0-dialog');
    expect(s.working).toBe(true);
    expect(s.answerText).toMatch(/^Streaming chunk 1 of 40\. Streaming chunk 2 of 40\./);
  });

  it('the banner names the version', () => {
    expect(parse('shell-ctrlc.screen-0-dialog').bannerVersion).toBe('0.61.0');
  });
});
