// Finds an executable the way a shell does: a path with a slash is taken as is, a bare name is
// looked up on PATH.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';

export function findExecutable(name: string, env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  if (name.includes('/')) {
    const full = resolve(cwd, name);
    return isExecutableFile(full) ? full : undefined;
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const full = join(resolve(cwd, dir), name);
    if (isExecutableFile(full)) return full;
  }
  return undefined;
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    // ENOENT / EACCES: not there or not runnable — the caller reports the missing binary.
    return false;
  }
}
