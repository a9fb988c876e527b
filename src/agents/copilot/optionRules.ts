// What keys do at Copilot's permission prompts (docs/copilot.md §3, §5), in the shared recorder's
// terms (common/agentProfile.ts OptionRules, common/optionKeys.ts).
import type { OptionMeaning, OptionRules, PromptView } from '../common/agentProfile.js';
import type { CopilotStrings } from './strings/index.js';

export function copilotOptionRules(strings: CopilotStrings): OptionRules {
  return {
    meaning: (label: string, prompt?: PromptView): OptionMeaning | undefined => {
      const found = strings.optionMeanings.find((m) => m.label.test(label));
      if (!found) return undefined;
      const { label: _, ...meaning } = found;
      // A URL let through is asked about again as the shell command it is part of: the same call's next prompt (§3).
      if (prompt?.kind === 'network' && meaning.decision === 'approve') return { ...meaning, reasks: true };
      // "No, and tell Copilot…": a digit or Enter on it only highlights it, as a text field; Enter
      // with text refuses with that reason and the turn goes on, Esc refuses and ends it (§3).
      return label === strings.feedbackOption.label ? { ...meaning, opensField: true } : meaning;
    },
    // No letter refuses a prompt: only digits, arrows, Enter, Esc and Ctrl+C were measured to act.
    hiddenRejectLetters: [],
    // Up on the first option was not measured: without a wrap, the screen's highlight corrects a
    // wrong guess, while a wrap guessed wrongly would move the expected highlight to the end.
    selectionWraps: false,
    // Ctrl+C once at a prompt cancels it and the turn, byte for byte as Esc does.
    ctrlCRejects: true,
    // One Ctrl+C cuts a running tool or a streaming answer at once (Esc needs two).
    ctrlCInterrupts: true,
    // One Esc while a turn works only arms the interrupt (`esc again to interrupt`); the second cuts (§5).
    escArmsInterrupt: true,
    // Esc at a prompt cancels it and aborts the turn without choosing an option; the path prompt's
    // `No (Esc)` names Esc itself (its `key`), which the shared rule honours.
    escChoosesRejectOption: false,
  };
}
