// The doctor_runs table: what `rec doctor` found when it ran an installed agent against rec's mock
// model. Its readers outside `rec doctor` are the live recorder and merge, which ask which versions
// passed on this machine, so that a doctored version counts verified like a shipped one
// (agents/verifiedVersions.ts versionVerifiedBy).
import { z } from 'zod';
import type { AgentName } from '../core/events.js';
import { newId } from './ids.js';
import type { SqliteDatabase } from './sqliteDriver.js';

/** One scenario as the doctor checked it: the rows it must give, the rows it gave, and where its screen was saved. */
export const DoctorScenarioResult = z.object({
  name: z.string(),
  expected: z.array(z.string()),
  seen: z.array(z.string()),
  /** It passed the first time it ran (what counts for a verdict). */
  pass: z.boolean(),
  /** It failed, then passed when run once more: flaky, which is not a pass (absent in runs before reruns). */
  flaky: z.boolean().optional(),
  /** What went wrong, in one line, when it failed (the first time, for a flaky one). */
  problem: z.string().nullable(),
  /** The screen as last seen, saved for a report, when it failed. */
  capture: z.string().nullable(),
});
export type DoctorScenarioResult = z.infer<typeof DoctorScenarioResult>;

export interface NewDoctorRun {
  readonly agent: AgentName;
  readonly agent_version: string;
  readonly agent_bin: string;
  readonly started_at: string;
  readonly ended_at: string;
  readonly scenarios: readonly DoctorScenarioResult[];
  readonly rec_version: string | null;
}

/** Writes one doctor run; passed is 1 only when it checked scenarios and every one passed. Returns its id. */
export function insertDoctorRun(db: SqliteDatabase, run: NewDoctorRun): string {
  const id = newId();
  const passed = run.scenarios.length > 0 && run.scenarios.every((s) => s.pass);
  db.prepare(
    `INSERT INTO doctor_runs (id, agent, agent_version, agent_bin, started_at, ended_at, passed, scenarios, verified_by, rec_version)
     VALUES (@id, @agent, @agent_version, @agent_bin, @started_at, @ended_at, @passed, @scenarios, 'doctor', @rec_version)`,
  ).run({ ...run, id, passed: passed ? 1 : 0, scenarios: JSON.stringify(run.scenarios) });
  return id;
}

/**
 * The versions of `agent` whose latest doctor run passed every scenario. The latest run decides: a
 * version that passed once and failed later (a changed machine, a damaged install) is not verified.
 */
export function doctorVerifiedVersions(db: SqliteDatabase, agent: AgentName): string[] {
  const rows = db
    .prepare(
      `SELECT agent_version, passed FROM doctor_runs AS d WHERE agent = ? AND ended_at = (
         SELECT max(ended_at) FROM doctor_runs WHERE agent = d.agent AND agent_version = d.agent_version)`,
    )
    .all(agent);
  const Row = z.object({ agent_version: z.string(), passed: z.number() });
  return rows.flatMap((r) => {
    const row = Row.safeParse(r);
    return row.success && row.data.passed === 1 ? [row.data.agent_version] : [];
  });
}
