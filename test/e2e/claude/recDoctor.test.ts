// `rec doctor claude` on the REAL pinned Claude Code: every core scenario runs under rec against
// the built-in mock model and passes; --json says so scenario by scenario; the result is in the
// sidecar's doctor_runs (verified_by 'doctor') and the version counts as doctor-verified there.
// The doctor reads the version from the package around the binary, so it gets the wrapper
// package's own copy (bin/claude.exe), not the platform package's binary the other suites run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, it } from 'vitest';
import { CLAUDE_CONFORMANCE } from '../../../src/agents/claude/bench/conformance.js';
import { CLAUDE_VERSION, claudeBin } from '../../support/claude/env.js';
import { agentBin } from '../../support/agentBin.js';
import { expectDoctorPasses } from '../../support/doctorRun.js';
import { noteNetworkIsolation } from '../../support/networkIsolation.js';
import { assertBuilt } from '../../support/recBin.js';

/** Seven scenarios, each a Claude Code start, a turn or two and rec's reconcile, on two loaded cores. */
const DOCTOR_TIMEOUT_MS = 600_000;

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** The binary a user's `npm install @anthropic-ai/claude-code` runs (REC_E2E_CLAUDE_BIN: another install's). */
const PACKAGE_BIN = agentBin('claude').override ?? join(REPO_ROOT, 'node_modules/@anthropic-ai/claude-code/bin/claude.exe');

let dir: string;
beforeAll(() => {
  assertBuilt();
  noteNetworkIsolation();
  if (!claudeBin()) throw new Error(`@anthropic-ai/claude-code ${CLAUDE_VERSION} is not installed (npm ci)`);
  dir = mkdtempSync(join(tmpdir(), 'rec-doctor-e2e-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it(`rec doctor claude --json on the real Claude Code ${CLAUDE_VERSION}: every scenario passes and is recorded`, async () => {
  const wallMs = await expectDoctorPasses({ agent: 'claude', bin: PACKAGE_BIN, version: CLAUDE_VERSION, conformance: CLAUDE_CONFORMANCE, dir, timeoutMs: DOCTOR_TIMEOUT_MS });
  if (process.env.REC_E2E_DEBUG) console.log(`rec doctor claude: ${wallMs} ms`);
}, DOCTOR_TIMEOUT_MS);
