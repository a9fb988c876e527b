// The user's window size, read from whichever standard stream is a terminal.
import type { WriteStream } from 'node:tty';

export interface TerminalSize {
  cols: number;
  rows: number;
}

/** What a terminal with no size to report is taken to be (the VT100 default). */
const DEFAULT_SIZE: TerminalSize = { cols: 80, rows: 24 };

export function terminalSize(): TerminalSize {
  for (const stream of [process.stdout, process.stderr] as WriteStream[]) {
    if (stream.isTTY && stream.columns > 0 && stream.rows > 0) return { cols: stream.columns, rows: stream.rows };
  }
  return DEFAULT_SIZE;
}
