// The agent's binary, found once per run: `--agent-bin`, else $REC_<AGENT>_BIN, else the agent's
// name on PATH. Starting the agent, the message when it is missing, the run row and the agent's
// version all come from this one answer (a second lookup of its own once ignored --agent-bin).
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { AgentModule } from '../agents/agentModule.js';
import { findExecutable } from '../session/findBinary.js';
import { escapeControls } from './terminalText.js';

/** How many folders above the binary to look for its package.json (Gemini's bundle/gemini.js is two deep). */
const MAX_LEVELS_UP = 6;

const PackageJson = z.object({ name: z.string(), version: z.string() });

export interface AgentBinary {
  /** The executable, absolute. */
  readonly path: string;
  /** The version in the package.json of the agent's npm package above the binary, links resolved. */
  readonly packageVersion: string | undefined;
}

export type FoundAgentBinary = { readonly ok: true; readonly binary: AgentBinary } | { readonly ok: false; readonly message: string };

type AgentFacts = Pick<AgentModule, 'name' | 'binName' | 'binEnvVar' | 'packageName'>;

export function findAgentBinary(agent: AgentFacts, agentBin: string | undefined, env: NodeJS.ProcessEnv, cwd: string): FoundAgentBinary {
  const override = agentBin ?? env[agent.binEnvVar];
  const found = findExecutable(override || agent.binName, env, cwd);
  if (found === undefined) {
    const where = override ? `${escapeControls(JSON.stringify(override))} (from ${agentBin !== undefined ? '--agent-bin' : agent.binEnvVar})` : `${agent.binName} on PATH`;
    return {
      ok: false,
      message: `rec: ${agent.name} not found: no executable ${where}; install it with \`npm install -g ${agent.packageName}\` or point ${agent.binEnvVar} at it`,
    };
  }
  return { ok: true, binary: { path: found, packageVersion: packageVersionOf(found, agent.packageName) } };
}

/**
 * The version of the npm package `packageName` the binary belongs to, or undefined (a binary
 * installed otherwise, a wrapper script, a dangling link): the session file or the banner tell it then.
 */
export function packageVersionOf(binary: string, packageName: string): string | undefined {
  let dir: string;
  try {
    dir = dirname(realpathSync(binary));
  } catch {
    // A dangling link: the agent will not start either.
    return undefined;
  }
  for (let level = 0; level < MAX_LEVELS_UP; level++) {
    try {
      const pkg = PackageJson.safeParse(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')));
      if (pkg.success && pkg.data.name === packageName) return pkg.data.version;
    } catch {
      // No package.json at this level (or not JSON): keep going up.
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return undefined;
}
