// `rec doctor gemini` on the REAL pinned Gemini CLI: every core scenario runs under rec against the
// built-in mock Gemini API and passes; --json says so scenario by scenario; the result is in the
// sidecar's doctor_runs (verified_by 'doctor') and the version counts as doctor-verified there. On
// both of rec's ways of finding Gemini's chat file (agents/gemini/launch.ts): the scan every user but
// root takes (the doctor's temp folder world-writable, as /tmp is), and root's settings layer (a
// root-owned temp folder), whatever this machine's own temp folder is.
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { GEMINI_CONFORMANCE } from '../../../src/agents/gemini/bench/conformance.js';
import { GEMINI_BIN, GEMINI_VERSION } from '../../support/gemini/env.js';
import { expectDoctorPassed, runDoctorJson } from '../../support/doctorRun.js';
import { noteNetworkIsolation } from '../../support/networkIsolation.js';
import { assertBuilt } from '../../support/recBin.js';
import { makeRootOwnedDir, removeRootOwnedDirs, ROOT_OWNED_BASE } from '../../support/rootOwnedDir.js';

/** Ten scenarios, each a Gemini start (10-20 s), a turn or two and its quit, on two loaded cores. */
const DOCTOR_TIMEOUT_MS = 1_200_000;

let dir: string;
beforeAll(() => {
  assertBuilt();
  noteNetworkIsolation();
  dir = mkdtempSync(join(tmpdir(), 'rec-doctor-e2e-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  removeRootOwnedDirs();
});

/** The doctor's temp folder for each path: world-writable like /tmp (scan), or root-owned (the layer). */
const PATHS: ReadonlyArray<readonly [string, () => string]> = [
  ['scan', () => {
    const tmp = join(dir, 'tmp');
    mkdirSync(tmp);
    chmodSync(tmp, 0o1777);
    return tmp;
  }],
  ...(ROOT_OWNED_BASE !== undefined ? [['settings layer', makeRootOwnedDir] as const] : []),
];

describe.each(PATHS)('rec finds the chat file by its %s', (_path, tmpDir) => {
  it(`rec doctor gemini --json on the real Gemini CLI ${GEMINI_VERSION}: every scenario passes first time and is recorded`, async () => {
    const home = mkdtempSync(join(dir, 'run-'));
    const { result, dbPath } = await runDoctorJson({ agent: 'gemini', bin: GEMINI_BIN, dir: home, timeoutMs: DOCTOR_TIMEOUT_MS, tmpDir: tmpDir() });
    expectDoctorPassed({ result, dbPath, agent: 'gemini', version: GEMINI_VERSION, conformance: GEMINI_CONFORMANCE });
  }, DOCTOR_TIMEOUT_MS);
});
