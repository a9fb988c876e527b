// The rec under test, for every agent's e2e suite: the repo's launcher over the compiled dist/, or
// another build named by REC_E2E_BIN (e.g. a scratch build of a branch).
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export const REC_BIN = process.env.REC_E2E_BIN ?? join(REPO_ROOT, 'bin/rec.js');

export function assertBuilt(): void {
  if (!process.env.REC_E2E_BIN && !existsSync(join(REPO_ROOT, 'dist/cli.js'))) {
    throw new Error('dist/cli.js is missing: run `npx tsc -p tsconfig.json` (npm test builds first)');
  }
}
