// The part of `rec merge` and `rec stats` that talks to a person: the run named by --run, the
// progress bar, the diagnostics on stderr, and a reason whenever nothing could be read.
import { INCOMPLETE_EXIT_STATUS, lostDecisions, runSelection, type RunOptions, type RunSummary } from '../merge/mergeRun.js';
import type { Diagnostic } from '../merge/mergedSession.js';
import type { TaskMode, TaskResult } from '../merge/mergeTask.js';
import { shortId } from '../store/ids.js';
import type { Run } from '../store/run.js';
import type { CommandIO } from './commandIO.js';
import { AGENTS } from './commandSpec.js';
import { plural } from './formatTable.js';
import { ProgressBar } from './progressBar.js';
import { lookUpRun } from './runRef.js';
import type { SelectionArgs } from './selectionArgs.js';
import { escapeControls } from './terminalText.js';

/** Diagnostics printed on stderr unless told otherwise; the rest are counted. */
export const MAX_DIAGNOSTICS_PRINTED = 20;

export type SelectionOutcome = { readonly ok: true; readonly summary: RunSummary } | { readonly ok: false; readonly status: number };

export async function runSelectionCommand(
  command: 'merge' | 'stats' | 'rules' | 'report',
  args: SelectionArgs,
  io: CommandIO,
  mode: TaskMode,
  onResult: (r: TaskResult, index: number, total: number) => void | Promise<void>,
  opts: Omit<RunOptions, 'progress'> & { whereAll: string },
): Promise<SelectionOutcome> {
  let selection = args.selection;
  let run: Run | undefined;
  if (selection.runId !== null) {
    const ref = lookUpRun(args.db, selection.runId, command, io);
    if (!ref.ok) return ref;
    run = ref.run;
    selection = { ...selection, runId: run.id };
  }
  const progress = new ProgressBar(args.progress ? io.terminal : undefined);
  const summary = await runSelection({ ...args, selection }, io, mode, onResult, { ...opts, progress });
  reportDiagnostics(command, io, summary.diagnostics, args.all ? Number.POSITIVE_INFINITY : MAX_DIAGNOSTICS_PRINTED, opts.whereAll);
  const lost = lostDecisions(summary.diagnostics);
  if (lost > 0) {
    // Last, after every other line: a lost decision must not drown among warnings.
    io.stderr.write(
      `rec ${command}: incomplete: ${plural(lost, 'recorded decision')} could not be read from the sidecar (${opts.whereAll}; exit status ${INCOMPLETE_EXIT_STATUS})\n`,
    );
  }
  if (summary.tasks === 0 && summary.explicit && !summary.diagnostics.some((d) => d.severity === 'error')) {
    // A run whose agent left no session file (or a `rec -- COMMAND` run): nothing to read, and
    // no reader to say so.
    io.stderr.write(`rec ${command}: ${run === undefined ? 'nothing to read in the selection' : nothingToRead(run)}\n`);
  }
  return { ok: true, summary };
}

function nothingToRead(run: Run): string {
  const id = shortId(run.id);
  if (!AGENTS.includes(run.agent)) return `run ${id} ran a command (rec -- ${escapeControls(run.argv[0] ?? '')}), not an agent: it has no agent session to read`;
  return `run ${id} (${run.agent}): no session file of the agent is known for it, and the database holds no copy of one; nothing to read`;
}

/** One line per diagnostic, `file:line: severity: code: message`, with everything escaped. */
export function formatDiagnostic(command: string, d: Diagnostic): string {
  const where = d.file === null ? '' : d.line === null || d.line === 0 ? `${d.file}: ` : `${d.file}:${d.line}: `;
  return escapeControls(`rec ${command}: ${where}${d.severity}: ${d.code}: ${d.message}`) + '\n';
}

function reportDiagnostics(command: string, io: CommandIO, diagnostics: readonly Diagnostic[], max: number, whereAll: string): void {
  const shown = diagnostics.filter((d) => d.severity !== 'info');
  for (const d of shown.slice(0, max)) io.stderr.write(formatDiagnostic(command, d));
  const more = shown.length - max;
  if (more > 0) io.stderr.write(`rec ${command}: … and ${plural(more, 'more diagnostic')} (${whereAll})\n`);
}
