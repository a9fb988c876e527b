// Paths of the agents' own session files copied (trimmed) from ../shared/agents/*/samples.
import { fileURLToPath } from 'node:url';

export const LOGS = fileURLToPath(new URL('../../fixtures/logs/', import.meta.url));

export function logFile(agent: 'codex' | 'gemini' | 'claude', name: string): string {
  return `${LOGS}${agent}/${name}`;
}
