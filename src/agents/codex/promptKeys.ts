// What a key means at a Codex approval prompt or task menu: pure functions over the parsed options
// and the version's texts (which option a letter, digit, Esc or Enter picks; where arrows move).
import type { KeyEvent } from '../../core/keys.js';
import type { ListOption } from '../common/optionList.js';
import type { CodexStrings, OptionMeaning } from './strings/index.js';

export type PromptTrigger = 'esc' | 'ctrl_c' | 'enter' | 'digit' | 'letter';

export interface Choice {
  readonly option?: ListOption;
  readonly trigger: PromptTrigger;
}

export type Meaning = OptionMeaning & { readonly endsTurn: boolean };

export function optionMeaning(label: string, strings: CodexStrings): Meaning | undefined {
  const meaning = strings.optionMeanings.find((m) => label.startsWith(m.labelPrefix));
  if (!meaning) return undefined;
  return { ...meaning, endsTurn: meaning.decision === 'reject' && meaning.endsTurn === true };
}

/** The option a key picks at a prompt, or undefined when the key decides nothing. */
export function choosePromptOption(
  key: KeyEvent,
  options: readonly ListOption[],
  highlighted: number,
  strings: CodexStrings,
): Choice | undefined {
  const firstReject = () =>
    options.find((o) => o.key === 'esc') ?? options.find((o) => optionMeaning(o.label, strings)?.decision === 'reject');
  if (key.type === 'char') {
    if (key.alt || key.modifiers?.ctrl || key.modifiers?.alt) return undefined;
    if (/^[0-9]$/.test(key.char)) {
      const option = options.find((o) => o.number === Number(key.char));
      return option ? { option, trigger: 'digit' } : undefined;
    }
    const option = options.find((o) => o.key === key.char);
    if (option) return { option, trigger: 'letter' };
    if (strings.hiddenRejectLetters.includes(key.char)) {
      const reject = firstReject();
      return reject ? { option: reject, trigger: 'letter' } : undefined;
    }
    return undefined;
  }
  if (key.type !== 'key') return undefined;
  if (key.name === 'esc' && !key.alt) {
    const reject = firstReject();
    return { ...(reject ? { option: reject } : {}), trigger: 'esc' };
  }
  if (key.name === 'ctrl-c') return { trigger: 'ctrl_c' };
  if (key.name === 'enter' && !key.alt) {
    const option = options.find((o) => o.number === highlighted);
    return option ? { option, trigger: 'enter' } : undefined;
  }
  return undefined;
}

/** Where Up/Down moves the highlight of a list of `count` options. */
export function moveHighlight(current: number, delta: number, count: number, strings: CodexStrings): number {
  if (count === 0) return current;
  const next = current + delta;
  if (strings.selectionWraps) return ((next - 1 + count) % count) + 1;
  return Math.min(Math.max(next, 1), count);
}
