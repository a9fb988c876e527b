// The options of `rec rules`: the selection `rec merge` takes, plus its own.
import type { MergeAgent } from '../merge/mergedSession.js';
import { DEFAULT_MIN } from '../rules/suggestRules.js';
import { UsageError } from './commandIO.js';
import { AGENTS } from './commandSpec.js';
import { parseChoice, parseCount } from './optionValues.js';
import type { ParsedArgs } from './parseCommandArgs.js';
import { toSelectionArgs, type SelectionArgs } from './selectionArgs.js';

export interface RulesArgs extends SelectionArgs {
  min: number;
  /** Print only this agent's rules, in its own format. */
  format: MergeAgent | null;
  write: boolean;
  /** The agent whose file --write changes: --format's, else --agent's. */
  target: MergeAgent | null;
}

export function toRulesArgs(p: ParsedArgs, now: Date = new Date()): RulesArgs {
  const v = p.values;
  const min = typeof v.min === 'string' ? parseCount('min', v.min, 1) : DEFAULT_MIN;
  const format = typeof v.format === 'string' ? (parseChoice('format', v.format, AGENTS) as MergeAgent) : null;
  const base = toSelectionArgs(p, now);
  // --format picks what is printed, not what is read: the selection stays --agent's.
  const target = format ?? base.selection.agent;
  if (v.write === true && target === null) throw new UsageError('--write needs --agent or --format: it writes one agent\'s file');
  if (format !== null && base.selection.agent !== null && base.selection.agent !== format) {
    throw new UsageError(`--format ${format} and --agent ${base.selection.agent} name different agents`);
  }
  return { ...base, min, format, write: v.write === true, target };
}
