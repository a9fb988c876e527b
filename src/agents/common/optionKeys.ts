// What a key means at an approval prompt or a menu: which option a letter, digit, Esc or Enter
// picks, and where arrows move the highlight. Pure functions over the parsed options and the
// agent's option rules; shared by every agent.
import type { KeyEvent } from '../../core/keys.js';
import type { OptionMeaning, OptionRules } from './agentProfile.js';
import type { ListOption } from './optionList.js';

export type OptionTrigger = 'esc' | 'ctrl_c' | 'enter' | 'digit' | 'letter';

export interface Choice {
  readonly option?: ListOption;
  readonly trigger: OptionTrigger;
}

/** The option a key picks at a prompt, or undefined when the key decides nothing. */
export function choosePromptOption(key: KeyEvent, options: readonly ListOption[], highlighted: number, rules: OptionRules): Choice | undefined {
  const firstReject = () => options.find((o) => o.key === 'esc') ?? options.find((o) => rules.meaning(o.label)?.decision === 'reject');
  if (key.type === 'char') {
    if (key.alt || key.modifiers?.ctrl || key.modifiers?.alt) return undefined;
    if (/^[0-9]$/.test(key.char)) {
      // An option drawn without its number is not a digit's.
      const option = options.find((o) => o.number === Number(key.char) && o.unnumbered !== true);
      return option ? { option, trigger: 'digit' } : undefined;
    }
    const option = options.find((o) => o.key === key.char);
    if (option) return { option, trigger: 'letter' };
    if (rules.hiddenRejectLetters.includes(key.char)) {
      const reject = firstReject();
      return reject ? { option: reject, trigger: 'letter' } : undefined;
    }
    return undefined;
  }
  if (key.type !== 'key') return undefined;
  if (key.name === 'esc' && !key.alt) {
    // An option that names Esc as its key is Esc's, whatever the agent's rule for the others.
    const reject = rules.escChoosesRejectOption ? firstReject() : options.find((o) => o.key === 'esc');
    return { ...(reject ? { option: reject } : {}), trigger: 'esc' };
  }
  if (key.name === 'ctrl-c') return rules.ctrlCRejects ? { trigger: 'ctrl_c' } : undefined;
  if (key.name === 'enter' && !key.alt) {
    const option = options.find((o) => o.number === highlighted);
    return option ? { option, trigger: 'enter' } : undefined;
  }
  return undefined;
}

/** The option a key picks in a menu (digits and Enter), or undefined. */
export function chooseMenuOption<O extends ListOption>(key: KeyEvent, options: readonly O[], highlighted: number): O | undefined {
  if (key.type === 'char' && /^[0-9]$/.test(key.char)) return options.find((o) => o.number === Number(key.char));
  if (key.type === 'key' && key.name === 'enter') return options.find((o) => o.number === highlighted);
  return undefined;
}

/** The Up/Down direction of a key, or 0. */
export function arrowDelta(key: KeyEvent): -1 | 0 | 1 {
  if (key.type !== 'key') return 0;
  return key.name === 'up' ? -1 : key.name === 'down' ? 1 : 0;
}

/** Where Up/Down moves the highlight of a list of `count` options. */
export function moveHighlight(current: number, delta: number, count: number, rules: Pick<OptionRules, 'selectionWraps'>): number {
  if (count === 0) return current;
  const next = current + delta;
  if (rules.selectionWraps) return ((next - 1 + count) % count) + 1;
  return Math.min(Math.max(next, 1), count);
}

/** An option's meaning with its turn effect settled: only rejections that say so end the turn. */
export function settledMeaning(meaning: OptionMeaning | undefined): (OptionMeaning & { readonly endsTurn: boolean }) | undefined {
  if (!meaning) return undefined;
  return { ...meaning, endsTurn: meaning.decision === 'reject' && meaning.endsTurn === true };
}

/** One option text of an agent's strings: what choosing an option whose label starts with it means. */
export interface LabelMeaning extends OptionMeaning {
  readonly labelPrefix: string;
}

/** OptionRules.meaning over an agent's option texts: the first whose prefix the label starts with. */
export function meaningByLabelPrefix(meanings: readonly LabelMeaning[]): (label: string) => OptionMeaning | undefined {
  return (label) => {
    const m = meanings.find((o) => label.startsWith(o.labelPrefix));
    if (!m) return undefined;
    const { labelPrefix: _, ...meaning } = m;
    return meaning;
  };
}
