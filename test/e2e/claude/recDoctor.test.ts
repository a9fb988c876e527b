// `rec doctor claude --scenario` on the REAL pinned Claude Code: the doctor's own path for one
// scenario, a refusal by Esc. The doctor reads the version from the package around the binary, so
// it gets the wrapper package's own copy (bin/claude.exe), not the platform package's binary the
// other suites run. The whole conformance is recClaude.test.ts's (the same key scripts, with more
// checks), so it runs once per suite; the doctor's recording of a whole run is unit- and
// integration-tested (test/support/doctorRun.ts says where).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, it } from 'vitest';
import { CLAUDE_CONFORMANCE } from '../../../src/agents/claude/bench/conformance.js';
import { AGENT_VERSION, AGENT_BIN } from '../../support/claude/env.js';
import { agentBin } from '../../support/agentBin.js';
import { expectScenarioPassed, runDoctorJson } from '../../support/doctorRun.js';
import { noteNetworkIsolation } from '../../support/networkIsolation.js';
import { assertBuilt } from '../../support/recBin.js';

const SCENARIO = CLAUDE_CONFORMANCE.find((s) => s.script === 'bash-reject-esc')!;
/** A Claude Code start, a turn and rec's reconcile, on two loaded cores. */
const DOCTOR_TIMEOUT_MS = 300_000;

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** The binary a user's `npm install @anthropic-ai/claude-code` runs (REC_E2E_CLAUDE_BIN: another install's). */
const PACKAGE_BIN = agentBin('claude').override ?? join(REPO_ROOT, 'node_modules/@anthropic-ai/claude-code/bin/claude.exe');

let dir: string;
beforeAll(() => {
  assertBuilt();
  noteNetworkIsolation();
  if (!AGENT_BIN) throw new Error(`@anthropic-ai/claude-code ${AGENT_VERSION} is not installed (npm ci)`);
  dir = mkdtempSync(join(tmpdir(), 'rec-doctor-e2e-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it(`rec doctor claude --scenario ${SCENARIO.script} --json on the real Claude Code ${AGENT_VERSION}: it passes, and is neither recorded nor verifying`, async () => {
  const { result, dbPath } = await runDoctorJson({ agent: 'claude', bin: PACKAGE_BIN, dir, timeoutMs: DOCTOR_TIMEOUT_MS, scenario: SCENARIO.script });
  expectScenarioPassed({ result, dbPath, agent: 'claude', version: AGENT_VERSION, scenario: SCENARIO });
}, DOCTOR_TIMEOUT_MS);
