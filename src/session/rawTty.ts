// Raw mode for the user's terminal, entered in one place and restored on every exit path.
// libuv saves the original termios on the first setRawMode(true) and setRawMode(false) puts it
// back byte for byte, so `stty -g` before and after is identical.
import type { ReadStream } from 'node:tty';

export interface RawTty {
  restore(): void;
}

export function enterRawMode(stdin: ReadStream): RawTty {
  stdin.setRawMode(true);
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
