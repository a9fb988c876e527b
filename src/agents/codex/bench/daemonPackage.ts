// Codex installs its app-server daemon into every new CODEX_HOME before its first turn can start: a
// copy of its own package (packages/app-server-daemon, 424 MB for 0.171.0), about ten seconds of a
// loaded disk, once per scenario. The doctor lets the first scenario install it and hands that
// install to the next scenarios' homes as hard links (linkTree.ts): the same files Codex wrote, from
// the same binary, so each home is still fresh and isolated, and nothing is the user's.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { linkTree } from '../../../lab/linkTree.js';

const PACKAGE = join('packages', 'app-server-daemon');

/** Gives `codexHome` the daemon install kept in `cacheDir`, if one was kept; before Codex starts. */
export function seedDaemonPackage(cacheDir: string, codexHome: string): void {
  const kept = join(cacheDir, PACKAGE);
  if (existsSync(join(kept, 'current'))) linkTree(kept, join(codexHome, PACKAGE));
}

/** Keeps the daemon install Codex made in `codexHome` (its `current` release set), unless one is kept already. */
export function keepDaemonPackage(cacheDir: string, codexHome: string): void {
  const made = join(codexHome, PACKAGE);
  const kept = join(cacheDir, PACKAGE);
  if (existsSync(join(kept, 'current')) || !existsSync(join(made, 'current'))) return;
  linkTree(made, kept);
}
