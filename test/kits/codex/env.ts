// The e2e suites' Codex: the pinned devDependency (never a codex from PATH), or the one
// REC_E2E_CODEX_BIN names (scripts/canary), in the isolated world that rec doctor uses too
// (src/lab/codex/env.ts).
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentBin } from '../shared/agentBin.js';

export { createCodexEnv, type CodexEnv } from '../../../src/lab/codex/env.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const BIN = agentBin('codex');
/** The pinned devDependency, or the one REC_E2E_CODEX_BIN names; the e2e suite never uses a codex from PATH. */
export const CODEX_BIN = BIN.override ?? join(REPO_ROOT, 'node_modules/.bin/codex');
/** The version under test: the devDependency pin (the newest verified version), or REC_E2E_CODEX_BIN's own. */
export const CODEX_VERSION = BIN.version;
