// One description of every command and its options. The parser (parseCommandArgs.ts), `--help`
// (help.ts) and README's usage block are all made from it, so none of them can drift apart.
//
// No heavy imports here: `rec hook` and `rec <agent>` parse their arguments with this module before
// they do anything, and their start-up time is paid on every hook and every run. Lists that also
// live in zod schemas (event types) are spelled out and held equal by a unit test; agent names and
// their variables come from the registry (agents/registry.ts: its rows are data, no heavy imports).
import { AGENT_MODULES, AGENT_NAMES as AGENTS } from '../agents/registry.js';
import { OTHER_AGENT } from '../core/agentNames.js';

export { AGENTS };

export interface OptionSpec {
  /** The long name, without the leading `--`. */
  readonly name: string;
  /** A one-letter alias, without the `-`. */
  readonly short?: string;
  /** What the option's value is called in help (`PATH`, `N`); absent for a flag that takes none. */
  readonly value?: string;
  readonly help: string;
}

export interface CommandSpec {
  /** `runs`, `events`…; empty for running an agent (`rec [options] <agent>`). */
  readonly name: string;
  /** Operands, in help's words (`[SESSION_FILE|DIR…]`); empty when the command takes none. */
  readonly operands: string;
  /** Options that appear in the synopsis after the operands rather than before them. */
  readonly operandsFirst?: boolean;
  /** One line for the command list. */
  readonly summary: string;
  /** A paragraph for `rec <command> --help`. */
  readonly description: string;
  readonly options: readonly OptionSpec[];
}

/** The help option every command takes. */
export const HELP_OPTION: OptionSpec = { name: 'help', short: 'h', help: 'show this help and exit' };

/** Event types and agent names as `rec events` filters them (equal to core/events.ts: see the test). */
export const EVENT_TYPES = ['prompt', 'approval', 'rejection', 'skipped', 'interruption'] as const;
export const EVENT_AGENTS: readonly string[] = [...AGENTS, OTHER_AGENT];

export const WHEN_FORMS = 'an age (30s, 30m, 2h, 7d, 1w) or a date (2025-01-31, 2025-01-31T14:00)';

const DB: OptionSpec = {
  name: 'db',
  value: 'PATH',
  help: 'the rec database (default: $REC_DB, else $XDG_DATA_HOME/rec/rec.db, else ~/.local/share/rec/rec.db)',
};
const RUN: OptionSpec = { name: 'run', value: 'ID', help: 'one recorded run: its id or any unique prefix of it (rec runs lists them)' };
const JSON_LINES: OptionSpec = { name: 'json', help: 'JSON Lines for programs, one object per line, exact and untruncated' };

const SELECTION: readonly OptionSpec[] = [
  RUN,
  { name: 'agent', value: 'AGENT', help: `only this agent's sessions: ${AGENTS.join(', ')} (default: all of them)` },
  { name: 'since', value: 'WHEN', help: `only sessions modified since WHEN: ${WHEN_FORMS}` },
  DB,
  {
    name: 'jobs',
    short: 'j',
    value: 'N',
    help: 'threads that read, 1 to 64: the main one and N-1 workers (default: one per 96 MB of input, up to the cores the load average leaves free)',
  },
  { name: 'no-progress', help: 'no progress bar (one appears on a terminal when reading takes more than two seconds)' },
];

export const RUN_SPEC: CommandSpec = {
  name: '',
  operands: `<${AGENTS.join('|')}> [AGENT_ARGS…]`,
  summary: 'run an agent under rec and record its approvals, rejections and interruptions',
  description:
    'Runs the agent in a pseudo-terminal, passes your terminal through untouched, and records what happens ' +
    "at its approval prompts. Everything after the agent's name goes to the agent, even words that look like " +
    "rec options. `rec [options] -- COMMAND [ARGS…]` runs any program the same way.",
  options: [
    DB,
    { name: 'agent-bin', value: 'PATH', help: `the agent's executable (default: found on PATH; or ${AGENT_MODULES.map((m) => '$' + m.binEnvVar).join(', ')})` },
  ],
};

export const DEMO_SPEC: CommandSpec = {
  name: 'demo',
  operands: `[${AGENTS.join('|')}]`,
  summary: 'try rec with no account: the agent against a mock model, then what rec recorded',
  description:
    "Runs the agent (default: the first one listed) under rec, as `rec <agent>` would find it, in a temporary project and HOME " +
    "against rec's own mock model on 127.0.0.1: no account, no credential of yours, no network. The mock proposes " +
    'a harmless command, a file edit and a long-running command, then streams an answer; answer as you like. ' +
    'When the agent exits, rec prints the events it recorded and the merged session (docs/demo.md). The recording ' +
    'goes to a temporary database that is deleted afterwards, unless --db names one.',
  options: [
    { name: 'db', value: 'PATH', help: 'keep the recording in this rec database (default: a temporary one, deleted at the end)' },
    { name: 'agent-bin', value: 'PATH', help: `the agent's executable (default: as rec <agent> finds it, else this clone's pinned one)` },
  ],
};

export const RUNS_SPEC: CommandSpec = {
  name: 'runs',
  operands: '',
  summary: 'list recorded runs, newest first',
  description: 'Lists the runs rec recorded, newest first, with their short ids (any unique prefix of an id names the run in --run).',
  options: [DB, { name: 'json', help: 'one JSON object per run (JSON Lines), exact and untruncated' }, { name: 'limit', value: 'N', help: 'show at most N runs (default 20; 0 shows all)' }],
};

export const EVENTS_SPEC: CommandSpec = {
  name: 'events',
  operands: '',
  summary: 'list recorded events: prompts, approvals, rejections, skipped calls, interruptions',
  description: 'Lists what rec recorded, oldest first. Narrow terminals show fewer columns; --json has every field.',
  options: [
    DB,
    RUN,
    { name: 'agent', value: 'AGENT', help: `only this agent: ${EVENT_AGENTS.join(', ')}` },
    { name: 'type', value: 'TYPE', help: `only this type: ${EVENT_TYPES.join(', ')}` },
    { name: 'since', value: 'WHEN', help: `only events since WHEN: ${WHEN_FORMS}` },
    JSON_LINES,
  ],
};

export const MERGE_SPEC: CommandSpec = {
  name: 'merge',
  operands: '[SESSION_FILE|DIR…]',
  operandsFirst: true,
  summary: "join agents' session files with the sidecar into merged sessions (JSON)",
  description:
    "Joins each agent session file with rec's database into one merged JSON document (docs/merge.md): pretty " +
    'JSON for one session, JSON Lines for more. With no file and no --run, reads every session of --agent in ' +
    "the agents' own folders, modified since --since, plus recorded runs whose file is gone.",
  options: [
    ...SELECTION.slice(0, 3),
    { name: 'output', short: 'o', value: 'DIR', help: 'write DIR/<agent>-<session>.json per session instead of stdout' },
    { name: 'jsonl', help: 'JSON Lines on stdout even for one session' },
    ...SELECTION.slice(3),
  ],
};

export const STATS_SPEC: CommandSpec = {
  name: 'stats',
  operands: '[SESSION_FILE|DIR…]',
  operandsFirst: true,
  summary: 'count rejections and interruptions per agent, tool, kind and trigger',
  description:
    'Figures over the sessions `rec merge` would read (the same selection): a short summary, then one table ' +
    'per question that has an answer.',
  options: [
    ...SELECTION.slice(0, 3),
    { name: 'json', help: 'the figures as one JSON document, exact and untruncated' },
    { name: 'top', value: 'N', help: 'how many of the most refused commands to list (default 10)' },
    { name: 'all', help: 'show every table, empty ones too, and every diagnostic' },
    ...SELECTION.slice(3),
  ],
};

export const PRUNE_SPEC: CommandSpec = {
  name: 'prune',
  operands: '',
  summary: 'delete recorded runs with their events and agent records, and give the space back',
  description:
    'Deletes the runs started before WHEN, or one run, with their events and agent records, and gives the space back ' +
    'to the disk. A run that is still recording is never deleted. To delete everything, remove the database file.',
  options: [
    { name: 'before', value: 'WHEN', help: `delete the runs started before WHEN: ${WHEN_FORMS}` },
    { name: 'run', value: 'ID', help: 'delete one run: its id or any unique prefix of it (rec runs lists them)' },
    { name: 'dry-run', help: 'only show what would be deleted' },
    DB,
  ],
};

export const HOOK_SPEC: CommandSpec = {
  name: 'hook',
  operands: 'AGENT EVENT',
  summary: "called by an agent's hooks under rec (reads the hook's JSON on stdin)",
  description:
    "The command rec writes into an agent's hook configuration. It forwards the hook's JSON to the rec run " +
    'that started the agent and always exits 0, so that a hook never blocks or fails the agent. Not meant to be run by hand.',
  options: [],
};

/** Every subcommand, in the order help lists them. */
export const SUBCOMMAND_SPECS: readonly CommandSpec[] = [DEMO_SPEC, RUNS_SPEC, EVENTS_SPEC, MERGE_SPEC, STATS_SPEC, PRUNE_SPEC, HOOK_SPEC];
