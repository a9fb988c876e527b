// `rec doctor codex` on the REAL pinned Codex: every core scenario runs under rec against the
// built-in mock model and passes; --json says so scenario by scenario; the result is in the
// sidecar's doctor_runs (verified_by 'doctor') and the version counts as doctor-verified there.
// (That a doctored version then records as verified is test/integration/commands/doctoredVersion.test.ts.)
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CODEX_CONFORMANCE } from '../../../src/agents/codex/bench/conformance.js';
import { rowLabel } from '../../../src/lab/conformance.js';
import { openSidecar } from '../../../src/store/sidecarDb.js';
import { CODEX_BIN, CODEX_VERSION } from '../../support/codex/env.js';
import { noteNetworkIsolation } from '../../support/networkIsolation.js';
import { assertBuilt, REC_BIN } from '../../support/recBin.js';
import { queryRows } from '../../support/sidecarRows.js';

/** Nine scenarios, each a Codex start, a turn or two and rec's reconcile, on two loaded cores. */
const DOCTOR_TIMEOUT_MS = 900_000;

let dir: string;
beforeAll(() => {
  assertBuilt();
  noteNetworkIsolation();
  dir = mkdtempSync(join(tmpdir(), 'rec-doctor-e2e-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it(`rec doctor codex --json on the real Codex ${CODEX_VERSION}: every scenario passes and is recorded`, async () => {
  const dbPath = join(dir, 'rec.db');
  // Its own TMPDIR: the scenarios' homes and the cache of Codex's daemon install must all be gone after.
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  const { stdout } = await promisify(execFile)(process.execPath, [REC_BIN, 'doctor', 'codex', '--agent-bin', CODEX_BIN, '--json', '--db', dbPath], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(dir, 'home'), TMPDIR: tmp },
    timeout: DOCTOR_TIMEOUT_MS,
  });
  expect(readdirSync(tmp)).toEqual([]);
  const result = JSON.parse(stdout) as Record<string, unknown> & { scenarios: { name: string; expected: string[]; seen: string[]; pass: boolean }[] };
  expect(result).toMatchObject({ agent: 'codex', version: CODEX_VERSION, passed: true, verified_by: 'doctor', recorded_in: dbPath });
  expect(result.scenarios).toEqual(
    CODEX_CONFORMANCE.map((s) => ({ name: s.name, expected: s.expected.map(rowLabel), seen: s.expected.map(rowLabel), pass: true, problem: null, capture: null })),
  );
  if (process.env.REC_E2E_DEBUG) console.log(`rec doctor codex: ${String(result.wall_ms)} ms`);

  const rows = queryRows(dbPath, 'SELECT agent, agent_version, passed, verified_by, scenarios FROM doctor_runs');
  expect(rows).toEqual([{ agent: 'codex', agent_version: CODEX_VERSION, passed: 1, verified_by: 'doctor', scenarios: JSON.stringify(result.scenarios) }]);
  const opened = openSidecar(dbPath, { mustExist: true });
  if (!opened.ok) throw new Error(opened.error);
  try {
    expect(opened.db.doctorVerifiedVersions('codex')).toEqual([CODEX_VERSION]);
  } finally {
    opened.db.close();
  }
}, DOCTOR_TIMEOUT_MS);
