// An agent's name as every layer sees it: a short lowercase word. Which names exist is the
// registry's to say (agents/registry.ts, one row per folder under src/agents/); core cannot import it
// (layers point down), so core only fixes the form of a name (the zod schema is AgentName in
// events.ts), and a name that comes from outside (argv, a hook's command line, a sidecar row) is
// checked against the registry where it enters. Dependency-free: `rec <agent>` and `rec hook` read
// it before anything else, and they load no zod.

/** The form of a name: also what a sidecar row's `agent` column holds (`other` included). */
export const AGENT_NAME_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

/** The agent of a run of `rec -- <command>`: no registry row may take this name. */
export const OTHER_AGENT = 'other';

