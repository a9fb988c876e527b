// The package as a user gets it: `npm pack` (with its prepack build) gives a tarball that holds what
// runs and nothing else, and that tarball, installed into a temporary prefix, runs from a folder
// outside the repository: its version, a wrapped command's exit code under a real pty,
// `rec merge` on an agent's session file, and `rec doctor` (its help, and its isolation probe, which
// starts the shipped mock model and pty driver, on a Codex that never asks the model).
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from '../../../src/lab/spawn.js';
import { REPO_ROOT } from '../../support/rec.js';
import { logFile } from '../../support/fixturePaths.js';
import { copyWorkTree, installOffline, npmPack, tarballFiles } from '../../support/installedPackage.js';

/** Packing builds twice and installing compiles node-pty (and, on Node 20, SQLite): minutes here. */
const INSTALL_TIMEOUT_MS = 600_000;

const dir = mkdtempSync(join(tmpdir(), 'rec-pack-'));
/** A folder outside the repository, where the installed `rec` is run. */
const elsewhere = join(dir, 'elsewhere');
/** npm runs as the user's: its config (nodedir for node-gyp) and its cache live under HOME. */
const npmEnv: NodeJS.ProcessEnv = { ...process.env, npm_config_update_notifier: 'false' };
/** The installed rec runs in a private HOME and database. */
const env: NodeJS.ProcessEnv = {
  ...process.env,
  HOME: join(dir, 'home'),
  XDG_DATA_HOME: join(dir, 'xdg-data'),
  XDG_STATE_HOME: join(dir, 'xdg-state'),
  REC_DB: join(dir, 'rec.db'),
};
let tarball = '';
let rec = '';

beforeAll(() => {
  mkdirSync(elsewhere, { recursive: true });
  mkdirSync(join(dir, 'home'), { recursive: true });
  const project = join(dir, 'project');
  copyWorkTree(REPO_ROOT, project);
  mkdirSync(join(dir, 'packed'));
  tarball = npmPack(project, join(dir, 'packed'), npmEnv);
  rec = installOffline({
    repo: REPO_ROOT,
    tarball,
    prefix: join(dir, 'prefix'),
    omitOptional: Number(process.versions.napi) >= 10,
    env: npmEnv,
  });
}, INSTALL_TIMEOUT_MS);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the packed package', () => {
  it("holds the compiled CLI, its launcher, the report page's assets, docs, README and LICENSE, and nothing else", () => {
    const files = tarballFiles(tarball);
    const topLevel = new Set(files.map((f) => f.split('/')[0]));
    expect([...topLevel].sort()).toEqual(['LICENSE', 'README.md', 'assets', 'bin', 'dist', 'docs', 'package.json']);
    expect(files).toEqual(expect.arrayContaining(['bin/rec.js', 'dist/cli.js', 'dist/store/sqliteDriver.js', 'assets/report/page.js', 'assets/report/page.css', 'dist/lab/mock/openaiResponses/server.js', 'dist/commands/doctor.js']));
    expect(files.filter((f) => f.endsWith('.map') || f.endsWith('.ts'))).toEqual([]);
  });

  it('installed, `rec --version` prints the package version from outside the repository', () => {
    const version = execFileSync(rec, ['--version'], { cwd: elsewhere, env }).toString('utf8').trim();
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(version).toBe(manifest.version);
  });

  it('installed, `rec -- sh -c "exit 3"` under a real pty exits 3 and records the run', async () => {
    const run = spawn(rec, ['--', 'sh', '-c', 'echo wrapped-ran; exit 3'], { cwd: elsewhere, env });
    try {
      await run.expect('wrapped-ran');
      expect(await run.expectExit()).toEqual({ exitCode: 3, signal: undefined });
    } finally {
      run.dispose();
    }
    const runs = execFileSync(rec, ['runs', '--json'], { cwd: elsewhere, env }).toString('utf8').trim().split('\n');
    expect(runs).toHaveLength(1);
    expect(JSON.parse(runs[0]!)).toMatchObject({ exit_code: 3 });
  });

  it('installed, `rec merge` turns a Codex rollout into a merged session', () => {
    const rollout = join(elsewhere, 'rollout.jsonl');
    copyFileSync(logFile('codex', 'shell-deny-esc.rollout.jsonl'), rollout);
    const merged = JSON.parse(execFileSync(rec, ['merge', rollout], { cwd: elsewhere, env }).toString('utf8')) as {
      session: { agent: string };
      messages: unknown[];
      diagnostics: unknown[];
    };
    expect(merged.session.agent).toBe('codex');
    expect(merged.messages.length).toBeGreaterThan(0);
    expect(merged.diagnostics).toEqual([]);
  });

  it('installed, `rec report` writes one self-contained page with Chart.js inlined', () => {
    const rollout = join(elsewhere, 'report-rollout.jsonl');
    copyFileSync(logFile('codex', 'shell-deny-esc.rollout.jsonl'), rollout);
    const out = execFileSync(rec, ['report', rollout, '-o', 'page.html'], { cwd: elsewhere, env }).toString('utf8');
    expect(out.split('\n')[0]).toBe(join(elsewhere, 'page.html'));
    const html = readFileSync(join(elsewhere, 'page.html'), 'utf8');
    expect(html).toContain('Chart.js v4');
    expect(html).toContain('<meta http-equiv="Content-Security-Policy"');
  });

  it('installed, `rec doctor --help` prints its usage', () => {
    const help = execFileSync(rec, ['doctor', '--help'], { cwd: elsewhere, env }).toString('utf8');
    expect(help).toMatch(/^usage: rec doctor /);
  });

  it('installed, `rec doctor codex` runs its mock model and pty driver, and refuses a Codex that never asks the model', () => {
    const pkg = join(dir, 'fake-codex', 'node_modules', '@openai', 'codex');
    mkdirSync(join(pkg, 'bin'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@openai/codex', version: '0.0.1-fake' }));
    const bin = join(pkg, 'bin', 'codex.js');
    writeFileSync(bin, '#!/bin/sh\necho "Sign in with ChatGPT"\nexit 1\n');
    chmodSync(bin, 0o755);
    let status = 0;
    let stderr = '';
    try {
      execFileSync(rec, ['doctor', 'codex', '--agent-bin', bin], { cwd: elsewhere, env, stdio: 'pipe' });
    } catch (err) {
      ({ status, stderr } = { status: (err as { status: number }).status, stderr: String((err as { stderr: Buffer }).stderr) });
    }
    expect(status).toBe(2);
    expect(stderr).toMatch(/rec doctor: codex 0\.0\.1-fake: refused: it never asked rec's mock model on 127\.0\.0\.1 \(the agent exited/);
  });
});
