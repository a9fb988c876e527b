// @ts-check
// One program run under a pty that the bench process owns: the "outer terminal" of every figure.
// Bytes stay Buffers (encoding null), as a real terminal emulator would read them.
import { readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { MemoryWatcher, readCpuSeconds } from './procStats.mjs';

const require = createRequire(import.meta.url);
const pty = require('node-pty');

/** The outer terminal's size: a common agent window. */
export const OUTER_COLS = 120;
export const OUTER_ROWS = 40;

/** How much of the output's end is kept, to show rec's own closing messages (e.g. a failed part). */
const TAIL_BYTES = 4096;

/**
 * After a run is over, how long a program that does not exit by itself gets after SIGTERM before
 * SIGKILL (every program here exits at once on SIGTERM; this only guards against a hang).
 */
export const KILL_GRACE_MS = 3000;

/**
 * node-pty destroys its read socket 200 ms after the child exits, dropping whatever the kernel still
 * buffers when the reader is behind (node-pty #85, #726): at 200 MB a bare `cat` exits while the
 * outer pty still holds its tail. As rec's PtySession does, the bench defers that destroy while
 * output keeps arriving, until this long has passed without a byte.
 */
const DRAIN_IDLE_MS = 100;

export class PtyProcess {
  /**
   * @param {{file: string, args: string[], env: NodeJS.ProcessEnv, watchMemory?: boolean}} opts
   */
  constructor(opts) {
    this.bytes = 0;
    this._tail = [];
    this._tailBytes = 0;
    this._matchers = [];
    /** Called with every chunk, after the bookkeeping (used by the latency probe). */
    this.onChunk = undefined;
    this.startedAt = performance.now();
    this._pty = pty.spawn(opts.file, opts.args, {
      name: 'xterm-256color',
      cols: OUTER_COLS,
      rows: OUTER_ROWS,
      cwd: process.cwd(),
      env: opts.env,
      encoding: null,
    });
    this.pid = this._pty.pid;
    this._lastDataAt = performance.now();
    this._drained = false;
    this._guardDrain();
    this._memory = opts.watchMemory ? new MemoryWatcher(this.pid) : undefined;
    this._pty.onData((chunk) => this._handleData(chunk));
    this.exited = new Promise((resolve) => {
      this._pty.onExit(({ exitCode, signal }) => {
        const hwmKb = this._memory?.stop();
        // node-pty reports the exit after the read side closed: nothing more can arrive.
        for (const m of this._matchers) this._unmatched(m, `the program exited (code ${exitCode}) before printing it`, true);
        resolve({ exitCode, signal: signal || undefined, ms: performance.now() - this.startedAt, hwmKb });
      });
    });
  }

  write(data) {
    this._pty.write(data);
  }

  /** Peak RSS seen so far (kB), when watching memory. */
  get hwmKb() {
    return this._memory?.hwmKb;
  }

  /** CPU seconds the spawned process itself has used so far (not its children). */
  cpuSeconds() {
    return readCpuSeconds(this.pid);
  }

  /**
   * Resolves with the ms from spawn to the moment `marker` (a string) has been read; rejects after
   * `timeoutMs`. Call it right after the constructor: only output read after the call is searched.
   */
  waitFor(marker, timeoutMs) {
    const needle = Buffer.from(marker);
    return new Promise((resolve, reject) => {
      const matcher = { needle, carry: Buffer.alloc(0), resolve, reject, marker, timer: /** @type {NodeJS.Timeout | undefined} */ (undefined) };
      matcher.timer = setTimeout(() => this._unmatched(matcher, `not within ${timeoutMs} ms`), timeoutMs);
      this._matchers.push(matcher);
    });
  }

  /** The last few kB of output, decoded for display. */
  tail() {
    return Buffer.concat(this._tail).toString('utf8');
  }

  /** Ends the program: SIGTERM, then SIGKILL if it is still there after KILL_GRACE_MS. */
  async stop() {
    const guard = setTimeout(() => this._signal('SIGKILL'), KILL_GRACE_MS);
    this._signal('SIGTERM');
    const exit = await this.exited;
    clearTimeout(guard);
    return exit;
  }

  _signal(sig) {
    try {
      process.kill(this.pid, sig);
    } catch {
      // ESRCH: it has already exited.
    }
  }

  _guardDrain() {
    // node-pty's private parts (1.1.0): the socket over the pty's fd, and the fd.
    const internals = /** @type {{ _socket?: import('node:net').Socket, _fd?: unknown }} */ (/** @type {unknown} */ (this._pty));
    const socket = internals._socket;
    if (!socket) return; // A node-pty without the private socket: keep its own behaviour.
    // libuv ends a read stream at POLLHUP after one short read (UV_HANDLE_READ_PARTIAL), and every
    // pty read is short (≤ 4095 bytes), so when the reader is behind at the child's exit the rest is
    // left in the kernel: read it synchronously while the fd is still open.
    const fd = internals._fd;
    if (typeof fd === 'number') socket.on('end', () => this._drainRest(fd));
    const destroy = socket.destroy.bind(socket);
    socket.destroy = (...args) => {
      // After an EOF (drained above) or an error such as EIO (the kernel had nothing left) there is
      // nothing to wait for; deferring would only add to the exit times being measured.
      if (this._drained || args[0] instanceof Error) return destroy(...args);
      const idleFor = performance.now() - this._lastDataAt;
      if (idleFor >= DRAIN_IDLE_MS) return destroy(...args);
      setTimeout(() => socket.destroy(...args), DRAIN_IDLE_MS - idleFor);
      return socket;
    };
  }

  _drainRest(fd) {
    const buf = Buffer.allocUnsafe(64 * 1024);
    for (;;) {
      let n;
      try {
        n = readSync(fd, buf, 0, buf.length, null);
      } catch {
        // EIO: the other side is closed and nothing is left; EAGAIN: someone still holds it open.
        break;
      }
      if (n <= 0) break;
      this._handleData(Buffer.from(buf.subarray(0, n)));
    }
    this._drained = true;
  }

  _handleData(chunk) {
    this._lastDataAt = performance.now();
    this.bytes += chunk.length;
    this._tail.push(chunk);
    this._tailBytes += chunk.length;
    while (this._tail.length > 1 && this._tailBytes - this._tail[0].length >= TAIL_BYTES) {
      this._tailBytes -= this._tail.shift().length;
    }
    if (this._matchers.length > 0) this._match(chunk);
    this.onChunk?.(chunk);
  }

  _match(chunk) {
    for (const m of [...this._matchers]) {
      const n = m.needle.length;
      // The marker may straddle two reads: look at the previous read's end joined to this one's start.
      const boundary = m.carry.length ? Buffer.concat([m.carry, chunk.subarray(0, n - 1)]) : undefined;
      if ((boundary && boundary.includes(m.needle)) || chunk.includes(m.needle)) {
        this._matched(m);
        continue;
      }
      const joined = chunk.length >= n - 1 ? chunk.subarray(chunk.length - (n - 1)) : Buffer.concat([m.carry, chunk]);
      m.carry = joined.subarray(Math.max(0, joined.length - (n - 1)));
    }
  }

  _unmatched(m, why, exited = false) {
    clearTimeout(m.timer);
    this._matchers = this._matchers.filter((x) => x !== m);
    const err = /** @type {Error & { exited?: boolean, bytes?: number }} */ (new Error(`no ${JSON.stringify(m.marker)}: ${why}; ${this.bytes} bytes read, ending with ${JSON.stringify(this.tail().slice(-200))}`));
    err.exited = exited;
    err.bytes = this.bytes;
    m.reject(err);
  }

  _matched(m) {
    clearTimeout(m.timer);
    this._matchers = this._matchers.filter((x) => x !== m);
    m.resolve(performance.now() - this.startedAt);
  }
}
