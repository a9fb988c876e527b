// The folders every agent's isolated e2e environment starts from: a private base dir (a fresh temp
// dir, or a fixed one emptied first, as the fixture recorders use) holding the agent's HOME, its work
// dir and its TMPDIR, with the agent's own config dir inside HOME; and how its processes are stopped.
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { descendantPids, killPids } from './processTree.js';

export interface EnvDirs {
  readonly baseDir: string;
  readonly home: string;
  /** The agent's config dir in HOME (e.g. ~/.claude). */
  readonly agentDir: string;
  readonly workDir: string;
  readonly tmpDir: string;
  /** Removes the base dir unless it was a fixed one (a fixed dir is left for inspection). */
  remove(): void;
}

export function createEnvDirs(o: { readonly prefix: string; readonly baseDir?: string | undefined; readonly agentDir: string }): EnvDirs {
  const fixed = o.baseDir !== undefined;
  const baseDir = o.baseDir ?? mkdtempSync(join(tmpdir(), o.prefix));
  if (fixed) rmSync(baseDir, { recursive: true, force: true });
  const home = join(baseDir, 'home');
  const agentDir = join(home, o.agentDir);
  const workDir = join(baseDir, 'work');
  const tmpDir = join(baseDir, 'tmp');
  for (const d of [baseDir, home, agentDir, workDir, tmpDir]) mkdirSync(d, { recursive: true, mode: 0o700 });
  chmodSync(baseDir, 0o700);
  return {
    baseDir,
    home,
    agentDir,
    workDir,
    tmpDir,
    remove() {
      if (!fixed) rmSync(baseDir, { recursive: true, force: true });
    },
  };
}

/** Stops the given processes and all their descendants. */
export async function stopProcessTrees(roots: readonly number[]): Promise<void> {
  await killPids([...descendantPids(roots), ...roots]);
}
