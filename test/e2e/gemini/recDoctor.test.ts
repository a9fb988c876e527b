// `rec doctor gemini` on the REAL pinned Gemini CLI: every core scenario runs under rec against the
// built-in mock Gemini API and passes; --json says so scenario by scenario; the result is in the
// sidecar's doctor_runs (verified_by 'doctor') and the version counts as doctor-verified there.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, it } from 'vitest';
import { GEMINI_CONFORMANCE } from '../../../src/lab/gemini/conformance.js';
import { GEMINI_BIN, GEMINI_VERSION } from '../../kits/gemini/env.js';
import { expectDoctorPassed, runDoctorJson } from '../../kits/shared/doctorRun.js';
import { noteNetworkIsolation } from '../../kits/shared/networkIsolation.js';
import { assertBuilt } from '../../kits/shared/recBin.js';

/** Ten scenarios, each a Gemini start (10-20 s), a turn or two and its quit, on two loaded cores. */
const DOCTOR_TIMEOUT_MS = 1_200_000;

let dir: string;
beforeAll(() => {
  assertBuilt();
  noteNetworkIsolation();
  dir = mkdtempSync(join(tmpdir(), 'rec-doctor-e2e-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it(`rec doctor gemini --json on the real Gemini CLI ${GEMINI_VERSION}: every scenario passes and is recorded`, async () => {
  const { result, dbPath } = await runDoctorJson({ agent: 'gemini', bin: GEMINI_BIN, dir, timeoutMs: DOCTOR_TIMEOUT_MS });
  expectDoctorPassed({ result, dbPath, agent: 'gemini', version: GEMINI_VERSION, conformance: GEMINI_CONFORMANCE });
}, DOCTOR_TIMEOUT_MS);
