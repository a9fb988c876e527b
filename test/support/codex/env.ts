// The e2e suites' Codex: the pinned devDependency (never a codex from PATH), or the one
// REC_E2E_CODEX_BIN names (scripts/canary), in the isolated world that rec doctor uses too
// (src/agents/codex/bench/env.ts).
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codexHookHash, codexHookStateKey, type CodexHookEvent } from '../../../src/agents/codex/hookSettings.js';
import { agentBin } from '../agentBin.js';

export { createCodexEnv as createEnv, type CodexEnv as AgentEnv } from '../../../src/agents/codex/bench/env.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const MCP_SERVER = join(REPO_ROOT, 'test', 'fakes', 'mcp', 'markerServer.mjs');

/**
 * config.toml lines that give Codex the one-tool stdio MCP server as server `marker`. No approval
 * mode: the tool has no annotations, so Codex asks before each call and offers the session and
 * "always" options (`prompt` mode would offer only Allow and Cancel).
 */
export function markerMcpToml(): string {
  return `\n[mcp_servers.marker]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(MCP_SERVER)}]\n`;
}

/**
 * config.toml lines for a hook of the user's own on `event`, trusted the way Codex's "Hooks need
 * review" dialog trusts it (hooks.state keyed by the config file's path), so no flag is needed.
 */
export function userHookToml(configFile: string, event: CodexHookEvent, command: string): string {
  const hash = codexHookHash({ event, command, timeoutSec: USER_HOOK_TIMEOUT_SEC });
  return `\n[[hooks.${event}]]\n[[hooks.${event}.hooks]]\ntype = "command"\ncommand = ${JSON.stringify(command)}\ntimeout = ${USER_HOOK_TIMEOUT_SEC}\n\n[hooks.state.${JSON.stringify(codexHookStateKey(event, configFile))}]\ntrusted_hash = ${JSON.stringify(hash)}\n`;
}
const USER_HOOK_TIMEOUT_SEC = 10;

/** The user's own hook that answers as `args` say (test/fakes/hooks/userHook.mjs), as a command line. */
export function userHookCommand(...args: readonly string[]): string {
  return [process.execPath, USER_HOOK, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
}
const USER_HOOK = join(REPO_ROOT, 'test', 'fakes', 'hooks', 'userHook.mjs');

const BIN = agentBin('codex');
/** The pinned devDependency, or the one REC_E2E_CODEX_BIN names; the e2e suite never uses a codex from PATH. */
export const AGENT_BIN = BIN.override ?? join(REPO_ROOT, 'node_modules/.bin/codex');
/** The version under test: the devDependency pin (the newest verified version), or REC_E2E_CODEX_BIN's own. */
export const AGENT_VERSION = BIN.version;
