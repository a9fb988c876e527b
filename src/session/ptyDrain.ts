// node-pty's exit path (unixTerminal.ts) destroys the pty's read socket from a fixed 200 ms timer
// when no EIO/EOF came by then: "Sometimes a data event is emitted after exit". Whatever the kernel
// still buffers is then dropped (node-pty #85, #726) — easily, when the process was descheduled or
// its stdout writes were slow. Here the destroy is deferred until a whole event-loop turn (which
// includes a poll phase, where a readable pty is read) brought no data: the buffer is empty.
import { readSync } from 'node:fs';
import type { IPty } from 'node-pty';

/** Give up draining after this long, for a grandchild that keeps the pty open and writing forever. */
export const MAXIMUM_DRAIN_MS = 5000;

interface NodePtyInternals {
  _socket?: { destroy: (...args: unknown[]) => unknown };
}

/**
 * Wraps the pty's socket destroy. `dataCount` must return a number that grows with every data
 * event. Returns false when this node-pty has no such socket (its own behaviour is kept then).
 */
export function deferDestroyUntilDrained(ptyProcess: IPty, dataCount: () => number): boolean {
  const socket = (ptyProcess as unknown as NodePtyInternals)._socket;
  if (!socket) return false;
  const destroy = socket.destroy.bind(socket);
  let firstRequestAt: number | undefined;
  socket.destroy = (...args: unknown[]) => {
    firstRequestAt ??= Date.now();
    const seen = dataCount();
    // setImmediate inside setImmediate: at least one poll phase runs in between.
    setImmediate(() =>
      setImmediate(() => {
        if (dataCount() === seen || Date.now() - firstRequestAt! >= MAXIMUM_DRAIN_MS) destroy(...args);
        else socket.destroy(...args);
      }),
    );
    return socket;
  };
  return true;
}

interface NodePtyFd {
  _fd?: number;
  _socket?: { on(event: 'end', listener: () => void): unknown };
}

/** Large enough that one read takes all a pty can hold (the line discipline buffers 4 KiB). */
const DRAIN_READ_BYTES = 64 * 1024;

/**
 * libuv ends a pty's read stream at hang-up after a short read, while the kernel may still hold the
 * agent's last output (every pty read is short, so "short" says nothing). When the stream ends,
 * read the still-open master fd directly until it reports empty (0, EAGAIN) or closed (EIO), and
 * hand each chunk on, in order, before node-pty reports the exit.
 */
export function drainAfterEnd(ptyProcess: IPty, onData: (chunk: Buffer) => void): boolean {
  const internals = ptyProcess as unknown as NodePtyFd;
  const fd = internals._fd;
  if (fd === undefined || !internals._socket) return false;
  internals._socket.on('end', () => {
    const buf = Buffer.allocUnsafe(DRAIN_READ_BYTES);
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buf, 0, buf.length, null);
      } catch {
        // EIO: the agent's side is closed and nothing is left; EAGAIN: nothing is left right now;
        // EBADF: node-pty closed the fd already. All mean the drain is done.
        return;
      }
      if (n <= 0) return;
      onData(Buffer.from(buf.subarray(0, n)));
    }
  });
  return true;
}
