// Shared pieces of the fake-agent tests: a private sandbox (HOME, CODEX_HOME, a work dir), the
// fakes' paths, and condition waits on files the fakes write (the harness waits on the pty).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach } from 'vitest';
import { spawn, type Spawned } from '../../src/lab/spawn.js';
import { waitUntil } from '../../src/lab/pollUntil.js';

export const FAKES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../fakes');
/** test/fakes/fake-<agent>.mjs: one fake per registry agent (fakeInkAgents.test.ts runs each). */
export const fakeScript = (agent: string) => join(FAKES_DIR, `fake-${agent}.mjs`);

/** How often file conditions are re-checked: files have no change event we can rely on in tmpfs. */
const FILE_POLL_MS = 25;
/** Upper bound for a file condition; generous because two cores are shared by parallel test files. */
export const FILE_WAIT_TIMEOUT_MS = 15_000;

export interface Sandbox {
  root: string;
  home: string;
  work: string;
  codexHome: string;
  env: NodeJS.ProcessEnv;
  cleanup(): void;
}

export function makeSandbox(): Sandbox {
  const root = mkdtempSync(join(tmpdir(), 'fake-agent-test-'));
  const home = join(root, 'home');
  const work = join(root, 'work');
  const codexHome = join(home, '.codex');
  const tmp = join(root, 'tmp');
  for (const d of [home, work, tmp]) mkdirSync(d, { recursive: true });
  // The fakes' scratch files (commands' output and status) land in the sandbox and go with it.
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, CODEX_HOME: codexHome, TMPDIR: tmp };
  delete env.FAKE_SCENARIO;
  return { root, home, work, codexHome, env, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** What one fake-agent test works in: its sandbox, and the process it spawned there. */
export interface FakeTest {
  box: Sandbox;
  proc: Spawned | undefined;
}

/**
 * A fresh sandbox before each test of the calling file; after each test, the process it spawned is
 * disposed and the sandbox removed. Call once at the top level of a test file.
 */
export function sandboxPerTest(): FakeTest {
  // `box` is set before every test runs (as a `let box: Sandbox` assigned in beforeEach would be).
  const t = { proc: undefined } as FakeTest;
  beforeEach(() => {
    t.box = makeSandbox();
  });
  afterEach(() => {
    t.proc?.dispose();
    t.proc = undefined;
    t.box.cleanup();
  });
  return t;
}

/** Spawns a fake agent on a scenario in the test's sandbox and waits for its ready line. */
export async function startFake(
  t: FakeTest,
  agent: string,
  scenario: string,
  args: readonly string[],
  size: { cols: number; rows: number },
): Promise<Spawned> {
  t.proc = spawn(process.execPath, [fakeScript(agent), '--scenario', scenario, ...args], { ...size, cwd: t.box.work, env: t.box.env });
  await t.proc.expect(`fake-${agent} ready`);
  return t.proc;
}


/** Waits until `test` returns a value other than undefined, re-checking the filesystem. */
export async function waitFor<T>(test: () => T | undefined, what: string, timeoutMs = FILE_WAIT_TIMEOUT_MS): Promise<T> {
  return waitUntil(test, { what, timeoutMs, intervalMs: FILE_POLL_MS });
}

/** All files under `dir` (recursive) whose name matches `re`. */
export function findFiles(dir: string, re: RegExp): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...findFiles(p, re));
    else if (re.test(name)) out.push(p);
  }
  return out;
}

/** Parsed JSON lines of a file (a partial last line is left out: the writer may be mid-append). */
export function readJsonl(file: string): any[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .flatMap((l) => {
      try {
        return [JSON.parse(l)];
      } catch {
        // A line still being appended: the next poll sees it whole.
        return [];
      }
    });
}

/** The screen's rows as an array (the harness joins them with newlines). */
export const rows = (screen: string) => screen.split('\n');
