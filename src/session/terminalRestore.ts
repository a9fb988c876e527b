// Undoing what the agent left on in the user's terminal (see terminalModes.ts), once, after its last
// bytes: on every exit path that reaches the end of the run (the agent exits, is killed, or rec is
// sent SIGTERM/SIGHUP and forwards it), and as a last resort when rec itself crashes.
import { writeSync } from 'node:fs';
import { TerminalModes } from './terminalModes.js';

export interface TerminalModeGuard {
  /** Every chunk of the agent's output, before or as it is written to the terminal. */
  scan(chunk: Buffer): void;
  /** Writes the restore (nothing when the agent cleaned up) after everything written before it. */
  restore(): Promise<void>;
}

export function guardTerminalModes(stdout: NodeJS.WriteStream & { readonly fd: number }): TerminalModeGuard {
  const modes = new TerminalModes();
  let done = false;
  let broken = false;
  // The last resort, like rawTty's: an uncaught exception in rec still leaves a usable terminal.
  // Synchronous, as an exit handler must be; stdout to a terminal or pipe is synchronous on Linux
  // too, so these bytes still come after the agent's.
  const onExit = () => {
    if (done) return;
    done = true;
    const bytes = modes.restoreSequence();
    if (bytes === '') return;
    try {
      writeSync(stdout.fd, bytes);
    } catch {
      // EIO/EBADF: the terminal is gone (hangup); there is nothing left to restore.
    }
  };
  process.once('exit', onExit);
  return {
    scan: (chunk) => {
      if (broken) return;
      try {
        modes.scan(chunk);
      } catch {
        // A bug in the scanner must not stop the passthrough: stop tracking, and restore nothing
        // rather than something wrong.
        broken = true;
        done = true;
      }
    },
    restore: () => {
      process.off('exit', onExit);
      if (done) return Promise.resolve();
      done = true;
      const bytes = modes.restoreSequence();
      if (bytes === '') return Promise.resolve();
      return new Promise<void>((resolve) => {
        // A write to a terminal that hung up fails with EIO, reported to the callback and then as
        // an 'error' event; there is no terminal left to restore then, so neither may crash rec.
        // The listener stays: the event comes after the callback, and rec writes nothing after this.
        stdout.on('error', ignoreWriteError);
        try {
          stdout.write(bytes, () => resolve());
        } catch {
          resolve();
        }
      });
    },
  };
}

function ignoreWriteError(): void {
  // See restore(): the terminal is gone.
}
