// `rec [options] <agent> [agent args…]` and `rec [options] -- <command> [args…]`.
// Everything after the agent name (or after --) belongs to the agent, untouched, even when it
// looks like a rec option. Light on purpose: this runs before the agent starts.
import { UsageError } from './commandIO.js';
import { AGENTS, RUN_SPEC } from './commandSpec.js';
import { parseCommandArgs, quote } from './parseCommandArgs.js';

export { AGENTS };

export interface RunArgs {
  /** A known agent, or undefined for `rec -- <command>`. */
  /** A registered agent's name (agents/registry.ts), checked here. */
  readonly agent: string | undefined;
  /** The command for `--`, or the agent binary override. */
  readonly command: string | undefined;
  readonly args: readonly string[];
  readonly db: string | undefined;
  readonly agentBin: string | undefined;
}

/** Parses rec's own options up to the agent's name; `help` when -h/--help came before it. */
export function parseRunArgs(argv: readonly string[]): RunArgs & { help?: true } {
  const parsed = parseCommandArgs(RUN_SPEC, argv, { stopAtOperand: true });
  const db = parsed.values.db as string | undefined;
  const agentBin = parsed.values['agent-bin'] as string | undefined;
  if (parsed.help) return { agent: undefined, command: undefined, args: [], db, agentBin, help: true };
  const [first, ...rest] = parsed.rest;
  if (first === '--') {
    const [command, ...args] = rest;
    if (!command) throw new UsageError('missing command after -- (rec -- COMMAND [ARGS…])');
    return { agent: undefined, command, args, db, agentBin };
  }
  if (first === undefined) throw new UsageError(`missing agent (${AGENTS.join(', ')}) or -- COMMAND (rec --help lists the commands)`);
  if (!AGENTS.includes(first)) {
    throw new UsageError(`unknown command or agent '${quote(first)}': expected one of ${AGENTS.join(', ')}, a command (rec --help lists them) or -- COMMAND`);
  }
  return { agent: first, command: undefined, args: rest, db, agentBin };
}
