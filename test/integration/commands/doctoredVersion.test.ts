// A version `rec doctor` passed counts as verified from then on: the run row, its events and the
// after-exit warning all follow the doctor_runs table of the database the run writes to. An
// undoctored unknown version, and one whose latest doctor run failed, stay unverified. The fake
// Codex is installed as its npm package with a version rec does not ship as verified.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSidecar } from '../../../src/store/sidecarDb.js';
import type { DoctorScenarioResult } from '../../../src/store/doctorRuns.js';
import { createRecSandbox, REPO_ROOT, type RecSandbox } from '../../helpers/rec.js';
import { readRuns, waitForRows } from '../../helpers/sidecarRows.js';

/** A Codex release rec was never verified on: the fake draws 0.169.0's screens under this version. */
const VERSION = '0.999.0';
const WARNING = `codex ${VERSION} is not a version rec was verified on`;

let sandbox: RecSandbox;
let bin: string;
beforeEach(() => {
  sandbox = createRecSandbox();
  sandbox.env.CODEX_HOME = join(sandbox.dir, 'codex-home');
  const pkg = join(sandbox.dir, 'prefix', 'lib', 'node_modules', '@openai', 'codex');
  mkdirSync(join(pkg, 'bin'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@openai/codex', version: VERSION }));
  bin = join(pkg, 'bin', 'codex.js');
  writeFileSync(bin, `#!/bin/sh\nexec node ${JSON.stringify(join(REPO_ROOT, 'test', 'fakes', 'fake-codex.mjs'))} "$@"\n`);
  chmodSync(bin, 0o755);
});
afterEach(() => sandbox.dispose());

/** Codex idle under rec, quit at once; what rec printed. */
async function runIdle(): Promise<string> {
  const p = sandbox.spawnRec(['--agent-bin', bin, 'codex', '--scenario', 'idle'], { cols: 120, rows: 40 });
  await p.expectScreen('Ask Codex to do anything');
  await waitForRows(sandbox.dbPath, 'select id from runs where ended_at is null', (r) => r.length === 1);
  p.sendLine('/quit');
  expect((await p.expectExit()).exitCode).toBe(0);
  return p.output;
}

function recordDoctorRun(version: string, passed: boolean, endedAt: string): void {
  const opened = openSidecar(sandbox.dbPath);
  if (!opened.ok) throw new Error(opened.error);
  const scenario: DoctorScenarioResult = { name: 'approve (y)', expected: ['prompt'], seen: passed ? ['prompt'] : [], pass: passed, problem: passed ? null : 'x', capture: null };
  opened.db.recordDoctorRun({ agent: 'codex', agent_version: version, agent_bin: bin, started_at: endedAt, ended_at: endedAt, scenarios: [scenario], rec_version: null });
  opened.db.close();
}

describe('rec codex on a version rec was not shipped verified on', () => {
  it('undoctored: unverified, with the warning; doctored (passed): verified, without it', async () => {
    expect(await runIdle()).toContain(WARNING);
    recordDoctorRun('0.998.0', true, '2026-11-26T10:00:00.000Z'); // another version's pass counts for nothing here
    expect(await runIdle()).toContain(WARNING);
    recordDoctorRun(VERSION, true, '2026-11-26T11:00:00.000Z');
    expect(await runIdle()).not.toContain(WARNING);
    expect(readRuns(sandbox.dbPath).map((r) => r.agent_version_verified)).toEqual([false, false, true]);
  }, 60_000);

  it('the latest doctor run decides: a pass followed by a failure is unverified again', async () => {
    recordDoctorRun(VERSION, true, '2026-11-26T10:00:00.000Z');
    recordDoctorRun(VERSION, false, '2026-11-26T11:00:00.000Z');
    expect(await runIdle()).toContain(WARNING);
    expect(readRuns(sandbox.dbPath).map((r) => r.agent_version_verified)).toEqual([false]);
  }, 60_000);
});
