// Option values checked and converted, with one wording per mistake for every command:
// "bad --NAME 'VALUE': expected …". Each throws a UsageError (exit status 2).
import { UsageError } from './commandIO.js';
import { WHEN_FORMS } from './commandSpec.js';
import { quote } from './parseCommandArgs.js';

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

function bad(name: string, text: string, expected: string): UsageError {
  return new UsageError(`bad --${name} '${quote(text)}': expected ${expected}`);
}

/**
 * `--since`: a relative age (30s, 30m, 2h, 7d, 1w: that long before `now`) or an ISO date. A bare
 * date (2025-01-31) means local midnight; a date-time without a zone is local time, as in JS.
 */
export function parseSince(text: string, now: Date = new Date(), name = 'since'): Date {
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
  throw bad(name, text, WHEN_FORMS);
}

/** A whole number in [min, max] (max optional). */
export function parseCount(name: string, text: string, min: number, max?: number): number {
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (Number.isSafeInteger(n) && n >= min && (max === undefined || n <= max)) return n;
  throw bad(name, text, max === undefined ? `a whole number, ${min} or more` : `a whole number from ${min} to ${max}`);
}

export function parseChoice<T extends string>(name: string, text: string, choices: readonly T[]): T {
  if ((choices as readonly string[]).includes(text)) return text as T;
  throw bad(name, text, `one of ${choices.join(', ')}`);
}
