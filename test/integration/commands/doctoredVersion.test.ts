// A version `rec doctor` passed counts as verified from then on: the run row, its events and the
// after-exit warning all follow the doctor_runs table of the database the run writes to, and so does
// `rec merge`'s unknown_version diagnostic over the same database. An undoctored unknown version,
// and one whose latest doctor run failed, stay unverified. The fake Codex is installed as its npm
// package with a version rec does not ship as verified.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mergeCommand } from '../../../src/commands/merge.js';
import { MergedSession } from '../../../src/merge/mergedSession.js';
import { openSidecar } from '../../../src/store/sidecarDb.js';
import type { DoctorScenarioResult } from '../../../src/store/doctorRuns.js';
import { createRecSandbox, REPO_ROOT, type RecSandbox } from '../../support/rec.js';
import { runCommand } from '../../support/runCommand.js';
import { readRuns, waitForRows } from '../../support/sidecarRows.js';
import { logFile } from '../../support/fixturePaths.js';

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

describe('rec merge of a session of that version, over the same database', () => {
  /** A Codex rollout that names VERSION; merged with the sandbox's database. */
  async function merge(): Promise<{ session: MergedSession; stderr: string }> {
    const rollout = join(sandbox.dir, 'rollout-2026-11-26T10-00-00-doctored.jsonl');
    writeFileSync(rollout, readFileSync(logFile('codex', 'shell-approve.rollout.jsonl'), 'utf8').replaceAll('"cli_version":"0.169.0"', `"cli_version":"${VERSION}"`));
    const r = await runCommand(mergeCommand, [rollout, '--agent', 'codex', '--db', sandbox.dbPath]);
    expect(r.code).toBe(0);
    return { session: MergedSession.parse(JSON.parse(r.stdout)), stderr: r.stderr };
  }
  const versionNotes = (m: MergedSession) => m.diagnostics.filter((d) => d.code === 'unknown_version').map((d) => [d.severity, d.message.split(' (')[0]]);

  it('undoctored: the unknown_version warning; doctored (passed): verified_by doctor, an info kept in the JSON only', async () => {
    recordDoctorRun('0.998.0', true, '2026-11-26T10:00:00.000Z'); // another version's pass counts for nothing here
    const before = await merge();
    expect(versionNotes(before.session)).toEqual([['warning', WARNING]]);
    expect(before.stderr).toContain('unknown_version');
    recordDoctorRun(VERSION, true, '2026-11-26T11:00:00.000Z');
    const after = await merge();
    expect(versionNotes(after.session)).toEqual([['info', `codex ${VERSION} is verified by rec doctor in this database`]]);
    expect(after.session.diagnostics.find((d) => d.code === 'unknown_version')?.message).toContain('verified_by doctor');
    expect(after.stderr).not.toContain('unknown_version');
  }, 60_000);

  it('the latest doctor run decides here too: a pass followed by a failure warns again', async () => {
    recordDoctorRun(VERSION, true, '2026-11-26T10:00:00.000Z');
    recordDoctorRun(VERSION, false, '2026-11-26T11:00:00.000Z');
    expect(versionNotes((await merge()).session)).toEqual([['warning', WARNING]]);
  }, 60_000);
});
