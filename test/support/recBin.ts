// The rec under test, for every agent's e2e suite: the repo's launcher over the compiled dist/, or
// another build named by REC_E2E_BIN (e.g. a scratch build of a branch).
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export const REC_BIN = process.env.REC_E2E_BIN ?? join(REPO_ROOT, 'bin/rec.js');

/** Why rec cannot be run here, or null: without REC_E2E_BIN, dist/ must be built. */
export function builtMissing(): string | null {
  if (process.env.REC_E2E_BIN || existsSync(join(REPO_ROOT, 'dist/cli.js'))) return null;
  return 'dist/cli.js is missing: run `npx tsc -p tsconfig.json` (npm test builds first)';
}

export function assertBuilt(): void {
  const missing = builtMissing();
  if (missing) throw new Error(missing);
}
