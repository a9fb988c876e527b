// `rec doctor codex --scenario` on the REAL pinned Codex: the doctor's own path (the agent it would
// start found by --agent-bin, its version read from the package, the isolated world in a fresh HOME
// and TMPDIR, rec and the mock model, the rows checked) for one scenario, a refusal by Esc. The
// whole conformance is recCodex.test.ts's (the same key scripts, with more checks), so it runs once
// per suite; the doctor's recording of a whole run is unit- and integration-tested
// (test/support/doctorRun.ts says where).
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CODEX_CONFORMANCE } from '../../../src/agents/codex/bench/conformance.js';
import { AGENT_BIN, AGENT_VERSION } from '../../support/codex/env.js';
import { expectScenarioPassed, runDoctorJson } from '../../support/doctorRun.js';
import { noteNetworkIsolation } from '../../support/networkIsolation.js';
import { assertBuilt } from '../../support/recBin.js';

const SCENARIO = CODEX_CONFORMANCE.find((s) => s.script === 'shell-reject-esc')!;
/** A Codex start in a brand-new CODEX_HOME, a turn and rec's reconcile, on two loaded cores. */
const DOCTOR_TIMEOUT_MS = 300_000;

let dir: string;
beforeAll(() => {
  assertBuilt();
  noteNetworkIsolation();
  dir = mkdtempSync(join(tmpdir(), 'rec-doctor-e2e-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it(`rec doctor codex --scenario ${SCENARIO.script} --json on the real Codex ${AGENT_VERSION}: it passes, and is neither recorded nor verifying`, async () => {
  // Its own TMPDIR: the scenario's home and the cache of Codex's daemon install must be gone after.
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  const { result, dbPath } = await runDoctorJson({ agent: 'codex', bin: AGENT_BIN, dir, timeoutMs: DOCTOR_TIMEOUT_MS, tmpDir: tmp, scenario: SCENARIO.script });
  expect(readdirSync(tmp)).toEqual([]);
  expectScenarioPassed({ result, dbPath, agent: 'codex', version: AGENT_VERSION, scenario: SCENARIO });
}, DOCTOR_TIMEOUT_MS);
