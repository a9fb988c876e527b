// Claude Code 2.1.332's auto mode where it puts a call to the user, as the real CLI drew it
// (recorded/automode-*, recorded by scripts/record-claude-fixtures.mjs from the claude kit's
// autoModeScenarios.ts): the "can't check actions in this session" dialog, the unnumbered No/Yes
// prompt that follows Enter there, and the breaker's numbered prompt. Read frame by frame, and
// the keys at the unnumbered prompt.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parseClaudeScreen } from '../../../../src/agents/claude/screenParser.js';
import { claudeStringsFor } from '../../../../src/agents/claude/strings/index.js';
import { CLAUDE_2_1_330 } from '../../../../src/agents/claude/strings/v2_1_330.js';
import { choosePromptOption, meaningByLabelPrefix } from '../../../../src/agents/common/optionKeys.js';
import { keyEvent } from '../../../../src/lab/keys.js';
import { readScreenFrames } from '../../../support/castReplay.js';
import { fixturesDir } from '../../../support/agentVersions.js';
import { screenFromText } from '../../../support/claude/samples.js';
import { BREAKER_EXPLANATION } from '../../../support/claude/autoModeScenarios.js';
import { AgentReplay } from '../../../support/claude/sampleReplay.js';

const RECORDED = join(fixturesDir('claude', '2.1.332'), 'recorded');
const STRINGS = claudeStringsFor('2.1.332');
const COMMAND = 'node -e "require(\\"fs\\").writeFileSync(\\"cls.txt\\",\\"x\\")"';
const NOTE = "Auto mode can't check actions in this session, so this one needs your approval";

function frameText(name: string, label: string) {
  const f = readScreenFrames(join(RECORDED, `${name}.screen.txt`)).find((x) => x.label === label);
  if (!f) throw new Error(`${name}: no frame ${label}`);
  return f;
}

function frame(name: string, label: string, strings = STRINGS) {
  const f = frameText(name, label);
  return parseClaudeScreen(screenFromText(f.text, f.cols), strings);
}

describe('claude 2.1.332, 120x40, auto mode: the "can’t check" dialog', () => {
  it('is a dialog about the session, not a prompt: Esc and Shift+Tab stop the turn there', () => {
    const s = frame('automode-dialog-esc', 'dialog');
    expect(s.prompt).toBeUndefined();
    expect(s.sessionDialog).toEqual({ stops: ['esc', 'shift-tab'] });
  });

  it('is gone once a key answered it (the prompt, or the turn stopped)', () => {
    expect(frame('automode-cannot-check-no', 'fallback').sessionDialog).toBeUndefined();
    expect(frame('automode-dialog-esc', 'interrupted').sessionDialog).toBeUndefined();
    expect(frame('automode-dialog-shifttab', 'accept-edits').sessionDialog).toBeUndefined();
  });

  it('is nothing to the texts of a version that did not draw it (2.1.330)', () => {
    expect(frame('automode-dialog-esc', 'dialog', CLAUDE_2_1_330).sessionDialog).toBeUndefined();
  });
});

describe('claude 2.1.332, 120x40, auto mode: the prompt after Enter at the dialog', () => {
  it('reads the Bash prompt with auto mode’s note, and its options drawn without numbers, No first and highlighted', () => {
    const { prompt, sessionDialog } = frame('automode-cannot-check-no', 'fallback');
    expect(sessionDialog).toBeUndefined();
    expect(prompt).toMatchObject({
      kind: 'command',
      title: 'Bash command',
      command: COMMAND,
      details: { description: 'Write cls.txt', note: NOTE, auto_mode: 'cannot_check', question: 'Do you want to proceed?' },
      highlighted: 1,
      amendable: true,
    });
    expect(prompt!.options.map((o) => [o.number, o.label, o.unnumbered])).toEqual([
      [1, 'No', true],
      [2, 'Yes', true],
    ]);
  });

  it('follows the highlight to Yes', () => {
    expect(frame('automode-cannot-check-yes', 'yes-selected').prompt).toMatchObject({ highlighted: 2, details: { auto_mode: 'cannot_check' } });
  });

  it('is no prompt to the texts of a version that did not draw it: an unnumbered list is not read blind', () => {
    expect(frame('automode-cannot-check-no', 'fallback', CLAUDE_2_1_330).prompt).toBeUndefined();
  });

  it('keys: a digit picks nothing; Enter the highlighted option, Esc no option', () => {
    const { prompt } = frame('automode-cannot-check-no', 'fallback');
    const rules = { meaning: meaningByLabelPrefix(STRINGS.optionMeanings), hiddenRejectLetters: [], selectionWraps: false, ctrlCRejects: false, ctrlCInterrupts: true, escChoosesRejectOption: false };
    const options = prompt!.options;
    expect(choosePromptOption(keyEvent('1'), options, 1, rules)).toBeUndefined();
    expect(choosePromptOption(keyEvent('2'), options, 1, rules)).toBeUndefined();
    expect(choosePromptOption(keyEvent('enter'), options, 1, rules)).toMatchObject({ trigger: 'enter', option: { label: 'No' } });
    expect(choosePromptOption(keyEvent('enter'), options, 2, rules)).toMatchObject({ trigger: 'enter', option: { label: 'Yes' } });
    expect(choosePromptOption(keyEvent('esc'), options, 1, rules)).toEqual({ trigger: 'esc' });
  });
});

describe('claude 2.1.332, 120x40, auto mode: the breaker’s prompt', () => {
  it('reads the numbered Bash prompt, and its note without the `│` gutter', () => {
    const { prompt } = frame('automode-breaker-yes', 'breaker');
    expect(prompt).toMatchObject({
      kind: 'command',
      title: 'Bash command',
      command: 'node -e "require(\\"fs\\").writeFileSync(\\"cls-3.txt\\",\\"x\\")"',
      details: {
        description: 'Write cls-3.txt',
        note: `Auto mode needs your confirmation for this command. 3 consecutive actions were blocked. Please review the transcript before continuing. Latest blocked action: ${BREAKER_EXPLANATION}`,
        auto_mode: 'breaker',
      },
      highlighted: 1,
    });
    expect(prompt!.options.map((o) => [o.number, o.label, o.unnumbered])).toEqual([
      [1, 'Yes', undefined],
      [2, 'Yes, and don’t ask again for: node *', undefined],
      [3, 'No', undefined],
    ]);
  });
});

/** Short, so that the check for a key Claude dropped comes within a test. */
const SETTLE_IN_TESTS_MS = 50;

/** The recorder on automode-dialog-esc's transcript, its screens shown by the test, the transcript through the held call. */
function dialogReplay(): AgentReplay {
  const transcript = readFileSync(join(RECORDED, 'automode-dialog-esc.transcript.jsonl'), 'utf8').split('\n').filter((l) => l.trim() !== '');
  const r = new AgentReplay('automode-dialog-esc', { transcript, ignoredKeySettleMs: SETTLE_IN_TESTS_MS });
  r.appendThroughCall();
  r.showText(frameText('automode-dialog-esc', 'dialog').text.split('\n'));
  return r;
}

describe('claude 2.1.332, auto mode: keys at the "can’t check" dialog, through the recorder', () => {
  it('Enter (stay in auto mode) and the keys that do nothing there record nothing', async () => {
    const r = dialogReplay();
    r.press('y', '1', 'down', 'enter');
    expect(r.sink.rows('interruption', 'rejection', 'approval', 'miss')).toEqual([]);
    await r.exit();
  });

  it('an Esc Claude dropped (the dialog still drawn once the screen settled) is taken back', async () => {
    const r = dialogReplay();
    const [call] = r.callIds();
    r.press('esc');
    // Written before the key goes on, then taken back: the dialog did not go away.
    expect(r.sink.rows('interruption')).toEqual([expect.objectContaining({ kind: 'prompt', trigger: 'esc', call_id: call, ran: 'no' })]);
    await vi.waitFor(() => expect(r.sink.rows('interruption')).toEqual([]), { timeout: 5_000 });
    await r.exit();
  });

  it('a Shift+Tab the dialog took (it went away) stands once the settle time has passed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval'] });
    try {
      const r = dialogReplay();
      const [call] = r.callIds();
      r.press('shift-tab');
      r.showText(frameText('automode-dialog-esc', 'interrupted').text.split('\n'));
      await vi.advanceTimersByTimeAsync(SETTLE_IN_TESTS_MS * 4);
      vi.useRealTimers();
      await r.exit();
      expect(r.sink.rows('interruption', 'rejection', 'approval', 'miss')).toEqual([
        expect.objectContaining({ type: 'interruption', kind: 'prompt', trigger: 'shift_tab', call_id: call, decided_by: 'user', ran: 'no' }),
      ]);
    } finally {
      vi.useRealTimers();
    }
  });
});
