// The shared option-list reader on screens as the agents draw them: a dialog whose title rec does
// not know is still a live option list; a numbered list in the history is not.
import { describe, expect, it } from 'vitest';
import { parseOptionList, showsOptionList } from '../../../../src/agents/common/optionList.js';

const codex = { marker: '›' };

/** Codex 0.171.0's exec prompt with its title altered, as the miss replay draws it. */
const unknownPrompt = [
  '› SCN=shell please write the file',
  '',
  '• Running echo hello > approved.txt',
  '',
  '  Would you care to run the following command?',
  '',
  '  $ echo hello > approved.txt',
  '',
  '› 1. Yes, proceed (y)',
  '  2. Yes, and don\'t ask again for commands that start with `echo hello >',
  '     approved.txt` (p)',
  '  3. No, and tell Codex what to do differently (esc)',
  '',
  '  Press enter to confirm or esc to cancel',
  '',
];

describe('showsOptionList', () => {
  it('a highlighted numbered list at the bottom is live, whatever its title and footer say', () => {
    expect(showsOptionList(unknownPrompt, codex)).toBe(true);
    expect(showsOptionList(unknownPrompt.slice(0, -2), codex)).toBe(true);
  });

  it('a list without the highlight, or of one option, is not', () => {
    expect(showsOptionList(unknownPrompt.map((l) => l.replace('› 1.', '  1.')), codex)).toBe(false);
    expect(showsOptionList(['› 1. Yes, proceed (y)', '', '  Press enter to confirm'], codex)).toBe(false);
  });

  it("a user's numbered message in the history, with the working status and composer below it, is not", () => {
    const history = ['› 1. write the file', '  2. then show it', '', '• Working (3s • esc to interrupt)', '', '› Ask Codex to do anything', '', '  100% context left'];
    expect(showsOptionList(history, codex)).toBe(false);
    expect(parseOptionList(history, 0, history.length, codex)).toHaveLength(2);
  });

  it('an answer listing steps below a list keeps the list from counting', () => {
    expect(showsOptionList([...unknownPrompt.slice(8, 12), '', '• 1. first step', '  2. second step'], codex)).toBe(false);
  });
});

describe('parseOptionList, a list drawn without numbers (Claude 2.1.332, auto mode when its check cannot run)', () => {
  const claude = { marker: '❯', unnumbered: true };
  const pane = [' Do you want to proceed?', ' ❯ No', '   Yes', '', ' Esc to cancel · Tab to amend'];

  it('each row to the blank one is an option, by position, the marker on the highlighted one; no digit picks them', () => {
    expect(parseOptionList(pane, 1, pane.length, claude)).toEqual([
      { number: 1, unnumbered: true, label: 'No', highlighted: true, row: 1 },
      { number: 2, unnumbered: true, label: 'Yes', highlighted: false, row: 2 },
    ]);
    expect(parseOptionList([' ❯ No, and tell Claude what to do', '     differently', '   Yes'], 0, 3, claude).map((o) => o.label)).toEqual(['No, and tell Claude what to do differently', 'Yes']);
  });

  it('rows without the marker are no list (what a half-redrawn frame leaves under the question)', () => {
    expect(parseOptionList(['  To get the check back, ask whoever runs your gateway:', '  https://code.claude.com/docs/en/permission-modes', ''], 0, 3, claude)).toEqual([]);
  });

  it('a reader that does not know the prompt reads numbers only', () => {
    expect(parseOptionList(pane, 1, pane.length, { marker: '❯' })).toEqual([]);
  });
});
