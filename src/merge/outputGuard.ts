// Watches the stream a command writes its results to. When the reader goes away (`rec merge |
// head -1`), writing fails with EPIPE, or the stream closes: the work is then moot, so the guard
// aborts its signal (the pool stops reading files) and the command exits quietly with status 0.
import type { Writable } from 'node:stream';

export class OutputGuard {
  private readonly _abort = new AbortController();
  private readonly _onError = (err: NodeJS.ErrnoException): void => this._gone(err);
  private readonly _onClose = (): void => this._gone(null);
  private _failure: string | null = null;

  constructor(
    private readonly _out: Writable,
    private readonly _err: Writable,
    private readonly _command: string,
  ) {
    // Stays on the stream for the life of the process: an EPIPE can arrive after the last write
    // returned, and with no listener Node would crash with a stack trace.
    _out.on('error', this._onError);
    _out.on('close', this._onClose);
  }

  /** Aborted once nobody reads the output any more. */
  get signal(): AbortSignal {
    return this._abort.signal;
  }

  get closed(): boolean {
    return this._abort.signal.aborted;
  }

  /** A write failure other than the reader leaving (disk full, EIO): the run then fails. */
  get failure(): string | null {
    return this._failure;
  }

  /**
   * Writes and resolves once the stream is done with `data` (its write callback), so the caller
   * may then reuse the buffer, and one session at most waits in the stream: that is the
   * backpressure. Resolves at once when the output is gone, so the run never hangs.
   */
  write(data: string | Uint8Array): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        this._abort.signal.removeEventListener('abort', done);
        resolve();
      };
      this._abort.signal.addEventListener('abort', done, { once: true });
      // An error also reaches the 'error' listener, which aborts; the callback only says "done".
      this._out.write(data, () => done());
    });
  }

  private _gone(err: NodeJS.ErrnoException | null): void {
    // EPIPE / a destroyed or closed stream: the reader left, which is its right; nothing to report.
    const quiet = err === null || err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED';
    if (!quiet && this._failure === null) {
      this._failure = err.message;
      this._err.write(`rec ${this._command}: cannot write the output: ${err.message}\n`);
    }
    if (!this._abort.signal.aborted) this._abort.abort();
  }
}
