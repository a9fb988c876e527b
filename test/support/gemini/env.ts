// The e2e suites' Gemini: the pinned devDependency (never a gemini from PATH), or the one
// REC_E2E_GEMINI_BIN names (scripts/canary), in the isolated world that rec doctor uses too
// (src/agents/gemini/bench/env.ts), with this repository's test fakes for an editor and an MCP server.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGeminiEnv as createLabGeminiEnv, type GeminiEnv as AgentEnv, type GeminiEnvOptions as LabGeminiEnvOptions } from '../../../src/agents/gemini/bench/env.js';
export { GEMINI_MODEL } from '../../../src/agents/gemini/bench/env.js';
import { agentBin } from '../agentBin.js';

export { listSessionFiles, type GeminiEnv as AgentEnv } from '../../../src/agents/gemini/bench/env.js';

/** The prefix of each test world's temp dir (under the system temp dir). */
export const E2E_DIR_PREFIX = 'rec-gemini-e2e-';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const BIN = agentBin('gemini');
/** The pinned devDependency, or the one REC_E2E_GEMINI_BIN names; the e2e suite never uses a gemini from PATH. */
export const AGENT_BIN = BIN.override ?? join(REPO_ROOT, 'node_modules/.bin/gemini');
/** The version under test: the devDependency pin (the newest verified version), or REC_E2E_GEMINI_BIN's own. */
export const AGENT_VERSION = BIN.version;
/** The fake `vim` for "Modify with external editor": it changes "new line" to "edited line". */
const FAKE_EDITOR_DIR = join(REPO_ROOT, 'test', 'fakes', 'editor');
/** A one-tool MCP server over stdio (touch_marker). */
const MCP_SERVER = join(REPO_ROOT, 'test', 'fakes', 'mcp', 'markerServer.mjs');

export interface EnvOptions extends Omit<LabGeminiEnvOptions, 'prefix' | 'fakeEditorDir' | 'mcpServerScript'> {
  /** Gemini's preferred editor is vim, and PATH leads first to the fake one (test/fakes/editor/vim). */
  readonly fakeEditor?: boolean;
  /** Gemini gets the MCP server test/fakes/mcp/markerServer.mjs, as server `marker`. */
  readonly mcpServer?: boolean;
}

export function createEnv(opts: EnvOptions): AgentEnv {
  const { fakeEditor, mcpServer, ...rest } = opts;
  return createLabGeminiEnv({
    ...rest,
    prefix: E2E_DIR_PREFIX,
    ...(fakeEditor ? { fakeEditorDir: FAKE_EDITOR_DIR } : {}),
    ...(mcpServer ? { mcpServerScript: MCP_SERVER } : {}),
  });
}
