// What `rec merge` and `rec stats` share: open the sidecar, select the sessions, run the tasks,
// and collect the diagnostics. Showing progress and diagnostics to a person is the commands' part.
import { existsSync } from 'node:fs';
import { tuneV8ForBatch } from './batchV8Tuning.js';
import type { Diagnostic } from './mergedSession.js';
import { INCOMPLETE_EXIT_STATUS } from '../core/diagnostic.js';
import { runTasks } from './mergePool.js';
import type { TaskMode, TaskResult } from './mergeTask.js';
import { type Selection, selectSessions } from './selectSessions.js';
import { resolveDbPath } from '../store/dbPath.js';
import { SidecarReader } from '../store/sidecarReader.js';

/** What to read and how: the sessions, the sidecar (`--db`), and the reader threads (0: automatic). */
export interface RunInputs {
  readonly selection: Selection;
  readonly db: string | undefined;
  readonly jobs: number;
}

/** Told how the reading goes, for a progress bar. */
export interface ProgressSink {
  start(totalBytes: number, files: number): void;
  advance(bytes: number): void;
  finish(): void;
}

export interface RunSummary {
  tasks: number;
  sessions: number;
  diagnostics: Diagnostic[];
  /** The user named inputs (files or a run), as opposed to discovery. */
  explicit: boolean;
}

export interface RunOptions {
  /** Aborted when the output is gone: no more files are read. */
  signal?: AbortSignal;
  /** See PoolOptions.reuseOutput: `onResult` is done with each output when it returns. */
  reuseOutput?: boolean;
  progress?: ProgressSink;
}

export async function runSelection(
  args: RunInputs,
  io: { readonly env: NodeJS.ProcessEnv; readonly cwd: string },
  mode: TaskMode,
  onResult: (r: TaskResult, index: number, total: number) => void | Promise<void>,
  opts: RunOptions = {},
): Promise<RunSummary> {
  const { signal, reuseOutput = false, progress } = opts;
  tuneV8ForBatch(); // before any reader code is compiled, and before workers start
  // The same database `rec <agent>` writes: one resolver for both (store/dbPath.ts).
  const dbPath = resolveDbPath({ flag: args.db, env: io.env, cwd: io.cwd });
  const opened = SidecarReader.open(dbPath);
  const sidecar = opened.reader;
  const diagnostics: Diagnostic[] = opened.diagnostic ? [opened.diagnostic] : [];
  if (args.db && !existsSync(args.db)) {
    diagnostics.push({ severity: 'warning', code: 'sidecar_unavailable', message: `no sidecar at ${args.db}; merging from the agents' files alone`, file: args.db, line: null });
  }
  try {
    // Each thread reads the sidecar for itself: a bad row two of them met is reported once.
    const told = new Set<string>();
    const tell = (d: Diagnostic): void => {
      const key = `${d.severity} ${d.code} ${d.file ?? ''}:${d.line ?? ''} ${d.message}`;
      if (told.has(key)) return;
      told.add(key);
      diagnostics.push(d);
    };
    const selected = await selectSessions(args.selection, io.env, io.cwd, sidecar);
    for (const d of selected.diagnostics) tell(d);
    if (sidecar) for (const d of sidecar.takeDiagnostics()) tell(d);
    const totalBytes = selected.sizes.reduce((a, b) => a + b, 0);
    progress?.start(totalBytes, selected.tasks.length);
    let sessions = 0;
    await runTasks(selected.tasks, {
      mode,
      jobs: args.jobs,
      dbPath: sidecar ? dbPath : null,
      sidecar,
      totalBytes,
      sizes: selected.sizes,
      reuseOutput,
      ...(signal ? { signal } : {}),
      onResult: async (r, i) => {
        progress?.advance(r.bytes || selected.sizes[i] || 0);
        for (const d of r.diagnostics) tell(d);
        if (r.output !== null || r.stats !== null || r.decisions !== null) sessions++;
        await onResult(r, i, selected.tasks.length);
      },
    });
    progress?.finish();
    if (sidecar) for (const d of sidecar.takeDiagnostics()) tell(d);
    return { tasks: selected.tasks.length, sessions, diagnostics, explicit: selected.explicit };
  } finally {
    sidecar?.close();
  }
}

export { INCOMPLETE_EXIT_STATUS } from '../core/diagnostic.js';

/** How many of the recorded decisions could not be read (each one is a diagnostic). */
export function lostDecisions(diagnostics: readonly Diagnostic[]): number {
  let n = 0;
  for (const d of diagnostics) if (d.code === 'decision_unreadable') n++;
  return n;
}

/**
 * Exit status: 1 when inputs were there and nothing could be read; 3 when sessions were read but
 * decisions rec recorded could not be (the result is incomplete); else 0.
 */
export function exitStatus(summary: RunSummary): number {
  if (summary.sessions > 0) return lostDecisions(summary.diagnostics) > 0 ? INCOMPLETE_EXIT_STATUS : 0;
  if (summary.tasks === 0 && !summary.explicit && summary.diagnostics.every((d) => d.severity !== 'error')) return 0;
  return 1;
}
