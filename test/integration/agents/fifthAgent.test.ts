// The claim that adding an agent is its folder under src/agents/ and one registry row, proven: a
// scratch copy of rec gets a fifth agent, Pilot (test/fixtures/fifth-agent/: the folder and a fake
// CLI that asks one approval prompt and writes a JSONL session), and nothing else: the rest of src/
// is copied as it stands. The copy is built with tsc, and a user's whole path runs on it: `rec pilot`
// in a real pty with the prompt answered, then `rec merge` and `rec stats`; and, from Pilot's bench
// (pilot/bench/, loaded by its row), `rec doctor pilot` and `rec demo pilot`.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type Spawned } from '../../../src/lab/spawn.js';
import { AGENT_NAMES } from '../../../src/agents/registry.js';
import { REPO_ROOT } from '../../support/rec.js';
import { readEventRows, readRuns, waitForRows } from '../../support/sidecarRows.js';

const FIFTH = join(REPO_ROOT, 'test', 'fixtures', 'fifth-agent');
/** tsc over all of src/ on two shared cores. */
const BUILD_TIMEOUT_MS = 180_000;

const scratch = mkdtempSync(join(tmpdir(), 'rec-fifth-agent-'));
const recBin = join(scratch, 'rec', 'bin', 'rec.js');
const dbPath = join(scratch, 'data', 'rec.db');
const env: NodeJS.ProcessEnv = {
  ...process.env,
  HOME: join(scratch, 'home'),
  XDG_DATA_HOME: join(scratch, 'xdg-data'),
  XDG_STATE_HOME: join(scratch, 'xdg-state'),
  PILOT_HOME: join(scratch, 'home', '.pilot'),
  REC_DB: dbPath,
  PATH: `${join(scratch, 'fake-bin')}:${process.env.PATH}`,
};
let proc: Spawned | undefined;
const pilotInPackage = join(scratch, 'pkg', 'node_modules', 'pilot-cli', 'bin', 'pilot.mjs');

/** The registry with Pilot's row added: its import and its entry in the table. */
function withPilotRow(registry: string): string {
  const table = 'export const AGENT_MODULES: readonly AgentModule[] = [codexModule, geminiModule, claudeModule, copilotModule];';
  expect(registry, 'the registry table as this test knows it').toContain(table);
  return registry
    .replace("import { geminiModule } from './gemini/module.js';", "import { geminiModule } from './gemini/module.js';\nimport { pilotModule } from './pilot/module.js';")
    .replace(table, table.replace('copilotModule]', 'copilotModule, pilotModule]'));
}

beforeAll(() => {
  const copy = join(scratch, 'rec');
  for (const part of ['src', 'bin']) cpSync(join(REPO_ROOT, part), join(copy, part), { recursive: true });
  for (const file of ['tsconfig.json', 'package.json']) copyFileSync(join(REPO_ROOT, file), join(copy, file));
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(copy, 'node_modules'));
  // The two changes a new agent makes: its folder, and its row.
  cpSync(join(FIFTH, 'pilot'), join(copy, 'src', 'agents', 'pilot'), { recursive: true });
  const registry = join(copy, 'src', 'agents', 'registry.ts');
  writeFileSync(registry, withPilotRow(readFileSync(registry, 'utf8')));
  const tsc = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(copy, 'tsconfig.json')], { encoding: 'utf8' });
  expect(tsc.stdout + tsc.stderr, 'tsc on the copy with Pilot').toBe('');
  expect(tsc.status).toBe(0);
  // Pilot's CLI on PATH, as `npm install -g` would put it.
  mkdirSync(join(scratch, 'fake-bin'));
  copyFileSync(join(FIFTH, 'fake-pilot.mjs'), join(scratch, 'fake-bin', 'pilot'));
  chmodSync(join(scratch, 'fake-bin', 'pilot'), 0o755);
  mkdirSync(env.HOME!, { recursive: true });
  // And as its npm package, whose package.json tells rec doctor the version a result is kept under.
  const pkg = join(scratch, 'pkg', 'node_modules', 'pilot-cli');
  mkdirSync(join(pkg, 'bin'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'pilot-cli', version: '1.0.0' }));
  copyFileSync(join(FIFTH, 'fake-pilot.mjs'), pilotInPackage);
  chmodSync(pilotInPackage, 0o755);
}, BUILD_TIMEOUT_MS);

afterAll(() => {
  proc?.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

function rec(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(recBin, args, { env, cwd: scratch, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('a fifth agent added as a folder and a registry row', () => {
  it('is named by rec --help and by the error for a missing binary, with its variable', () => {
    const help = rec(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain(`<${[...AGENT_NAMES, 'pilot'].join('|')}>`);
    const missing = spawnSync(recBin, ['pilot'], { env: { ...env, PATH: `${dirname(process.execPath)}:/usr/bin:/bin` }, encoding: 'utf8' });
    expect(missing.stderr).toContain('REC_PILOT_BIN');
  });

  it('rec pilot records the answer at its prompt, and rec merge and rec stats both give it back', async () => {
    proc = spawn(recBin, ['pilot'], { cwd: scratch, env, cols: 100, rows: 30, timeoutMs: 20_000 });
    await proc.expectScreen(/Run `echo hi`\? \[y\/n\] \(call call-1\)/);
    // Pilot asks at once; a user reads the prompt first. The recorder names the session file when it
    // starts, and from then on rec sees every key.
    await waitForRows(dbPath, 'SELECT agent_session_file FROM runs', (rows) => rows.length === 1 && rows[0]!['agent_session_file'] !== null);
    proc.send('n');
    await proc.expect('denied');
    expect((await proc.expectExit()).exitCode).toBe(0);

    const [run] = readRuns(dbPath);
    expect(run).toMatchObject({ agent: 'pilot', agent_session_file: join(env.PILOT_HOME!, 'sessions', `${run!.id}.jsonl`) });
    const decisions = readEventRows(dbPath).filter((e) => e.type !== 'prompt');
    expect(decisions).toMatchObject([{ type: 'rejection', agent: 'pilot', call_id: 'call-1', trigger: 'letter', decided_by: 'user' }]);

    const ref = run!.id.slice(0, 8);
    const merge = rec(['merge', '--run', ref, '--jsonl', '--no-progress']);
    expect(merge.status, merge.stderr).toBe(0);
    const merged = merge.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(merged).toHaveLength(1);
    expect(merged[0].session).toMatchObject({ agent: 'pilot' });
    expect(merged[0].rejections).toMatchObject([{ call_id: 'call-1', sidecar_event_ids: [decisions[0]!.id], trigger: 'letter' }]);
    expect(merged[0].rejections[0].sources).toContain('sidecar');

    const stats = rec(['stats', '--run', ref, '--json', '--no-progress']);
    expect(stats.status, stats.stderr).toBe(0);
    expect(JSON.parse(stats.stdout).rejections).toMatchObject({ total: 1, by_agent: [{ key: 'pilot', count: 1 }] });
  });

  it('rec doctor pilot runs the scenarios of its bench and passes; its help names it', () => {
    expect(rec(['doctor', '--help']).stdout.replace(/\s+/g, ' ')).toContain(`Covers ${AGENT_NAMES.join(', ')} and pilot.`);
    const r = rec(['doctor', 'pilot', '--agent-bin', pilotInPackage, '--json', '--db', join(scratch, 'doctor.db')]);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ agent: 'pilot', version: '1.0.0', passed: true, scenarios: [{ name: 'reject (n)', pass: true }] });
  });

  it("rec demo pilot runs Pilot in its bench's world, then shows what rec recorded", async () => {
    const demoDb = join(scratch, 'demo.db');
    proc?.dispose();
    proc = spawn(recBin, ['demo', 'pilot', '--agent-bin', pilotInPackage, '--db', demoDb], { cwd: scratch, env, cols: 100, rows: 30, timeoutMs: 20_000 });
    await proc.expectScreen(/Run `echo hi`\? \[y\/n\] \(call call-1\)/);
    await waitForRows(demoDb, 'SELECT agent_session_file FROM runs', (rows) => rows.length === 1 && rows[0]!['agent_session_file'] !== null);
    proc.send('n');
    await proc.expect('denied');
    await proc.expect(`The recording stays in ${demoDb}.`);
    expect((await proc.expectExit()).exitCode).toBe(0);
    // In the demo's own HOME, not the user's.
    expect(readRuns(demoDb)[0]!.agent_session_file).not.toContain(env.PILOT_HOME!);
    expect(readEventRows(demoDb)).toMatchObject([{ type: 'rejection', agent: 'pilot', call_id: 'call-1', trigger: 'letter' }]);
  });
});
