// `rec doctor <agent> --json` as the doctor e2e tests run it, and the checks every agent's run must
// pass: each scenario passed with exactly its expected rows, the result is in the sidecar's
// doctor_runs, and the version counts as doctor-verified there.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { rowLabel, type ConformanceScenario } from '../../src/lab/conformance.js';
import { openSidecar } from '../../src/store/sidecarDb.js';
import { queryRows } from './sidecarRows.js';
import { REC_BIN } from './recBin.js';

export interface DoctorJson extends Record<string, unknown> {
  readonly wall_ms: number;
  readonly scenarios: readonly { name: string; expected: string[]; seen: string[]; pass: boolean }[];
}

/** Runs the doctor with a HOME and database in `dir`; a failed scenario (exit 1) still gives its JSON. */
export async function runDoctorJson(o: {
  readonly agent: string;
  readonly bin: string;
  readonly dir: string;
  readonly timeoutMs: number;
  /** The doctor's temp folder (where its isolated worlds go); the system's by default. */
  readonly tmpDir?: string;
}): Promise<{ result: DoctorJson; dbPath: string }> {
  const dbPath = join(o.dir, 'rec.db');
  const stdout = await promisify(execFile)(process.execPath, [REC_BIN, 'doctor', o.agent, '--agent-bin', o.bin, '--json', '--db', dbPath], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(o.dir, 'home'), ...(o.tmpDir !== undefined ? { TMPDIR: o.tmpDir } : {}) },
    timeout: o.timeoutMs,
  }).then(
    (r) => r.stdout,
    (err: { stdout?: string; message: string }) => err.stdout || Promise.reject(new Error(err.message)),
  );
  const result = JSON.parse(stdout) as DoctorJson;
  if (process.env.REC_E2E_DEBUG) console.log(`rec doctor ${o.agent}: ${String(result.wall_ms)} ms`);
  return { result, dbPath };
}

/** Every scenario passed, and the sidecar keeps the run and counts the version as verified. */
export function expectDoctorPassed(o: { readonly result: DoctorJson; readonly dbPath: string; readonly agent: string; readonly version: string; readonly conformance: readonly ConformanceScenario[] }): void {
  const { result, dbPath, agent, version } = o;
  expect(result.scenarios, failedCaptures(result)).toEqual(
    o.conformance.map((s) => ({ name: s.name, expected: s.expected.map(rowLabel), seen: s.expected.map(rowLabel), pass: true, problem: null, capture: null })),
  );
  expect(result).toMatchObject({ agent, version, passed: true, verified_by: 'doctor', recorded_in: dbPath });
  const rows = queryRows(dbPath, 'SELECT agent, agent_version, passed, verified_by, scenarios FROM doctor_runs');
  expect(rows).toEqual([{ agent, agent_version: version, passed: 1, verified_by: 'doctor', scenarios: JSON.stringify(result.scenarios) }]);
  const opened = openSidecar(dbPath, { mustExist: true });
  if (!opened.ok) throw new Error(opened.error);
  try {
    expect(opened.db.doctorVerifiedVersions(agent)).toEqual([version]);
  } finally {
    opened.db.close();
  }
}

/** The end of each failed scenario's capture (its last screen and rec's debug log), for the failure message. */
function failedCaptures(result: DoctorJson): string {
  const captures = result.scenarios.map((s) => (s as { capture?: string | null }).capture).filter((c): c is string => typeof c === 'string');
  return captures.map((file) => `${file}:\n${existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-80).join('\n') : '(gone)'}`).join('\n\n');
}

/** Runs the doctor and asserts it all passed and was kept; returns its wall time in ms. */
export async function expectDoctorPasses(c: {
  readonly agent: string;
  readonly bin: string;
  readonly version: string;
  readonly conformance: readonly ConformanceScenario[];
  /** A scratch folder: the database and an empty HOME go there. */
  readonly dir: string;
  readonly timeoutMs: number;
}): Promise<number> {
  const { result, dbPath } = await runDoctorJson(c);
  expectDoctorPassed({ result, dbPath, agent: c.agent, version: c.version, conformance: c.conformance });
  return result.wall_ms;
}
