// `rec prune`: delete recorded runs (with their events and agent records) and give the space back.
// Options are parsed with Node's util.parseArgs: a maintained parser that knows `--x=v`, `--x v`
// and `--`, so this command does not grow a hand parser of its own.
import { parseArgs } from 'node:util';
import { resolveDbPath } from '../store/dbPath.js';
import { shortId } from '../store/ids.js';
import { fileBytes, pruneRuns, reclaimSpace, type PrunedRun, type PruneSelection } from '../store/prune.js';
import { openSidecar } from '../store/sidecarDb.js';
import { oneLine } from '../store/sidecarError.js';
import { UsageError, type CommandIO } from './commandIO.js';
import { parseSince } from './formatArgs.js';
import { formatTable, localTime } from './formatTable.js';

export const PRUNE_USAGE = `usage: rec prune (--before WHEN | --run ID) [--dry-run] [--db PATH]
  --before WHEN  delete the runs started before WHEN: an age (30m, 2h, 7d, 1w) or a date (2025-01-31)
  --run ID       delete one run: its id or a unique prefix of it (see rec runs)
  --dry-run      only show what would be deleted
  --db PATH      the database (default: REC_DB, else ~/.local/share/rec/rec.db)
A run that is still recording is never deleted. To delete everything, remove the database file.`;

const OPTIONS = {
  before: { type: 'string' },
  run: { type: 'string' },
  'dry-run': { type: 'boolean' },
  db: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

interface PruneArgs {
  readonly selection: { readonly before: Date } | { readonly runPrefix: string };
  readonly dryRun: boolean;
  readonly db: string | undefined;
}

export async function pruneCommand(args: string[], io: CommandIO, now: Date = new Date()): Promise<number> {
  let parsed: PruneArgs | 'help';
  try {
    parsed = parsePruneArgs(args, now);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr.write(`rec prune: ${printable(err.message)} (see rec prune --help)\n`);
    return 2;
  }
  if (parsed === 'help') {
    io.stdout.write(PRUNE_USAGE + '\n');
    return 0;
  }

  const path = resolveDbPath({ flag: parsed.db, env: io.env, cwd: io.cwd });
  const opened = openSidecar(path, { mustExist: true });
  if (!opened.ok) {
    io.stderr.write(`rec: ${opened.error}\n`);
    return 1;
  }
  const db = opened.db;
  try {
    let selection: PruneSelection;
    if ('runPrefix' in parsed.selection) {
      const prefix = parsed.selection.runPrefix;
      const resolved = db.resolveRunId(prefix);
      if (!resolved.ok) {
        io.stderr.write(
          resolved.reason === 'none'
            ? `rec prune: no run matches '${printable(prefix)}' (see rec runs)\n`
            : `rec prune: run id '${printable(prefix)}' is ambiguous: it matches ${resolved.matches.map(shortId).join(', ')}; give more characters\n`,
        );
        return 2;
      }
      selection = { runId: resolved.id };
    } else {
      selection = { before: parsed.selection.before };
    }

    const bytesBefore = fileBytes(db.path);
    const result = pruneRuns(db, selection, { dryRun: parsed.dryRun });
    if (!result.ok) {
      const which = result.live.map((r) => `${shortId(r.id)} (rec pid ${r.pid})`).join(', ');
      io.stderr.write(`rec prune: nothing deleted: ${plural(result.live.length, 'run')} still recording: ${which}; wait for it to end or stop it first\n`);
      return 1;
    }
    const scope = 'before' in selection ? ` started before ${localTime(selection.before.toISOString())}` : '';
    if (result.runs.length === 0) {
      io.stdout.write(`No runs${scope} in ${db.path}.\n`);
    } else {
      const verb = parsed.dryRun ? 'Would delete' : 'Deleted';
      io.stdout.write(`${verb} ${summary(result.runs)}${scope}:\n${toRunsTable(result.runs)}`);
    }
    if (parsed.dryRun) {
      io.stdout.write('Nothing was deleted (--dry-run).\n');
      return 0;
    }
    let reclaim;
    try {
      reclaim = reclaimSpace(db);
    } catch (err) {
      // The runs are gone (committed above); only the space stays taken, until a later prune.
      io.stderr.write(`rec prune: the space was not given back to the disk: ${printable(err instanceof Error ? err.message : String(err))}; a later \`rec prune\` will\n`);
      return 0;
    }
    if (reclaim.reclaimed) {
      io.stdout.write(`${db.path}: ${formatBytes(bytesBefore)} → ${formatBytes(reclaim.bytesAfter)}.\n`);
    } else {
      io.stdout.write(
        `${db.path}: ${formatBytes(reclaim.bytes)}; the freed space is reused by new rows, and given back to the disk by a later \`rec prune\` once run ${shortId(reclaim.liveRunId)} has stopped recording.\n`,
      );
    }
    return 0;
  } finally {
    db.close();
  }
}

function parsePruneArgs(args: string[], now: Date): PruneArgs | 'help' {
  let values: { before?: string; run?: string; 'dry-run'?: boolean; db?: string; help?: boolean };
  try {
    ({ values } = parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (err) {
    throw new UsageError(usageMessage(err));
  }
  if (values.help) return 'help';
  if (values.before !== undefined && values.run !== undefined) throw new UsageError('give --before or --run, not both');
  if (values.db === '') throw new UsageError("option '--db' needs a value");
  const dryRun = values['dry-run'] === true;
  if (values.run !== undefined) {
    if (values.run === '') throw new UsageError("option '--run' needs a value");
    return { selection: { runPrefix: values.run }, dryRun, db: values.db };
  }
  if (values.before !== undefined) {
    return { selection: { before: parseSince(values.before, now, 'before') }, dryRun, db: values.db };
  }
  throw new UsageError('say which runs to delete: --before WHEN or --run ID');
}

/** util.parseArgs's messages are long and name no fix; these say the same as the other commands. */
function usageMessage(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  const message = err instanceof Error ? err.message : String(err);
  const quoted = /'([^']*)'/.exec(message)?.[1] ?? '?';
  // parseArgs quotes the option with its value placeholder (`'--before <value>'`) or its short
  // form (`'-h, --help'`): keep the long name only.
  const option = quoted.replace(/ <value>$/, '').replace(/^-\w, /, '');
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option '${option}'`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/argument missing/.test(message)) return `option '${option}' needs a value`;
      if (/ambiguous/.test(message)) return `option '${option}' needs a value (a value starting with '-' goes as ${option}=VALUE)`;
      return `option '${option}' takes no value`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument '${quoted}'`;
    default:
      return oneLine(message);
  }
}

function toRunsTable(runs: readonly PrunedRun[]): string {
  const rows = runs.map((r) => [shortId(r.id), localTime(r.started_at), r.agent, String(r.events), String(r.agent_records)]);
  return formatTable(['ID', 'STARTED', 'AGENT', 'EVENTS', 'AGENT RECORDS'], rows);
}

function summary(runs: readonly PrunedRun[]): string {
  const events = runs.reduce((n, r) => n + r.events, 0);
  const records = runs.reduce((n, r) => n + r.agent_records, 0);
  return `${plural(runs.length, 'run')} (${plural(events, 'event')}, ${plural(records, 'agent record')})`;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** 512 B, 3.4 KB, 12.0 MB (powers of 1000, as disk sizes are shown). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** A word from the command line, shown with control characters escaped (it may hold anything). */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
