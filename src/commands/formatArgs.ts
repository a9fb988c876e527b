// Argument parsing shared by `rec runs` and `rec events`: flags only (no positionals), each
// mistake a UsageError with one line. `--name value` and `--name=value` are both accepted.
import { UsageError } from './commandIO.js';

export type FlagKind = 'boolean' | 'string';
export type FlagValues = Record<string, string | true | undefined>;

export function parseFlags(args: readonly string[], spec: Readonly<Record<string, FlagKind>>): FlagValues {
  const values: FlagValues = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--') || arg === '--') throw new UsageError(`unexpected argument '${arg}'`);
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const kind = spec[name];
    if (kind === undefined) throw new UsageError(`unknown option '--${name}'`);
    if (kind === 'boolean') {
      if (eq !== -1) throw new UsageError(`option '--${name}' takes no value`);
      values[name] = true;
      continue;
    }
    const value = eq !== -1 ? arg.slice(eq + 1) : args[++i];
    if (value === undefined || value === '') throw new UsageError(`option '--${name}' needs a value`);
    values[name] = value;
  }
  return values;
}

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * `--since` (or another `option` taking the same forms, such as prune's `--before`): a relative
 * age (30s, 30m, 2h, 7d, 1w: that long before `now`) or an ISO date. A bare date (2025-01-31)
 * means local midnight; a date-time without a zone is local time, as in JS.
 */
export function parseSince(text: string, now: Date = new Date(), option = 'since'): Date {
  const relative = /^(\d+)([smhdw])$/.exec(text);
  if (relative !== null) return new Date(now.getTime() - Number(relative[1]) * UNIT_MS[relative[2]!]!);
  const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (dateOnly !== null) {
    const date = new Date(Number(dateOnly[1]), Number(dateOnly[2]) - 1, Number(dateOnly[3]));
    if (date.getDate() === Number(dateOnly[3])) return date;
  } else if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(text)) {
    const date = new Date(text.replace(' ', 'T'));
    if (!Number.isNaN(date.getTime())) return date;
  }
  throw new UsageError(`bad --${option} '${text}': use an age such as 30m, 2h, 7d, or a date such as 2025-01-31 or 2025-01-31T14:00`);
}

export function parsePositiveInt(name: string, text: string): number {
  if (!/^\d+$/.test(text)) throw new UsageError(`bad --${name} '${text}': expected a whole number`);
  return Number(text);
}

export function parseChoice<T extends string>(name: string, text: string, choices: readonly T[]): T {
  if ((choices as readonly string[]).includes(text)) return text as T;
  throw new UsageError(`bad --${name} '${text}': expected one of ${choices.join(', ')}`);
}
