// Command-line flags shared by `rec merge` and `rec stats`.
import { UsageError } from '../commands/commandIO.js';
import { MergeAgent } from './mergedSession.js';
import { parseSince, type Selection } from './selectSessions.js';

export interface SelectionArgs {
  selection: Selection;
  db: string | undefined;
  jobs: number;
  output: string | null;
  jsonl: boolean;
  json: boolean;
  top: number;
  progress: boolean;
  help: boolean;
}

export interface FlagSet {
  output?: boolean;
  jsonl?: boolean;
  json?: boolean;
  top?: boolean;
}

/** Parses argv after the subcommand. Throws UsageError (exit 2) with one line on bad input. */
export function parseSelectionArgs(args: readonly string[], allowed: FlagSet): SelectionArgs {
  const out: SelectionArgs = {
    selection: { files: [], runId: null, agent: null, since: null },
    db: undefined,
    jobs: 0,
    output: null,
    jsonl: false,
    json: false,
    top: 10,
    progress: true,
    help: false,
  };
  const value = (i: number, flag: string): string => {
    const v = args[i + 1];
    if (v === undefined || (v.startsWith('-') && v.length > 1)) throw new UsageError(`${flag} needs a value`);
    return v;
  };
  let onlyFiles = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (onlyFiles || !a.startsWith('-') || a === '-') {
      out.selection.files.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const flag = eq > 0 ? a.slice(0, eq) : a;
    const inline = eq > 0 ? a.slice(eq + 1) : undefined;
    const take = (): string => {
      if (inline !== undefined) return inline;
      const v = value(i, flag);
      i++;
      return v;
    };
    switch (flag) {
      case '--':
        onlyFiles = true;
        break;
      case '-h':
      case '--help':
        out.help = true;
        break;
      case '--run':
        out.selection.runId = take();
        break;
      case '--agent': {
        const v = take();
        const agent = MergeAgent.safeParse(v);
        if (!agent.success) throw new UsageError(`--agent must be codex, gemini or claude, not ${JSON.stringify(v)}`);
        out.selection.agent = agent.data;
        break;
      }
      case '--since': {
        const v = take();
        const since = parseSince(v);
        if (since === null) throw new UsageError(`--since takes a date (2026-01-31) or an age (30m, 24h, 7d, 2w), not ${JSON.stringify(v)}`);
        out.selection.since = since;
        break;
      }
      case '--db':
        out.db = take();
        break;
      case '--jobs':
      case '-j': {
        const v = take();
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1 || n > 64) throw new UsageError(`--jobs takes a whole number from 1 to 64, not ${JSON.stringify(v)}`);
        out.jobs = n;
        break;
      }
      case '-o':
      case '--output':
        if (!allowed.output) throw new UsageError(`unknown option ${flag}`);
        out.output = take();
        break;
      case '--jsonl':
        if (!allowed.jsonl) throw new UsageError(`unknown option ${flag}`);
        out.jsonl = true;
        break;
      case '--json':
        if (!allowed.json) throw new UsageError(`unknown option ${flag}`);
        out.json = true;
        break;
      case '--top': {
        if (!allowed.top) throw new UsageError(`unknown option ${flag}`);
        const v = take();
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1) throw new UsageError(`--top takes a positive whole number, not ${JSON.stringify(v)}`);
        out.top = n;
        break;
      }
      case '--no-progress':
        out.progress = false;
        break;
      default:
        throw new UsageError(`unknown option ${flag}`);
    }
  }
  return out;
}
