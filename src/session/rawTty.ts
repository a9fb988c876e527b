// Raw mode for the user's terminal, entered in one place and restored on every exit path.
// libuv saves the original termios on the first setRawMode(true) and setRawMode(false) puts it
// back whole, so `stty -g` before and after is identical.
import type { ReadStream } from 'node:tty';

export interface RawTty {
  /** Resolves when the terminal is fully set up; output must wait for it (see below). */
  readonly ready: Promise<void>;
  /** Restores the original mode; waits for the set-up to finish so it cannot undo the restore. */
  restore(): Promise<void>;
}

export function enterRawMode(stdin: ReadStream): RawTty {
  stdin.setRawMode(true);
  // libuv's raw mode keeps output post-processing (ONLCR) on, so every "\n" the agent's own pty
  // already turned into "\r\n" would become "\r\r\n" here. A transparent relay passes bytes as
  // they are, as script(1) does with cfmakeraw: turn OPOST off too. Node has no API for it, so
  // stty does it — asynchronously, so the agent starts meanwhile instead of waiting for it.
  // Spawned on the next turn: the caller starts the agent first (a fork costs the main thread a few
  // ms, and the agent's start-up is what the user waits for).
  const ready = new Promise<void>((resolve) => {
    setImmediate(() => {
      // Loaded here, not at start-up: child_process costs ~4 ms to load, before the agent could start.
      import('node:child_process').then(
        ({ spawn }) => {
          const stty = spawn('stty', ['-opost'], { stdio: [stdin, 'ignore', 'ignore'] });
          // No stty on this system: output keeps ONLCR, which only doubles carriage returns.
          stty.on('error', () => resolve());
          stty.on('exit', () => resolve());
        },
        // Cannot happen for a builtin; if it did, output must still flow (with ONLCR on).
        () => resolve(),
      );
    });
  });
  let restored = false;
  const restoreNow = () => {
    if (restored) return;
    restored = true;
    try {
      stdin.setRawMode(false);
    } catch {
      // EBADF/EIO: the terminal itself is gone (hangup); there is no mode left to restore.
    }
  };
  // The last resort: any exit of the process, including an uncaught exception, restores the mode.
  process.once('exit', restoreNow);
  return {
    ready,
    restore: async () => {
      await ready;
      restoreNow();
    },
  };
}
