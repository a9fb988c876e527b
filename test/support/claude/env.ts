// The e2e suites' Claude Code: the pinned devDependency's native binary (never a claude from PATH),
// or the one REC_E2E_CLAUDE_BIN names (scripts/canary), in the isolated world that rec doctor uses
// too (src/agents/claude/bench/env.ts), seeded with the version under test and, on request, the MCP server
// test/fakes/mcp/markerServer.mjs.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClaudeEnv as createLabEnv, type ClaudeEnv as AgentEnv, type ClaudeEnvOptions } from '../../../src/agents/claude/bench/env.js';
import { agentBin } from '../agentBin.js';

export { type ClaudeEnv as AgentEnv } from '../../../src/agents/claude/bench/env.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const require = createRequire(import.meta.url);
const MCP_SERVER = join(REPO_ROOT, 'test', 'fakes', 'mcp', 'markerServer.mjs');

const BIN = agentBin('claude');
/** The version under test: the devDependency pin (the newest verified version), or REC_E2E_CLAUDE_BIN's own. */
export const AGENT_VERSION = BIN.version;

/**
 * The pinned devDependency's native binary, taken from its platform package (an optional
 * dependency): its postinstall only hard-links that file over `bin/claude.exe`, so where install
 * scripts are skipped `.bin/claude` is the package's placeholder, while the platform package's copy
 * is there either way; REC_E2E_CLAUDE_BIN names a binary installed elsewhere. The binary needs no Node, so the suite runs it on every Node line (20 too,
 * although the package's engines says >= 22). Null where the package is not installed.
 */
export const AGENT_BIN: string | null = packageBinary();

function packageBinary(): string | null {
  // A copy installed elsewhere (where this tree's node_modules lacks the optional platform package,
  // or a newer release under test); agentBin has run it already, so it exists.
  if (BIN.override) return BIN.override;
  const libc = process.platform === 'linux' && existsSync('/etc/alpine-release') ? '-musl' : '';
  try {
    const pkg = require.resolve(`@anthropic-ai/claude-code-${process.platform}-${process.arch}${libc}/package.json`);
    const bin = join(dirname(pkg), 'claude');
    if (existsSync(bin)) return bin;
  } catch {
    // Not installed for this platform (optional dependency): fall back to the wrapper's own copy below.
  }
  const wrapped = join(REPO_ROOT, 'node_modules/@anthropic-ai/claude-code/bin/claude.exe');
  return existsSync(wrapped) ? wrapped : null;
}

/** The lab's isolated world for the version under test; `mcpServer` adds the marker server as user-scope server `marker`. */
export function createEnv(opts: Omit<ClaudeEnvOptions, 'version' | 'mcpServers'> & { readonly mcpServer?: boolean }): AgentEnv {
  const { mcpServer, ...rest } = opts;
  const mcpServers = mcpServer ? { marker: { type: 'stdio', command: process.execPath, args: [MCP_SERVER], env: {} } } : undefined;
  return createLabEnv({ ...rest, version: AGENT_VERSION, ...(mcpServers ? { mcpServers } : {}) });
}
