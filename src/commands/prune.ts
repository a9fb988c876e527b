// `rec prune`: delete recorded runs (with their events and agent records) and give the space back.
import { shortId } from '../store/ids.js';
import { fileBytes, pruneRuns, reclaimSpace, type PrunedRun, type PruneSelection } from '../store/prune.js';
import { openSidecar } from '../store/sidecarDb.js';
import { resolveDbPath } from '../store/dbPath.js';
import { UsageError, type CommandIO } from './commandIO.js';
import { parseOrReport } from './commandKit.js';
import { PRUNE_SPEC } from './commandSpec.js';
import { cell, formatTable, localTime, plural, type Column } from './formatTable.js';
import { parseSince } from './optionValues.js';
import { resolveRunRef } from './runRef.js';
import { escapeControls, outputWidth } from './terminalText.js';

interface PruneArgs {
  readonly selection: { readonly before: Date } | { readonly runPrefix: string };
  readonly dryRun: boolean;
  readonly db: string | undefined;
}

export async function pruneCommand(args: string[], io: CommandIO, now: Date = new Date()): Promise<number> {
  let parsed!: PruneArgs;
  const status = parseOrReport(PRUNE_SPEC, args, io, ({ values }) => (parsed = toPruneArgs(values, now)));
  if (typeof status === 'number') return status;

  const path = resolveDbPath({ flag: parsed.db, env: io.env, cwd: io.cwd });
  const opened = openSidecar(path, { mustExist: true });
  if (!opened.ok) {
    io.stderr.write(`rec prune: ${escapeControls(opened.error)}\n`);
    return 1;
  }
  const db = opened.db;
  try {
    let selection: PruneSelection;
    if ('runPrefix' in parsed.selection) {
      const ref = resolveRunRef(db, parsed.selection.runPrefix, 'prune', io);
      if (!ref.ok) return ref.status;
      selection = { runId: ref.run.id };
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
      io.stdout.write(`No runs${scope} in ${cell(db.path)}.\n`);
    } else {
      const verb = parsed.dryRun ? 'Would delete' : 'Deleted';
      io.stdout.write(`${verb} ${summary(result.runs)}${scope}:\n${toRunsTable(result.runs, outputWidth(io.stdout))}`);
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
      io.stderr.write(`rec prune: the space was not given back to the disk: ${escapeControls(err instanceof Error ? err.message : String(err))}; a later \`rec prune\` will\n`);
      return 0;
    }
    if (reclaim.reclaimed) {
      io.stdout.write(`${cell(db.path)}: ${formatBytes(bytesBefore)} → ${formatBytes(reclaim.bytesAfter)}.\n`);
    } else {
      io.stdout.write(
        `${cell(db.path)}: ${formatBytes(reclaim.bytes)}; the freed space is reused by new rows, and given back to the disk by a later \`rec prune\` once run ${shortId(reclaim.liveRunId)} has stopped recording.\n`,
      );
    }
    return 0;
  } finally {
    db.close();
  }
}

function toPruneArgs(values: Record<string, string | true | undefined>, now: Date): PruneArgs {
  const db = values.db as string | undefined;
  const dryRun = values['dry-run'] === true;
  const run = values.run as string | undefined;
  const before = values.before as string | undefined;
  if (before !== undefined && run !== undefined) throw new UsageError('give --before or --run, not both');
  if (run !== undefined) return { selection: { runPrefix: run }, dryRun, db };
  if (before !== undefined) return { selection: { before: parseSince(before, now, 'before') }, dryRun, db };
  throw new UsageError('say which runs to delete: --before WHEN or --run ID');
}

const PRUNED_COLUMNS: readonly Column[] = [{ header: 'ID' }, { header: 'STARTED' }, { header: 'AGENT' }, { header: 'EVENTS', align: 'right' }, { header: 'AGENT RECORDS', align: 'right' }];

function toRunsTable(runs: readonly PrunedRun[], width: number): string {
  const rows = runs.map((r) => [shortId(r.id), localTime(r.started_at), cell(r.agent), String(r.events), String(r.agent_records)]);
  return formatTable(PRUNED_COLUMNS, rows, width);
}

function summary(runs: readonly PrunedRun[]): string {
  const events = runs.reduce((n, r) => n + r.events, 0);
  const records = runs.reduce((n, r) => n + r.agent_records, 0);
  return `${plural(runs.length, 'run')} (${plural(events, 'event')}, ${plural(records, 'agent record')})`;
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
