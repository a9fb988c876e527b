// argv → a command. The only place that sets the process's exit status. Commands are loaded with
// dynamic imports so that `rec hook` and `rec <agent>` load only what they need before they act.
import { type CommandIO, ignoreBrokenPipe, UsageError } from './commands/commandIO.js';
import { TerminalSafeStream, escapeControlsKeepLines, outputWidth } from './commands/terminalText.js';

type CommandMain = (args: string[], io: CommandIO) => Promise<number>;

const SUBCOMMANDS: Record<string, () => Promise<CommandMain>> = {
  demo: async () => (await import('./commands/demo.js')).demoCommand,
  runs: async () => (await import('./commands/runs.js')).runsCommand,
  events: async () => (await import('./commands/events.js')).eventsCommand,
  merge: async () => (await import('./commands/merge.js')).mergeCommand,
  stats: async () => (await import('./commands/stats.js')).statsCommand,
  rules: async () => (await import('./commands/rules.js')).rulesCommand,
  report: async () => (await import('./commands/report.js')).reportCommand,
  prune: async () => (await import('./commands/prune.js')).pruneCommand,
  export: async () => (await import('./commands/export.js')).exportCommand,
  doctor: async () => (await import('./commands/doctor.js')).doctorCommand,
  hook: async () => {
    const { hookCommand } = await import('./commands/hook.js');
    return (args, io) => hookCommand(args, { ...io, stdin: process.stdin });
  },
};

export async function main(argv: string[]): Promise<number> {
  const first = argv[0];
  // The agent's run and its hooks keep the real stderr: the run's messages are rec's own, and a
  // hook's stderr belongs to the agent's hook protocol. Every other command speaks through a
  // stream that escapes control characters, since its messages quote files and the database.
  const command = first !== undefined && SUBCOMMANDS[first] ? first : moveLeadingDbFlag(argv)?.command;
  const plain = command === undefined || command === 'hook';
  const stderr = plain ? undefined : new TerminalSafeStream(process.stderr);
  const io: CommandIO = {
    stdout: process.stdout,
    stderr: stderr ?? process.stderr,
    env: process.env,
    cwd: process.cwd(),
    ...(process.stderr.isTTY ? { terminal: process.stderr } : {}),
  };
  const code = await dispatch(argv, io);
  // No command fails without saying why: a bare non-zero status from one of ours is a bug.
  if (code !== 0 && stderr !== undefined && stderr.writes === 0) {
    io.stderr.write(`rec ${command}: failed (exit status ${code}) without saying why; this is a bug in rec\n`);
  }
  return code;
}

async function dispatch(argv: string[], io: CommandIO): Promise<number> {
  const first = argv[0];
  try {
    if (first === '--help' || first === '-h' || first === 'help' || first === '--version' || first === '-V') {
      ignoreBrokenPipe(io); // `rec --help | head -3`
    }
    if (first === '--help' || first === '-h' || first === 'help') {
      const topic = first === 'help' ? argv[1] : undefined;
      if (topic !== undefined && SUBCOMMANDS[topic]) return await (await SUBCOMMANDS[topic]())(['--help'], io);
      const { topHelp } = await import('./commands/help.js');
      io.stdout.write(topHelp(outputWidth(io.stdout)));
      return 0;
    }
    if (first === '--version' || first === '-V') {
      io.stdout.write((await import('./commands/version.js')).readVersion() + '\n');
      return 0;
    }
    const sub = first !== undefined ? SUBCOMMANDS[first] : undefined;
    if (sub) return await (await sub())(argv.slice(1), io);
    const dbFirst = moveLeadingDbFlag(argv);
    if (dbFirst) return await (await SUBCOMMANDS[dbFirst.command]!())(dbFirst.args, io);
    const { parseRunArgs } = await import('./commands/runArgs.js');
    const args = parseRunArgs(argv);
    if (args.help) {
      ignoreBrokenPipe(io);
      const { topHelp } = await import('./commands/help.js');
      io.stdout.write(topHelp(outputWidth(io.stdout)));
      return 0;
    }
    const { runCommand } = await import('./commands/run.js');
    return await runCommand(args, io);
  } catch (err) {
    if (err instanceof UsageError || (err instanceof Error && err.name === 'UsageError')) {
      io.stderr.write(`rec: ${(err as Error).message}\n`);
      return 2;
    }
    io.stderr.write(`rec: ${escapeControlsKeepLines(err instanceof Error ? err.message : String(err))}\n`);
    if (process.env.REC_DEBUG === '1' && err instanceof Error) io.stderr.write(`${err.stack}\n`);
    return 1;
  }
}

/** `rec --db PATH events …` means `rec events --db PATH …`: the flag may come first, as for runs. */
function moveLeadingDbFlag(argv: string[]): { command: string; args: string[] } | undefined {
  const [flag, value] = argv;
  let dbArgs: string[];
  let rest: string[];
  if (flag === '--db' && value !== undefined) [dbArgs, rest] = [['--db', value], argv.slice(2)];
  else if (flag?.startsWith('--db=')) [dbArgs, rest] = [[flag], argv.slice(1)];
  else return undefined;
  const command = rest[0];
  if (command === undefined || command === 'hook' || !SUBCOMMANDS[command]) return undefined;
  return { command, args: [...dbArgs, ...rest.slice(1)] };
}

/** After this long past the command's end, exit even if a stray handle keeps the loop alive. */
const EXIT_GRACE_MS = 2000;

// dispatch() turns a command's throw into a message and a status; anything that still rejects is
// a bug, left to Node's unhandled-rejection report (the stack, exit status 1).
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
});
