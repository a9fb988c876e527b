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
export const EVENT_TYPES = ['prompt', 'approval', 'rejection', 'skipped', 'interruption', 'miss'] as const;
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
  // AGENT, not the list: the list outgrows a 40-column line (the agents are named in the description).
  operands: '[AGENT]',
  summary: 'try rec with no account: the agent against a mock model, then what rec recorded',
  description:
    `Runs the agent AGENT (${AGENTS.join(', ')}; default: ${AGENTS[0]}) under rec, as \`rec <agent>\` would find it, in a temporary project and HOME ` +
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

export const RULES_SPEC: CommandSpec = {
  name: 'rules',
  operands: '[SESSION_FILE|DIR…]',
  operandsFirst: true,
  summary: 'suggest permission rules, in each agent\'s format, from what you approved and refused',
  description:
    'Reads the sessions `rec merge` would read and suggests, per agent, allow rules for what you approved at ' +
    'least --min times and never refused, and deny or ask rules for what you refused repeatedly, each with ' +
    'its evidence and the widest command it allows; never a bare tool, an interpreter with code, sudo, rm -r, ' +
    'git push --force, a compound command or anything refused (docs/rules.md). Checks the existing rules it ' +
    'can read. Writes nothing unless --write.',
  options: [
    ...SELECTION.slice(0, 3),
    { name: 'min', value: 'N', help: 'approvals a group needs before an allow rule is suggested (default 3)' },
    { name: 'format', value: 'AGENT', help: `print only that agent's rules, paste-ready in its own format: ${AGENTS.join(', ')}` },
    { name: 'write', help: "append the rules to the agent's personal file, after printing the change (needs --agent or --format)" },
    { name: 'json', help: 'the whole report as one JSON document, every field' },
    { name: 'all', help: 'print every diagnostic' },
    ...SELECTION.slice(3),
  ],
};

export const REPORT_SPEC: CommandSpec = {
  name: 'report',
  operands: '[SESSION_FILE|DIR…]',
  operandsFirst: true,
  summary: 'write one HTML page of what was refused, cut short and approved',
  description:
    'Reads the sessions `rec stats` would read (the same selection, the same figures) and writes one self-contained ' +
    'HTML file: summary, decisions over time, rejection rates, how users refuse, the most refused commands, ' +
    'interruptions, and every session with its decisions in order. It makes no network request. With --run it opens ' +
    'on that session.',
  options: [
    ...SELECTION.slice(0, 3),
    { name: 'output', short: 'o', value: 'FILE', help: 'where to write the page (default: rec-report.html in the current folder)' },
    { name: 'top', value: 'N', help: 'how many of the most refused commands to list (default 10)' },
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

export const EXPORT_SPEC: CommandSpec = {
  name: 'export',
  operands: '',
  summary: 'send recorded decisions to an OpenTelemetry Collector (OTLP logs), each once',
  description:
    'Sends one OTLP log record per decision (approval, rejection, skipped call, interruption) of the runs that ' +
    'have ended, with its own time, to an OTLP/HTTP endpoint or a file of OTLP JSON lines. The database keeps, ' +
    'per destination, what was acknowledged, so each event is sent once; a batch that keeps failing stops the ' +
    'export (exit status 1) and the next export resumes there. One export at a time per destination: a second ' +
    'one sends nothing and exits 1. An event this rec cannot read (from a newer rec) is left out and counted ' +
    '(exit status 3). Commands, tool input, reasons and partial output ' +
    'are left out unless --include-text; file paths are kept. Protocol and headers: OTEL_EXPORTER_OTLP_PROTOCOL ' +
    '(http/protobuf or http/json) and OTEL_EXPORTER_OTLP_HEADERS. Details: docs/export.md.',
  options: [
    { name: 'otlp', value: 'URL', help: 'an OTLP/HTTP endpoint (http://host:4318 means its /v1/logs)' },
    { name: 'otlp-file', value: 'FILE', help: "append OTLP JSON lines to FILE (a Collector's otlpjsonfile receiver reads them)" },
    RUN,
    { name: 'agent', value: 'AGENT', help: `only this agent's runs: ${EVENT_AGENTS.join(', ')}` },
    { name: 'since', value: 'WHEN', help: `only events since WHEN: ${WHEN_FORMS}; older ones of the runs exported are not sent later` },
    { name: 'include-text', help: 'also send commands, tool input, reasons and partial output (left out by default)' },
    { name: 'user', help: "name your login in the resource's user.name (left out by default)" },
    { name: 'dry-run', help: 'print the records that would be sent (JSON Lines), send nothing, move no cursor' },
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

/** Names as a sentence lists them: `a`, `a and b`, `a, b and c`. */
function listed(names: readonly string[]): string {
  return names.length < 2 ? (names[0] ?? 'no agent') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

export const DOCTOR_SPEC: CommandSpec = {
  name: 'doctor',
  operands: '[AGENT…]',
  operandsFirst: true,
  summary: 'check rec on the installed agent, offline; a version that passes counts as verified',
  description:
    'Runs the agent `rec <agent>` would start under rec in a pty, in a temporary project and HOME, against rec\'s ' +
    'own mock model on 127.0.0.1 (no account, no network, no credential of yours is read), plays the core ' +
    'scenarios (approve; reject by each key; a reason; a parallel batch with one refused; Esc on a running ' +
    'command; Esc while an answer streams) and checks the rows each must give. A version that passes every one ' +
    `counts as verified from then on. Covers ${listed(AGENT_MODULES.filter((m) => m.loadBench !== undefined).map((m) => m.name))}. ` +
    'Exit status: 0 all passed, 1 a scenario failed, 2 refused.',
  options: [
    { name: 'agent-bin', value: 'PATH', help: "the agent's executable (default: the one `rec <agent>` would start)" },
    { name: 'scenario', value: 'NAME', help: "only this scenario of the one agent named (its name or key script); such a run verifies nothing and is not recorded" },
    { name: 'json', help: 'one JSON object per agent, with every scenario' },
    DB,
  ],
};

/** Every subcommand, in the order help lists them. */
export const SUBCOMMAND_SPECS: readonly CommandSpec[] = [DEMO_SPEC, RUNS_SPEC, EVENTS_SPEC, MERGE_SPEC, STATS_SPEC, RULES_SPEC, REPORT_SPEC, PRUNE_SPEC, EXPORT_SPEC, DOCTOR_SPEC, HOOK_SPEC];
