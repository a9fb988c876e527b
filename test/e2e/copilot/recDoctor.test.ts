// `rec doctor copilot --scenario` on the REAL pinned GitHub Copilot CLI: the doctor's own path for
// one scenario, a refusal by Esc. The doctor reads the version from the package around the binary:
// it gets the `copilot` loader of @github/copilot, as a user's install puts it on PATH. The whole
// conformance is recCopilot.test.ts's (the same key scripts, with more checks), so it runs once per
// suite; the doctor's recording of a whole run is unit- and integration-tested
// (test/support/doctorRun.ts says where).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, it } from 'vitest';
import { COPILOT_CONFORMANCE } from '../../../src/agents/copilot/bench/conformance.js';
import { AGENT_BIN, AGENT_VERSION } from '../../support/copilot/env.js';
import { expectScenarioPassed, runDoctorJson } from '../../support/doctorRun.js';
import { noteNetworkIsolation } from '../../support/networkIsolation.js';
import { assertBuilt } from '../../support/recBin.js';

const SCENARIO = COPILOT_CONFORMANCE.find((s) => s.script === 'bash-reject-esc')!;
/** A Copilot start (its JavaScript unpacked afresh), a turn and rec's reconcile, on two loaded cores. */
const DOCTOR_TIMEOUT_MS = 300_000;

let dir: string;
beforeAll(() => {
  assertBuilt();
  noteNetworkIsolation();
  if (!AGENT_BIN) throw new Error(`@github/copilot ${AGENT_VERSION} is not installed (npm ci)`);
  dir = mkdtempSync(join(tmpdir(), 'rec-doctor-e2e-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it(`rec doctor copilot --scenario ${SCENARIO.script} --json on the real GitHub Copilot CLI ${AGENT_VERSION}: it passes, and is neither recorded nor verifying`, async () => {
  const { result, dbPath } = await runDoctorJson({ agent: 'copilot', bin: AGENT_BIN!, dir, timeoutMs: DOCTOR_TIMEOUT_MS, scenario: SCENARIO.script });
  expectScenarioPassed({ result, dbPath, agent: 'copilot', version: AGENT_VERSION, scenario: SCENARIO });
}, DOCTOR_TIMEOUT_MS);
