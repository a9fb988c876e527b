// The shared name list: the agents rec knows, each with a module under src/agents/<name>/ and a row
// in agents/registry.ts. Adding an agent adds its name here. Dependency-free: `rec <agent>` reads it
// before the agent starts.
export const KNOWN_AGENTS = ['codex', 'gemini', 'claude'] as const;
export type KnownAgent = (typeof KNOWN_AGENTS)[number];
