// What every reporting command (runs, events, merge, stats) does alike: parse its arguments from
// its spec, answer --help, report a mistake in one line, and survive a reader that leaves early.
import { ignoreBrokenPipe, UsageError, type CommandIO } from './commandIO.js';

export { ignoreBrokenPipe };
import type { CommandSpec } from './commandSpec.js';
import { commandHelp } from './help.js';
import { parseCommandArgs, type ParsedArgs } from './parseCommandArgs.js';
import { outputWidth } from './terminalText.js';

/**
 * Parses a command's arguments and checks its values (`check` throws UsageError). Returns the
 * parsed arguments, or the exit status after `--help` (0) or a mistake (2, one line on stderr).
 */
export function parseOrReport(spec: CommandSpec, args: readonly string[], io: CommandIO, check: (p: ParsedArgs) => void = () => undefined): ParsedArgs | number {
  try {
    const parsed = parseCommandArgs(spec, args);
    if (parsed.help) {
      ignoreBrokenPipe(io); // `rec merge --help | head -3`
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
