// What one conformance scenario run leaves for the doctor to judge, whatever the agent.
import { existsSync } from 'node:fs';
import type { RecEvent } from '../core/events.js';
import { openSidecar } from '../store/sidecarDb.js';
import type { Spawned } from './spawn.js';

export interface ScenarioRun {
  /** The sidecar rows `rec <agent>` wrote in this run, in order. */
  readonly rows: RecEvent[];
  /** The call ids the mock model asked for. */
  readonly issuedCallIds: string[];
  /** How many model turns reached the mock: none means the agent did not use it (not isolated). */
  readonly modelTurns: number;
  /** The rendered screen as last seen. */
  readonly screen: string;
  /** A wait that timed out or a step that threw, in one line; null when the script ran through. */
  readonly error: string | null;
}

/** The run's rows; none when rec never created its database (the agent did not start). */
export function readRecordedRows(dbPath: string): RecEvent[] {
  if (!existsSync(dbPath)) return [];
  const opened = openSidecar(dbPath, { mustExist: true });
  if (!opened.ok) return [];
  try {
    return opened.db.listEvents();
  } finally {
    opened.db.close();
  }
}

/**
 * The agent's composer, or the reason it never came: an agent that exits first (a login it insists
 * on, a crash) is reported at once rather than after the whole start timeout.
 */
export async function waitForComposer(proc: Spawned, ready: RegExp, timeoutMs: number): Promise<void> {
  const shown = proc.expectScreen(ready, timeoutMs).then(
    () => null,
    (err: unknown) => firstLine(err),
  );
  // A timeout of this wait is the other one's to report: it never settles then.
  const exited = proc.expectExit(timeoutMs).then(
    (s) => `the agent exited (status ${s.exitCode}) before its composer showed`,
    () => new Promise<never>(() => undefined),
  );
  const problem = await Promise.race([shown, exited]);
  if (problem !== null) throw new Error(problem);
}

/** An error's first line, for a one-line problem. */
export function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? 'failed';
}
