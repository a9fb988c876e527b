// `rec doctor <agent> --json` on a real agent CLI, and what every agent's doctor e2e asserts of it:
// every core scenario passes, scenario by scenario as the conformance table lists it; the result is
// in the sidecar's doctor_runs (verified_by 'doctor'); and the version counts as doctor-verified there.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { rowLabel, type ConformanceScenario } from '../../../src/lab/conformance.js';
import { openSidecar } from '../../../src/store/sidecarDb.js';
import { queryRows } from '../../helpers/sidecarRows.js';
import { REC_BIN } from './recBin.js';

export interface DoctorRunCase {
  readonly agent: string;
  readonly bin: string;
  readonly version: string;
  readonly conformance: readonly ConformanceScenario[];
  /** A scratch folder: the database and an empty HOME go there. */
  readonly dir: string;
  readonly timeoutMs: number;
}

/** Runs the doctor and asserts it all passed and was kept; returns its wall time in ms. */
export async function expectDoctorPasses(c: DoctorRunCase): Promise<number> {
  const dbPath = join(c.dir, 'rec.db');
  const { stdout } = await promisify(execFile)(process.execPath, [REC_BIN, 'doctor', c.agent, '--agent-bin', c.bin, '--json', '--db', dbPath], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(c.dir, 'home') },
    timeout: c.timeoutMs,
  });
  const result = JSON.parse(stdout) as Record<string, unknown> & { wall_ms: number; scenarios: unknown[] };
  expect(result).toMatchObject({ agent: c.agent, version: c.version, passed: true, verified_by: 'doctor', recorded_in: dbPath });
  expect(result.scenarios).toEqual(
    c.conformance.map((s) => ({ name: s.name, expected: s.expected.map(rowLabel), seen: s.expected.map(rowLabel), pass: true, problem: null, capture: null })),
  );
  const rows = queryRows(dbPath, 'SELECT agent, agent_version, passed, verified_by, scenarios FROM doctor_runs');
  expect(rows).toEqual([{ agent: c.agent, agent_version: c.version, passed: 1, verified_by: 'doctor', scenarios: JSON.stringify(result.scenarios) }]);
  const opened = openSidecar(dbPath, { mustExist: true });
  if (!opened.ok) throw new Error(opened.error);
  try {
    expect(opened.db.doctorVerifiedVersions(c.agent)).toEqual([c.version]);
  } finally {
    opened.db.close();
  }
  return result.wall_ms;
}
