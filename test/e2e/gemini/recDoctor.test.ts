// `rec doctor gemini` on the REAL pinned Gemini CLI: every core scenario runs under rec against the
// built-in mock Gemini API and passes; --json says so scenario by scenario; the result is in the
// sidecar's doctor_runs (verified_by 'doctor') and the version counts as doctor-verified there.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rowLabel } from '../../../src/lab/conformance.js';
import { GEMINI_CONFORMANCE } from '../../../src/lab/gemini/conformance.js';
import { openSidecar } from '../../../src/store/sidecarDb.js';
import { GEMINI_BIN, GEMINI_VERSION } from '../../kits/gemini/env.js';
import { noteNetworkIsolation } from '../../kits/shared/networkIsolation.js';
import { assertBuilt, REC_BIN } from '../../kits/shared/recBin.js';
import { queryRows } from '../../helpers/sidecarRows.js';

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
  const dbPath = join(dir, 'rec.db');
  const { stdout } = await promisify(execFile)(process.execPath, [REC_BIN, 'doctor', 'gemini', '--agent-bin', GEMINI_BIN, '--json', '--db', dbPath], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(dir, 'home') },
    timeout: DOCTOR_TIMEOUT_MS,
  });
  const result = JSON.parse(stdout) as Record<string, unknown> & { scenarios: { name: string; expected: string[]; seen: string[]; pass: boolean }[] };
  expect(result.scenarios).toEqual(
    GEMINI_CONFORMANCE.map((s) => ({ name: s.name, expected: s.expected.map(rowLabel), seen: s.expected.map(rowLabel), pass: true, problem: null, capture: null })),
  );
  expect(result).toMatchObject({ agent: 'gemini', version: GEMINI_VERSION, passed: true, verified_by: 'doctor', recorded_in: dbPath });
  if (process.env.REC_E2E_DEBUG) console.log(`rec doctor gemini: ${String(result.wall_ms)} ms`);

  const rows = queryRows(dbPath, 'SELECT agent, agent_version, passed, verified_by, scenarios FROM doctor_runs');
  expect(rows).toEqual([{ agent: 'gemini', agent_version: GEMINI_VERSION, passed: 1, verified_by: 'doctor', scenarios: JSON.stringify(result.scenarios) }]);
  const opened = openSidecar(dbPath, { mustExist: true });
  if (!opened.ok) throw new Error(opened.error);
  try {
    expect(opened.db.doctorVerifiedVersions('gemini')).toEqual([GEMINI_VERSION]);
  } finally {
    opened.db.close();
  }
}, DOCTOR_TIMEOUT_MS);
