import { describe, expect, it } from 'vitest';
import type { OptionRules } from '../../../../src/agents/common/agentProfile.js';
import { choosePromptOption } from '../../../../src/agents/common/optionKeys.js';
import type { ListOption } from '../../../../src/agents/common/optionList.js';
import { keyEvent } from '../../../../src/lab/keys.js';

const OPTIONS: ListOption[] = [
  { number: 1, label: 'Allow once', highlighted: true, row: 0 },
  { number: 2, label: 'No, suggest changes (esc)', highlighted: false, row: 1 },
];

function rules(ctrlCRejects: boolean): OptionRules {
  return {
    meaning: (label) => (label.startsWith('Allow') ? { decision: 'approve', scope: 'once' } : { decision: 'reject', endsTurn: true }),
    hiddenRejectLetters: [],
    selectionWraps: true,
    ctrlCRejects,
    ctrlCInterrupts: false,
    escChoosesRejectOption: true,
  };
}

describe('Ctrl+C at a prompt is a per-agent rule', () => {
  it('where the agent cancels the request (Codex, Gemini) it is a decision with trigger ctrl_c and no option', () => {
    expect(choosePromptOption(keyEvent('ctrl-c'), OPTIONS, 1, rules(true))).toEqual({ trigger: 'ctrl_c' });
  });

  it('where it does not (an agent whose Ctrl+C only clears the input there) it decides nothing', () => {
    expect(choosePromptOption(keyEvent('ctrl-c'), OPTIONS, 1, rules(false))).toBeUndefined();
  });

  it('Esc picks the reject option either way', () => {
    expect(choosePromptOption(keyEvent('esc'), OPTIONS, 1, rules(false))).toEqual({ option: OPTIONS[1], trigger: 'esc' });
  });
});
