// The only code that talks to node-pty: spawn the agent, pass bytes both ways, resize, and
// report the exit only after the last byte the agent wrote has been read (see ptyDrain.ts).
import { writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as NodePty from 'node-pty';
import { Emitter, type Event } from '../core/lifecycle.js';
import type { ExitInfo } from './exitStatus.js';
import { deferDestroyUntilDrained, drainAfterEnd } from './ptyDrain.js';

// Loaded with require: importing the CommonJS package as ESM makes Node scan its source for named
// exports first, which costs start-up time the agent would wait for.
const pty = createRequire(import.meta.url)('node-pty') as typeof NodePty;

/** node-pty 1.1.0's Unix internals used by write(); absent in another version, which then falls back. */
interface NodePtyWriteInternals {
  _fd?: number;
  _writeStream?: { _writeQueue?: unknown[] };
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

export class PtySession {
  private readonly _onData = new Emitter<Buffer>();
  readonly onData: Event<Buffer> = this._onData.event;
  private readonly _pty: NodePty.IPty;
  private _dataCount = 0;
  /** Input after the exit (a held Esc whose timer fires late) has nowhere to go: it is dropped. */
  private _exitedAlready = false;
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
    } as NodePty.IPtyForkOptions);
    deferDestroyUntilDrained(this._pty, () => this._dataCount);
    const fire = (data: Buffer) => {
      this._dataCount++;
      this._onData.fire(data);
    };
    this._pty.onData((data) => fire(data as unknown as Buffer));
    drainAfterEnd(this._pty, fire);
    this.exited = new Promise((resolve) => {
      this._pty.onExit(({ exitCode, signal }) => {
        this._exitedAlready = true;
        resolve({ exitCode, signal: signal || undefined });
      });
    });
  }

  get pid(): number {
    return this._pty.pid;
  }

  /**
   * Keys go straight to the pty with one write(2): node-pty's own write goes through fs.write on
   * libuv's thread pool, a thread hop on every keystroke. Only when the kernel buffer is full
   * (EAGAIN, a large paste) or node-pty still has queued bytes does the rest go to node-pty's queue,
   * which keeps the order and retries.
   */
  write(data: Buffer): void {
    if (this._exitedAlready) return;
    const internals = this._pty as unknown as NodePtyWriteInternals;
    const fd = internals._fd;
    const queued = internals._writeStream?._writeQueue;
    if (fd === undefined || !queued || queued.length > 0) {
      this._pty.write(data);
      return;
    }
    let written = 0;
    try {
      written = writeSync(fd, data);
    } catch {
      // EAGAIN: the pty's buffer is full; EIO: the agent is gone. node-pty's queue handles both.
    }
    if (written < data.length) this._pty.write(written ? data.subarray(written) : data);
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
}
