// The agent versions whose session formats were measured (../shared/agents/*/README.md). A file
// written by another version is still read; the difference is reported once as a diagnostic,
// because strings and record shapes change between versions.
import type { MergeAgent } from './conversation.js';

/** Major.minor prefixes per agent. Gemini writes no version into its session files. */
export const KNOWN_VERSION_PREFIXES: Readonly<Record<MergeAgent, readonly string[]>> = {
  codex: ['0.169.'],
  gemini: [],
  claude: ['2.1.'],
};

export function isKnownVersion(agent: MergeAgent, version: string): boolean {
  return KNOWN_VERSION_PREFIXES[agent].some((p) => version.startsWith(p));
}
