// Paths of the agents' own session files copied (trimmed) from ../shared/agents/*/samples.
import { fileURLToPath } from 'node:url';

export const LOGS = fileURLToPath(new URL('../fixtures/logs/', import.meta.url));

/** A fixture of a registry agent (test/fixtures/logs/<agent>/). */
export function logFile(agent: string, name: string): string {
  return `${LOGS}${agent}/${name}`;
}
