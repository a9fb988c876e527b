// Running the built `rec` in tests: its path, a private temporary folder with a database, and an
// environment that keeps every test's data out of the user's home.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawn, type SpawnOptions, type Spawned } from '../../src/lab/spawn.js';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');
export const REC_BIN = join(REPO_ROOT, 'bin', 'rec.js');

export interface RecSandbox {
  readonly dir: string;
  readonly dbPath: string;
  readonly env: NodeJS.ProcessEnv;
  /** Runs `rec <args>` under a real pty. */
  spawnRec(args: readonly string[], opts?: SpawnOptions): Spawned;
  dispose(): void;
}

export function createRecSandbox(extraEnv: NodeJS.ProcessEnv = {}): RecSandbox {
  const dir = mkdtempSync(join(tmpdir(), 'rec-test-'));
  const dbPath = join(dir, 'data', 'rec.db');
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: join(dir, 'home'),
    XDG_DATA_HOME: join(dir, 'xdg-data'),
    XDG_STATE_HOME: join(dir, 'xdg-state'),
    // rec's per-run folder and the fakes' scratch files land here, so a run killed with SIGKILL
    // (which cannot clean up after itself) leaves nothing behind once the sandbox is disposed.
    TMPDIR: tmp,
    REC_DB: dbPath,
    ...extraEnv,
  };
  const spawned: Spawned[] = [];
  return {
    dir,
    dbPath,
    env,
    spawnRec(args, opts = {}) {
      // Run as users do: the executable itself, so its shebang's Node flags apply.
      // A key set to undefined in opts.env is removed (the variable is unset for that run).
      const merged = Object.entries({ ...env, ...opts.env }).filter(([, v]) => v !== undefined);
      const p = spawn(REC_BIN, [...args], { cwd: dir, ...opts, env: Object.fromEntries(merged) });
      spawned.push(p);
      return p;
    },
    dispose() {
      for (const p of spawned) p.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
