// What every reporting command (runs, events, merge, stats) does alike: parse its arguments from
// its spec, answer --help, report a mistake in one line, and survive a reader that leaves early.
import { UsageError, type CommandIO } from './commandIO.js';
import type { CommandSpec } from './commandSpec.js';
import { commandHelp } from './help.js';
import { parseCommandArgs, type ParsedArgs } from './parseCommandArgs.js';
import { outputWidth } from './terminalText.js';

/**
 * A reader that goes away early (`rec events --json | head -1`) makes stdout fail with EPIPE after
 * our write returned; without a listener Node would crash with a stack trace. The listener stays
 * for the life of the process, since the error arrives after the command returned.
 */
export function ignoreBrokenPipe(io: CommandIO): void {
  if (io.stdout.listeners('error').includes(onStdoutError)) return;
  io.stdout.on('error', onStdoutError);
}

function onStdoutError(err: NodeJS.ErrnoException): void {
  // EPIPE: the reader closed the pipe; there is no one left to tell. Anything else is a real problem.
  if (err.code === 'EPIPE') return;
  process.stderr.write(`rec: cannot write output: ${err.message}\n`);
}

/**
 * Parses a command's arguments and checks its values (`check` throws UsageError). Returns the
 * parsed arguments, or the exit status after `--help` (0) or a mistake (2, one line on stderr).
 */
export function parseOrReport(spec: CommandSpec, args: readonly string[], io: CommandIO, check: (p: ParsedArgs) => void = () => undefined): ParsedArgs | number {
  try {
    const parsed = parseCommandArgs(spec, args);
    if (parsed.help) {
      io.stdout.write(commandHelp(spec, outputWidth(io.stdout)));
      return 0;
    }
    check(parsed);
    return parsed;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr.write(`rec ${spec.name}: ${err.message}\n`);
    return 2;
  }
}
