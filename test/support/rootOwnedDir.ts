// Folders Gemini CLI 0.61 takes a system settings file from: root-owned and not group- or
// world-writable all the way up from /. /tmp and /var/tmp never qualify; root's home and /var/lib
// do wherever the suite runs as root (the repository's own tree may too, in a clone outside /tmp).
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { geminiTakesSystemFile } from '../../src/agents/gemini/systemSettingsLayer.js';
import { REPO_ROOT } from './rec.js';

const BASE_NAME = '.tmp-rec-root-owned';

/** A base for such folders on this machine, or undefined (not root, or no such place). */
export const ROOT_OWNED_BASE: string | undefined =
  process.getuid?.() === 0 ? [join(REPO_ROOT, 'test'), homedir(), '/var/lib'].find((c) => geminiTakesSystemFile(join(c, 'probe.json'))) : undefined;

/** A new such folder (0755), under ROOT_OWNED_BASE (which must be defined). */
export function makeRootOwnedDir(): string {
  const base = join(ROOT_OWNED_BASE!, BASE_NAME);
  mkdirSync(base, { recursive: true, mode: 0o755 });
  chmodSync(base, 0o755);
  const dir = mkdtempSync(join(base, 'run-'));
  chmodSync(dir, 0o755);
  return dir;
}

/** Removes every folder makeRootOwnedDir made. */
export function removeRootOwnedDirs(): void {
  if (ROOT_OWNED_BASE) rmSync(join(ROOT_OWNED_BASE, BASE_NAME), { recursive: true, force: true });
}
