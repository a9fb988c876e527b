// The e2e suites' GitHub Copilot CLI: the pinned devDependency's `copilot` (the npm loader a user's
// `npm install -g @github/copilot` puts on PATH, never a copilot from PATH), or the one
// REC_E2E_COPILOT_BIN names (scripts/canary), in the isolated world rec doctor uses too
// (src/agents/copilot/bench/env.ts), with this repository's MCP server fake.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCopilotEnv, type CopilotEnv as AgentEnv, type CopilotEnvOptions } from '../../../src/agents/copilot/bench/env.js';
import { agentBin } from '../agentBin.js';

export type { CopilotEnv as AgentEnv } from '../../../src/agents/copilot/bench/env.js';

/** The prefix of each test world's temp dir (under the system temp dir). */
export const E2E_DIR_PREFIX = 'rec-copilot-e2e-';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const BIN = agentBin('copilot');
/** The pinned devDependency's loader, or the one REC_E2E_COPILOT_BIN names. */
export const AGENT_BIN: string | null = BIN.override ?? join(REPO_ROOT, 'node_modules/.bin/copilot');
/** The version under test: the devDependency pin (the newest verified version), or REC_E2E_COPILOT_BIN's own. */
export const AGENT_VERSION = BIN.version;
/** A one-tool MCP server over stdio (touch_marker). */
const MCP_SERVER = join(REPO_ROOT, 'test', 'fakes', 'mcp', 'markerServer.mjs');

export interface EnvOptions extends Omit<CopilotEnvOptions, 'prefix' | 'mcpServers'> {
  /** Copilot gets the MCP server test/fakes/mcp/markerServer.mjs, as server `marker`. */
  readonly mcpServer?: boolean;
}

export function createEnv(opts: EnvOptions): AgentEnv {
  const { mcpServer, ...rest } = opts;
  return createCopilotEnv({
    ...rest,
    prefix: E2E_DIR_PREFIX,
    ...(mcpServer ? { mcpServers: { marker: { type: 'local', command: process.execPath, args: [MCP_SERVER], tools: ['*'] } } } : {}),
  });
}
