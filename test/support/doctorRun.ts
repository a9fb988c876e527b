// `rec doctor <agent> --scenario NAME --json` as the doctor e2e tests run it, and the checks every
// agent's run must pass: the one scenario passed with exactly its expected rows, and, being one
// chosen scenario, it was neither recorded nor counted as verifying the version. The whole
// conformance runs once per suite, in each agent's own e2e files; the doctor's recording of a whole
// run is test/unit/commands/doctor.test.ts and test/integration/commands/doctoredVersion.test.ts.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { rowLabel, type ConformanceScenario } from '../../src/lab/conformance.js';
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
  /** The one scenario to run (--scenario): its key script. */
  readonly scenario: string;
}): Promise<{ result: DoctorJson; dbPath: string }> {
  const dbPath = join(o.dir, 'rec.db');
  const stdout = await promisify(execFile)(process.execPath, [REC_BIN, 'doctor', o.agent, '--agent-bin', o.bin, '--scenario', o.scenario, '--json', '--db', dbPath], {
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

/** The one scenario passed first time with exactly its rows, and nothing was recorded or verified by it. */
export function expectScenarioPassed(o: { readonly result: DoctorJson; readonly dbPath: string; readonly agent: string; readonly version: string; readonly scenario: ConformanceScenario }): void {
  const { result, dbPath, agent, version, scenario } = o;
  const labels = scenario.expected.map(rowLabel);
  expect(result.scenarios, failedCaptures(result)).toEqual([{ name: scenario.name, expected: labels, seen: labels, pass: true, problem: null, capture: null }]);
  expect(result).toMatchObject({ agent, version, passed: true, whole: false, verified_by: null, recorded_in: null, record_error: null });
  // A run of one scenario writes nothing: the database was never made, so no doctor_runs row verifies the version.
  expect(existsSync(dbPath)).toBe(false);
}

/** The end of each failed scenario's capture (its last screen and rec's debug log), for the failure message. */
function failedCaptures(result: DoctorJson): string {
  const captures = result.scenarios.map((s) => (s as { capture?: string | null }).capture).filter((c): c is string => typeof c === 'string');
  return captures.map((file) => `${file}:\n${existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-80).join('\n') : '(gone)'}`).join('\n\n');
}
