// `rec [options] <agent> [agent args…]` and `rec [options] -- <command> [args…]`.
// Everything after the agent name (or after --) belongs to the agent, untouched, even when it
// looks like a rec flag. Hand-written on purpose: this runs before the agent starts, so it must
// load nothing heavy.
import { KNOWN_AGENTS as AGENTS, type KnownAgent } from '../core/agentNames.js';
import { UsageError } from './commandIO.js';

export interface RunArgs {
  /** A known agent, or undefined for `rec -- <command>`. */
  readonly agent: KnownAgent | undefined;
  /** The command for `--`, or the agent binary override. */
  readonly command: string | undefined;
  readonly args: readonly string[];
  readonly db: string | undefined;
  readonly agentBin: string | undefined;
}

const VALUE_FLAGS = new Set(['--db', '--agent-bin']);

export function parseRunArgs(argv: readonly string[]): RunArgs {
  let db: string | undefined;
  let agentBin: string | undefined;
  let i = 0;
  for (; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      const command = argv[i + 1];
      if (!command) throw new UsageError('missing command after --');
      return { agent: undefined, command, args: argv.slice(i + 2), db, agentBin };
    }
    if (!arg.startsWith('-')) break;
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (!VALUE_FLAGS.has(name)) throw new UsageError(`unknown option ${JSON.stringify(arg)}`);
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '') throw new UsageError(`${name} needs a value`);
    if (name === '--db') db = value;
    else agentBin = value;
  }
  const agent = argv[i];
  if (agent === undefined) throw new UsageError('missing agent (codex, gemini, claude) or -- <command>');
  if (!(AGENTS as readonly string[]).includes(agent)) {
    throw new UsageError(`unknown agent or command ${JSON.stringify(agent)} (agents: ${AGENTS.join(', ')}; or -- <command>)`);
  }
  return { agent: agent as KnownAgent, command: undefined, args: argv.slice(i + 1), db, agentBin };
}
