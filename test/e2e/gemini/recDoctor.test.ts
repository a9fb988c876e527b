// `rec doctor gemini --scenario` on the REAL pinned Gemini CLI: the doctor's own path for one
// scenario, the refusal by `3` (a deny-only session, whose chat file Gemini deletes at exit: the
// scenario that failed on fresh machines), on both of rec's ways of finding Gemini's chat file
// (agents/gemini/launch.ts): the scan every user but root takes (the doctor's temp folder
// world-writable, as /tmp is), and root's settings layer (a root-owned temp folder), whatever this
// machine's own temp folder is. The whole conformance is recGemini.test.ts's (the same key scripts,
// on both paths), so it runs once per suite; the doctor's recording of a whole run is unit- and
// integration-tested (test/support/doctorRun.ts says where).
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { GEMINI_CONFORMANCE } from '../../../src/agents/gemini/bench/conformance.js';
import { AGENT_BIN, AGENT_VERSION } from '../../support/gemini/env.js';
import { expectScenarioPassed, runDoctorJson } from '../../support/doctorRun.js';
import { noteNetworkIsolation } from '../../support/networkIsolation.js';
import { assertBuilt } from '../../support/recBin.js';
import { makeRootOwnedDir, removeRootOwnedDirs, ROOT_OWNED_BASE } from '../../support/rootOwnedDir.js';

const SCENARIO = GEMINI_CONFORMANCE.find((s) => s.script === 'shell-reject-digit')!;
/** A Gemini start (10-20 s), a turn and its quit, on two loaded cores. */
const DOCTOR_TIMEOUT_MS = 300_000;

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
  it(`rec doctor gemini --scenario ${SCENARIO.script} --json on the real Gemini CLI ${AGENT_VERSION}: it passes first time, and is neither recorded nor verifying`, async () => {
    const home = mkdtempSync(join(dir, 'run-'));
    const { result, dbPath } = await runDoctorJson({ agent: 'gemini', bin: AGENT_BIN, dir: home, timeoutMs: DOCTOR_TIMEOUT_MS, tmpDir: tmpDir(), scenario: SCENARIO.script });
    expectScenarioPassed({ result, dbPath, agent: 'gemini', version: AGENT_VERSION, scenario: SCENARIO });
  }, DOCTOR_TIMEOUT_MS);
});
