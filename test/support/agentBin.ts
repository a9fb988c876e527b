// The agent binary an e2e kit runs, and its version: the pinned devDependency in this clone's
// node_modules, or a binary installed elsewhere named by REC_E2E_<AGENT>_BIN (scripts/canary runs the
// suites on the registry's newest release that way). With such a binary the kit's version is the one
// the binary reports, so the suite names, the first-run settings a kit seeds with the version and
// the fixture recorders' output folder follow the binary under test instead of the pin.
import { execFileSync } from 'node:child_process';
import { pinnedVersion } from './agentVersions.js';

export interface AgentBin {
  /** The binary to run, or null when none was named (the kit then finds the pinned one). */
  readonly override: string | null;
  readonly version: string;
}

/** The environment variable naming another binary for this agent's e2e suite. */
export function agentBinEnvVar(agent: string): string {
  return `REC_E2E_${agent.toUpperCase()}_BIN`;
}

export function agentBin(agent: string): AgentBin {
  const override = process.env[agentBinEnvVar(agent)] || null;
  if (override === null) return { override, version: pinnedVersion(agent) };
  return { override, version: reportedVersion(agent, override) };
}

/** `<bin> --version` as x.y.z ("codex-cli 0.171.0", "0.61.0", "2.1.332 (Claude Code)"). */
function reportedVersion(agent: string, bin: string): string {
  let out: string;
  try {
    out = execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    throw new Error(`${agentBinEnvVar(agent)}=${bin}: \`--version\` failed (${(err as Error).message.split('\n')[0]})`);
  }
  const m = /\b(\d+\.\d+\.\d+)\b/.exec(out);
  if (!m) throw new Error(`${agentBinEnvVar(agent)}=${bin}: no x.y.z version in its --version output: ${JSON.stringify(out.slice(0, 80))}`);
  return m[1]!;
}
