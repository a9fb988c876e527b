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
