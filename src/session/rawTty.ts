// Raw mode for the user's terminal, entered in one place and restored on every exit path.
// libuv saves the original termios on the first setRawMode(true) and setRawMode(false) puts it
// back whole, so `stty -g` before and after is identical.
import { existsSync, readFileSync } from 'node:fs';
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
  let restored = false;
  // The stty child while it runs: the exit hook must not let it turn OPOST off after the restore.
  let pendingStty: number | undefined;
  const ready = new Promise<void>((resolve) => {
    setImmediate(() => {
      // Loaded here, not at start-up: loading child_process would delay the agent's start (docs/benchmarks.md).
      import('node:child_process').then(
        ({ spawn }) => {
          if (restored) return resolve();
          const stty = spawn('stty', ['-opost'], { stdio: [stdin, 'ignore', 'ignore'] });
          pendingStty = stty.pid;
          const done = () => {
            pendingStty = undefined;
            resolve();
          };
          // No stty on this system: output keeps ONLCR, which only doubles carriage returns.
          stty.on('error', done);
          stty.on('exit', done);
        },
        // Cannot happen for a builtin; if it did, output must still flow (with ONLCR on).
        () => resolve(),
      );
    });
  });
  const restoreNow = () => {
    if (restored) return;
    restored = true;
    // An early exit (an uncaught exception while stty still runs): stop stty and wait until it is
    // dead, or its -opost could land after the restore below and leave the terminal without OPOST.
    if (pendingStty !== undefined) stopAndAwait(pendingStty);
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

/**
 * Kills a child and waits, synchronously (an exit hook cannot await), until it has stopped running:
 * gone, or a zombie not yet reaped. Linux's /proc tells; without /proc it waits a short fixed time.
 */
function stopAndAwait(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return; // already gone
  }
  const deadline = Date.now() + STOP_WAIT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (Date.now() < deadline) {
    const state = processState(pid);
    if (state === 'gone' || state === 'Z' || state === 'X') return;
    if (state === 'unknown') {
      Atomics.wait(pause, 0, 0, UNKNOWN_STATE_WAIT_MS);
      return;
    }
    Atomics.wait(pause, 0, 0, 1);
  }
}

const STOP_WAIT_MS = 500;
const UNKNOWN_STATE_WAIT_MS = 20;

function processState(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // "pid (comm) S …": the state follows the last ")", since comm may hold spaces or parentheses.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && existsSync('/proc/self/stat')) return 'gone';
    return 'unknown';
  }
}
