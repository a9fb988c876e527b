// The repository's files, as the tests that check the whole tree see them: in a git checkout, what
// git tracks and the untracked files it does not ignore; in a copy without .git (scripts/test-node-lines
// makes one from that same list, then installs and builds in it), every file below the root but the
// install's and the build's folders.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** What an install or a build adds to a copy, which git ignores in a checkout. */
const NOT_SOURCE = new Set(['node_modules', 'dist', '.git', 'bench-results', 'tmp']);

/** Every file's path relative to `root`, with `/` between its parts. */
export function repoFiles(root: string): string[] {
  if (existsSync(join(root, '.git'))) {
    const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
    return listed.split('\0').filter((file) => file !== '' && existsSync(join(root, file)));
  }
  const files: string[] = [];
  const walk = (dir: string, prefix: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (NOT_SOURCE.has(entry.name)) continue;
      if (entry.isDirectory()) walk(join(dir, entry.name), `${prefix}${entry.name}/`);
      else if (entry.isFile()) files.push(`${prefix}${entry.name}`);
    }
  };
  walk(root, '');
  return files.sort();
}
