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

/** One scenario's play under `rec <agent>`, the parts that differ by agent given as functions. */
export interface ScenarioPlay {
  /** The agent under rec in its pty. */
  readonly proc: Spawned;
  /** The agent's composer: the script starts once it shows. */
  readonly ready: RegExp;
  readonly startTimeoutMs: number;
  /** Plays the key script. */
  readonly play: () => Promise<void>;
  /** Quits the agent once the script ran, and waits for rec to exit. */
  readonly quit: () => Promise<void>;
  /** The run's database. */
  readonly dbPath: string;
  /** Stops every process rec and the agent started (by pid, the pty's first). */
  readonly stopProcesses: () => Promise<void>;
  /** Once the rows are read: removes the isolated world and closes the mock. */
  readonly cleanup: () => Promise<void>;
}

/**
 * Plays a scenario and reads what rec recorded; a wait that timed out or a step that threw is the
 * run's error, with the screen as it was then. Everything is stopped before the rows are read and
 * the world goes, on every path.
 */
export async function playScenario(p: ScenarioPlay): Promise<Pick<ScenarioRun, 'rows' | 'screen' | 'error'>> {
  let error: string | null = null;
  let screen = '';
  try {
    await waitForComposer(p.proc, p.ready, p.startTimeoutMs);
    await p.play();
    screen = p.proc.screen();
    await p.quit();
  } catch (err) {
    screen = p.proc.screen();
    error = firstLine(err);
  }
  try {
    await p.stopProcesses();
    p.proc.dispose();
    return { rows: readRecordedRows(p.dbPath), screen, error };
  } finally {
    await p.cleanup();
  }
}
