// The options `rec merge` and `rec stats` share — which sessions to read, and how — plus each
// one's own, parsed from their specs (commandSpec.ts).
import type { MergeAgent } from '../merge/mergedSession.js';
import type { Selection } from '../merge/selectSessions.js';
import { AGENTS } from './commandSpec.js';
import { parseChoice, parseCount, parseSince } from './optionValues.js';
import type { ParsedArgs } from './parseCommandArgs.js';

/** `--jobs` beyond this would only add threads that wait for the disk. */
export const MAX_JOBS = 64;
/** How many of the most refused commands `rec stats` lists unless told (--top). */
export const DEFAULT_TOP = 10;

export interface SelectionArgs {
  selection: Selection;
  db: string | undefined;
  jobs: number;
  output: string | null;
  jsonl: boolean;
  json: boolean;
  top: number;
  all: boolean;
  progress: boolean;
  help: boolean;
}

/** Checks and converts the parsed options of `merge` / `stats`. Throws UsageError (exit 2) on bad values. */
export function toSelectionArgs({ values: v, operands, help }: ParsedArgs, now: Date = new Date()): SelectionArgs {
  const text = (name: string): string | undefined => (typeof v[name] === 'string' ? (v[name] as string) : undefined);
  const agent = text('agent');
  const since = text('since');
  const jobs = text('jobs');
  const top = text('top');
  return {
    selection: {
      files: [...operands],
      runId: text('run') ?? null,
      agent: agent === undefined ? null : (parseChoice('agent', agent, AGENTS) as MergeAgent),
      since: since === undefined ? null : parseSince(since, now),
    },
    db: text('db'),
    jobs: jobs === undefined ? 0 : parseCount('jobs', jobs, 1, MAX_JOBS),
    output: text('output') ?? null,
    jsonl: v.jsonl === true,
    json: v.json === true,
    top: top === undefined ? DEFAULT_TOP : parseCount('top', top, 1),
    all: v.all === true,
    progress: v['no-progress'] !== true,
    help,
  };
}
