// What one conformance scenario run leaves for the doctor to judge, whatever the agent.
import { existsSync } from 'node:fs';
import type { RecEvent } from '../core/events.js';
import { openSidecar } from '../store/sidecarDb.js';

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
