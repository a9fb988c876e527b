// Raw mode for the user's terminal, entered in one place and restored on every exit path.
// libuv saves the original termios on the first setRawMode(true) and setRawMode(false) puts it
// back whole, so `stty -g` before and after is identical.
import { spawnSync } from 'node:child_process';
import type { ReadStream } from 'node:tty';

export interface RawTty {
  restore(): void;
}

export function enterRawMode(stdin: ReadStream): RawTty {
  stdin.setRawMode(true);
  // libuv's raw mode keeps output post-processing (ONLCR) on, so every "\n" the agent's own pty
  // already turned into "\r\n" would become "\r\r\n" here. A transparent relay passes bytes as
  // they are, as script(1) does with cfmakeraw: turn OPOST off too. Node has no API for it.
  // Without stty on the system, output keeps ONLCR, which only doubles carriage returns.
  spawnSync('stty', ['-opost'], { stdio: [stdin, 'ignore', 'ignore'] });
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    try {
      stdin.setRawMode(false);
    } catch {
      // EBADF/EIO: the terminal itself is gone (hangup); there is no mode left to restore.
    }
  };
  // The last resort: any exit of the process, including an uncaught exception, restores the mode.
  process.once('exit', restore);
  return { restore };
}
