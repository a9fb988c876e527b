// The e2e suites' Codex: the pinned devDependency (never a codex from PATH), in the isolated world
// that rec doctor uses too (src/lab/codex/env.ts).
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pinnedVersion } from '../../helpers/agentVersions.js';

export { createCodexEnv, type CodexEnv } from '../../../src/lab/codex/env.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The pinned devDependency; the e2e suite never uses a codex from PATH. */
export const CODEX_BIN = join(REPO_ROOT, 'node_modules/.bin/codex');
/** The newest verified version (the module's verifiedVersions): the devDependency pin. */
export const CODEX_VERSION = pinnedVersion('codex');
