// What every reporting command (runs, events, merge, stats) does alike: parse its arguments from
// its spec, answer --help, report a mistake in one line, and survive a reader that leaves early.
import { ignoreBrokenPipe, UsageError, type CommandIO } from './commandIO.js';

export { ignoreBrokenPipe };
import type { CommandSpec } from './commandSpec.js';
import { commandHelp } from './help.js';
import { parseCommandArgs, type ParsedArgs } from './parseCommandArgs.js';
import { escapeControls, outputWidth } from './terminalText.js';
import { INCOMPLETE_EXIT_STATUS } from '../core/diagnostic.js';
import type { SidecarDb } from '../store/sidecarDb.js';
import { plural } from './formatTable.js';

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

/**
 * After a listing: the rows the database held but this rec could not decode (a damaged file, or a
 * newer rec's vocabulary), one escaped line each on stderr, then the exit status. The listing is
 * incomplete then (status 3, as for merge and stats), never silently short.
 */
export function reportSkippedRows(db: SidecarDb, command: string, io: CommandIO): number {
  const skipped = db.skippedRows();
  for (const row of skipped) io.stderr.write(escapeControls(`rec ${command}: ${db.path}: ${row.table} row ${row.id} could not be read: ${row.problem}`) + '\n');
  if (skipped.length === 0) return 0;
  io.stderr.write(`rec ${command}: incomplete: ${plural(skipped.length, 'row')} left out (exit status ${INCOMPLETE_EXIT_STATUS})\n`);
  return INCOMPLETE_EXIT_STATUS;
}
