// The only code that talks to node-pty: spawn the agent, pass bytes both ways, resize, and
// report the exit only after the last byte the agent wrote has been read (node-pty #85, #726).
import * as pty from 'node-pty';
import { Emitter, type Event } from '../core/lifecycle.js';
import type { ExitInfo } from './exitStatus.js';

export const enum ShutdownConstants {
  /**
   * After the child exits, node-pty destroys its read socket if no EOF/EIO came within 200 ms,
   * which drops whatever the kernel still buffers when the reader is slow (a slow outer terminal
   * blocks our synchronous stdout writes). We keep draining while data still flows: the socket is
   * destroyed only once this long has passed without a byte.
   */
  DataFlushIdleMs = 100,
  /** Give up draining after this long, for a grandchild that keeps the pty open forever. */
  MaximumDrainMs = 5000,
}

export interface PtySpawnOptions {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly cols: number;
  readonly rows: number;
  readonly term: string;
}

interface NodePtyInternals {
  _socket?: { destroy: (...args: unknown[]) => unknown; destroyed?: boolean };
}

export class PtySession {
  private readonly _onData = new Emitter<Buffer>();
  readonly onData: Event<Buffer> = this._onData.event;
  private readonly _pty: pty.IPty;
  private _lastDataAt = Date.now();
  private _exitedAt: number | undefined;
  /** Resolves once the agent exited and its output has been drained. */
  readonly exited: Promise<ExitInfo>;

  constructor(opts: PtySpawnOptions) {
    this._pty = pty.spawn(opts.file, [...opts.args], {
      name: opts.term,
      cols: opts.cols,
      rows: opts.rows,
      cwd: opts.cwd,
      env: opts.env as Record<string, string>,
      // Buffers end to end: no decoding, no re-encoding, byte-identical passthrough.
      encoding: null,
    } as pty.IPtyForkOptions);
    this._guardDrain();
    this._pty.onData((data) => {
      this._lastDataAt = Date.now();
      this._onData.fire(data as unknown as Buffer);
    });
    this.exited = new Promise((resolve) => {
      this._pty.onExit(({ exitCode, signal }) => resolve({ exitCode, signal: signal || undefined }));
    });
  }

  get pid(): number {
    return this._pty.pid;
  }

  write(data: Buffer): void {
    this._pty.write(data);
  }

  resize(cols: number, rows: number): void {
    try {
      this._pty.resize(cols, rows);
    } catch {
      // The pty is already closed (the agent exited between SIGWINCH and here): nothing to resize.
    }
  }

  kill(signal: NodeJS.Signals): void {
    try {
      process.kill(this._pty.pid, signal);
    } catch {
      // ESRCH: the agent is already gone.
    }
  }

  /**
   * node-pty's exit path calls `_socket.destroy()` from a fixed 200 ms timer; we defer that call
   * while output is still arriving, so the tail of the output is never dropped.
   */
  private _guardDrain(): void {
    const socket = (this._pty as unknown as NodePtyInternals)._socket;
    if (!socket) return; // A node-pty without the private socket: keep its own behaviour.
    const originalDestroy = socket.destroy.bind(socket);
    socket.destroy = (...args: unknown[]) => {
      this._exitedAt ??= Date.now();
      const now = Date.now();
      const idleFor = now - this._lastDataAt;
      if (idleFor >= ShutdownConstants.DataFlushIdleMs || now - this._exitedAt >= ShutdownConstants.MaximumDrainMs) {
        return originalDestroy(...args);
      }
      setTimeout(() => socket.destroy(...args), ShutdownConstants.DataFlushIdleMs - idleFor);
      return socket;
    };
  }
}
