// The headless screen model: the agent's output, parsed by @xterm/headless off the passthrough's
// hot path. The caller writes each chunk to stdout first and then calls write(), which only
// queues; slices of the queue are fed to xterm with write-callback flow control, at a bounded
// share of the time while output keeps coming, and at full speed once it pauses.
import { performance } from 'node:perf_hooks';
import xtermHeadless from '@xterm/headless';
import type { Terminal as XtermTerminal } from '@xterm/headless';
import { Emitter, type Disposable, type Event } from '../core/lifecycle.js';
import type { ScreenSnapshot, ScreenView } from '../core/screen.js';
import { ByteBacklog } from './byteBacklog.js';
import { toScreenSnapshot } from './screenSnapshot.js';

// @xterm/headless is CommonJS: under ESM its exports arrive as the default export.
const { Terminal } = xtermHeadless;

/**
 * Most bytes handed to xterm in one write(). xterm parses a write in one go, so this bounds how
 * long one slice holds the event loop (docs/benchmarks.md, "Screen model").
 */
export const WRITE_SLICE_BYTES = 64 * 1024;

/**
 * Most writes handed to xterm and not yet parsed while catching up. xterm throws ("write data
 * discarded") past 50 MB pending; a few slices are enough for its write loop to run them
 * back to back in one turn (it yields every 12 ms by itself).
 */
export const MAX_IN_FLIGHT_WRITES = 4;

/**
 * Most bytes queued for the model (not yet handed to xterm). A burst beyond this drops the oldest
 * queued bytes, counted in stats.droppedBytes (ByteBacklog explains why the oldest). 2 MiB holds
 * many full-screen redraws, far more than any screen the agents draw, and keeps the recorder's
 * peak memory inside its budget whatever the output volume (docs/benchmarks.md).
 */
export const MAX_BACKLOG_BYTES = 2 * 1024 * 1024;

/**
 * The share of wall time the model may spend parsing while output keeps arriving. Parsing runs on
 * the passthrough's thread, so this caps what the model costs the passthrough during a burst
 * (fed inline, it made the passthrough several times slower; docs/benchmarks.md); the rest is
 * parsed when output pauses.
 */
export const BUSY_PARSE_SHARE = 0.1;

/**
 * Longest pause between slices while output keeps coming. The pause is measured from how long the
 * last slice took, which includes time the event loop spent on other work; the cap keeps one long
 * stall from leaving the model far behind the real screen.
 */
export const MAX_PACING_DELAY_MS = 50;

/**
 * Most output a key's catch-up parses on the key's path (a few ms at the speed xterm parses;
 * docs/benchmarks.md, "Screen model"). More than this is a flood the passthrough is busy with; the
 * key is then not judged on the model as it stands: the recorder holds it until the model is current
 * (`behind`, KeyHold.holdUntil), off the key's path.
 */
export const MAX_CATCH_UP_BYTES = 256 * 1024;

/** The part of xterm's internal write buffer that parses queued writes synchronously. */
interface XtermWriteBuffer {
  writeSync(data: string | Uint8Array): void;
  readonly _bufferOffset: number;
}

export interface ScreenModelOptions {
  readonly cols: number;
  readonly rows: number;
  /** Rows of history above the screen; recorders read only the screen. Default 0. */
  readonly scrollback?: number;
  /** Default MAX_BACKLOG_BYTES. */
  readonly maxBacklogBytes?: number;
  /** Default BUSY_PARSE_SHARE; 1 parses at full speed even while output keeps arriving. */
  readonly busyParseShare?: number;
}

export interface ScreenModelStats {
  /** Bytes accepted by write(). */
  readonly writtenBytes: number;
  /** Bytes xterm has parsed: writtenBytes - droppedBytes + injectedBytes once idle. */
  readonly parsedBytes: number;
  /** Bytes dropped because a burst overflowed the backlog bound. */
  readonly droppedBytes: number;
  /** How many times the backlog overflowed. */
  readonly dropCount: number;
  /** Bytes the model added after a drop to resynchronise the parser (see ByteBacklog). */
  readonly injectedBytes: number;
  /** Bytes queued now, not yet handed to xterm. */
  readonly backlogBytes: number;
  /** onDidRender listeners that threw (caught so that they cannot break the model). */
  readonly listenerErrors: number;
}

export class ScreenModel implements ScreenView, Disposable {
  private readonly _term: XtermTerminal;
  private readonly _backlog: ByteBacklog;
  private readonly _busyShare: number;
  private _writtenBytes = 0;
  private _parsedBytes = 0;
  private _listenerErrors = 0;
  private _inFlight = 0;
  /** Output arrived since the last slice was handed to xterm: the passthrough is busy. */
  private _busy = false;
  private _timer: NodeJS.Timeout | undefined;
  private _seq = 0;
  private _snapshot: ScreenSnapshot | undefined;
  private _idleWaiters: Array<() => void> = [];
  /** Inside catchUp(): every slice is handed over and parsed at once, unpaced. */
  private _catchingUp = false;
  private _disposed = false;
  private _failure: Error | undefined;
  private readonly _oscEmitters = new Map<number, Emitter<string>>();

  private readonly _onDidRender = new Emitter<number>();
  readonly onDidRender: Event<number> = this._onDidRender.event;
  private readonly _onDidFail = new Emitter<Error>();
  /** Fires once if xterm throws; the model then stops (fail-open: the passthrough goes on). */
  readonly onDidFail: Event<Error> = this._onDidFail.event;
  private readonly _onListenerError = new Emitter<unknown>();
  /** An onDidRender listener threw; the model carries on. */
  readonly onListenerError: Event<unknown> = this._onListenerError.event;

  constructor(opts: ScreenModelOptions) {
    this._term = new Terminal({
      cols: toDimension(opts.cols, MIN_COLS),
      rows: toDimension(opts.rows, MIN_ROWS),
      scrollback: opts.scrollback ?? 0,
      // @xterm/headless marks `buffer` (how the screen is read) as proposed API.
      allowProposedApi: true,
    });
    this._backlog = new ByteBacklog(opts.maxBacklogBytes ?? MAX_BACKLOG_BYTES);
    this._busyShare = Math.min(1, Math.max(0.01, opts.busyParseShare ?? BUSY_PARSE_SHARE));
  }

  /** Queues output for the model; never blocks, never throws. Do not modify `data` afterwards. */
  write(data: Buffer): void {
    if (this._disposed || this._failure !== undefined || data.length === 0) return;
    this._writtenBytes += data.length;
    this._busy = true;
    this._backlog.push(data);
    this._pump();
  }

  /** Resizes the model once the output written before the resize has been parsed. */
  resize(cols: number, rows: number): void {
    if (this._disposed || this._failure !== undefined) return;
    this._backlog.pushResize({ cols: toDimension(cols, MIN_COLS), rows: toDimension(rows, MIN_ROWS) });
    this._pump();
  }

  /**
   * Payloads of the OSC sequence `ident`, in order with the output around them (the handler runs
   * while xterm parses, so a listener sees the OSC before the render of the same slice). The
   * sequence still reaches xterm's own handlers.
   */
  watchOsc(ident: number): Event<string> {
    let emitter = this._oscEmitters.get(ident);
    if (!emitter) {
      const created = new Emitter<string>();
      emitter = created;
      this._oscEmitters.set(ident, created);
      this._term.parser.registerOscHandler(ident, (data) => {
        try {
          created.fire(data);
        } catch (error) {
          // Like a render listener: a listener's bug must not stop the parser.
          this._listenerErrors++;
          this._onListenerErrorSafe(error);
        }
        return false;
      });
    }
    return emitter.event;
  }

  snapshot(): ScreenSnapshot {
    if (this._snapshot === undefined || this._snapshot.seq !== this._seq) {
      // After dispose the terminal is gone: keep answering with the last screen seen.
      if (this._disposed && this._snapshot !== undefined) return this._snapshot;
      this._snapshot = toScreenSnapshot(this._term, this._seq);
    }
    return this._snapshot;
  }

  /**
   * Resolves once everything written so far is parsed (at once after dispose or a failure). A
   * waiter wants the model current (a recorder judging a key against the screen), so pacing stops
   * until the backlog is parsed.
   */
  whenIdle(): Promise<void> {
    if (this._isIdle()) return Promise.resolve();
    const idle = new Promise<void>((resolve) => this._idleWaiters.push(resolve));
    if (this._timer !== undefined) {
      clearTimeout(this._timer);
      this._timer = undefined;
    }
    this._pump();
    return idle;
  }

  /** Whether output written so far still waits to be parsed: a snapshot now may lack the latest frame. */
  behind(): boolean {
    return !this._isIdle();
  }

  /**
   * Parses everything written so far, now, on the caller's stack: a key is about to be judged
   * against the screen, and output the agent drew before the key (the next prompt of a batch) must
   * be on the model by then, or the key is judged on the screen before it (seen under load: an
   * Esc at a batch's second prompt was taken for an Esc on the first, running, call). Renders fire
   * as usual. Returns whether the model is now current: not when the backlog is larger than
   * MAX_CATCH_UP_BYTES, or when xterm is midway through a write it yielded from.
   */
  catchUp(maxBytes = MAX_CATCH_UP_BYTES): boolean {
    if (this._disposed || this._failure !== undefined) return false;
    if (this._backlog.isEmpty && this._inFlight === 0) return true;
    if (this._backlog.bytes > maxBytes) return false;
    const core = (this._term as unknown as { _core?: { _writeBuffer?: Partial<XtermWriteBuffer> } })._core;
    const writes = core?._writeBuffer;
    // xterm's own synchronous write drains the writes queued before it, in order; it is safe only
    // while none of them is half parsed (an offset into its queue).
    if (typeof writes?.writeSync !== 'function' || writes._bufferOffset !== 0) return false;
    if (this._timer !== undefined) {
      clearTimeout(this._timer);
      this._timer = undefined;
    }
    this._catchingUp = true;
    try {
      // Drains the slices already handed over; each one's callback hands over the next slice,
      // which the same drain parses, until the backlog is empty.
      (writes as XtermWriteBuffer).writeSync(EMPTY);
      this._pump();
      if (!this._backlog.isEmpty || this._inFlight > 0) (writes as XtermWriteBuffer).writeSync(EMPTY);
    } catch (error) {
      this._fail(error);
      return false;
    } finally {
      this._catchingUp = false;
    }
    return this._backlog.isEmpty && this._inFlight === 0;
  }

  get stats(): ScreenModelStats {
    return {
      writtenBytes: this._writtenBytes,
      parsedBytes: this._parsedBytes,
      droppedBytes: this._backlog.droppedBytes,
      dropCount: this._backlog.dropCount,
      injectedBytes: this._backlog.injectedBytes,
      backlogBytes: this._backlog.bytes,
      listenerErrors: this._listenerErrors,
    };
  }

  /** Set once xterm has thrown; the model is then stopped. */
  get failure(): Error | undefined {
    return this._failure;
  }

  dispose(): void {
    if (this._disposed) return;
    if (this._snapshot?.seq !== this._seq && this._failure === undefined) this.snapshot();
    this._disposed = true;
    this._stop();
    this._onDidRender.dispose();
    this._onDidFail.dispose();
    this._onListenerError.dispose();
    for (const emitter of this._oscEmitters.values()) emitter.dispose();
    // xterm still runs its pending writes after dispose; _onParsed ignores their callbacks.
    this._term.dispose();
  }

  private _isIdle(): boolean {
    return (
      this._disposed ||
      this._failure !== undefined ||
      (this._backlog.isEmpty && this._inFlight === 0 && this._timer === undefined)
    );
  }

  /** Hands slices to xterm: one at a time while busy (paced by _onParsed), several when idle. */
  private _pump(): void {
    if (this._timer !== undefined || this._disposed || this._failure !== undefined) return;
    const paced = this._busy && this._idleWaiters.length === 0 && !this._catchingUp;
    const limit = paced ? 1 : MAX_IN_FLIGHT_WRITES;
    try {
      while (this._inFlight < limit && !this._backlog.isEmpty) {
        if (this._backlog.nextIsResize) {
          // Apply in order: only once xterm has parsed what was written before the resize.
          if (this._inFlight > 0) return;
          const resize = this._backlog.take(0);
          if (resize !== undefined && !Buffer.isBuffer(resize)) this._term.resize(resize.cols, resize.rows);
          this._rendered();
          continue;
        }
        const slice = this._backlog.take(WRITE_SLICE_BYTES);
        if (slice === undefined || !Buffer.isBuffer(slice)) return;
        const issuedAt = performance.now();
        this._busy = false;
        this._inFlight++;
        this._term.write(slice, () => this._onParsed(slice.length, issuedAt));
      }
    } catch (error) {
      this._fail(error);
      return;
    }
    this._resolveIfIdle();
  }

  private _onParsed(bytes: number, issuedAt: number): void {
    if (this._disposed || this._failure !== undefined) return;
    this._inFlight--;
    this._parsedBytes += bytes;
    this._rendered();
    if (this._backlog.isEmpty) {
      this._resolveIfIdle();
      return;
    }
    if (this._busy && this._inFlight === 0 && this._idleWaiters.length === 0 && !this._catchingUp) {
      // Output kept coming while this slice was parsed: give the passthrough the rest of the time.
      const spent = performance.now() - issuedAt;
      const delay = Math.min(MAX_PACING_DELAY_MS, (spent * (1 - this._busyShare)) / this._busyShare);
      this._timer = setTimeout(() => {
        this._timer = undefined;
        this._pump();
      }, delay);
      return;
    }
    this._pump();
  }

  private _rendered(): void {
    this._seq++;
    try {
      this._onDidRender.fire(this._seq);
    } catch (error) {
      // A listener's bug must not reach xterm's write loop (it would stop the model) or the
      // passthrough; it is counted and reported, and the next render is delivered as usual.
      this._listenerErrors++;
      this._onListenerErrorSafe(error);
    }
  }

  private _onListenerErrorSafe(error: unknown): void {
    try {
      this._onListenerError.fire(error);
    } catch {
      // A throwing error listener has nowhere left to report to; the count in stats remains.
    }
  }

  private _fail(error: unknown): void {
    this._failure = error instanceof Error ? error : new Error(String(error));
    this._stop();
    try {
      this._onDidFail.fire(this._failure);
    } catch (listenerError) {
      this._listenerErrors++;
      this._onListenerErrorSafe(listenerError);
    }
  }

  private _stop(): void {
    if (this._timer !== undefined) clearTimeout(this._timer);
    this._timer = undefined;
    this._backlog.clear();
    this._resolveIfIdle();
  }

  private _resolveIfIdle(): void {
    if (this._idleWaiters.length === 0 || !this._isIdle()) return;
    const waiters = this._idleWaiters;
    this._idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

const EMPTY = new Uint8Array(0);

/** xterm's own minimum size (it clamps smaller sizes to these). */
const MIN_COLS = 2;
const MIN_ROWS = 1;

/** Terminal sizes from a tty can be 0 or fractional when unknown; xterm needs whole numbers. */
function toDimension(n: number, min: number): number {
  return Number.isFinite(n) && n >= min ? Math.floor(n) : min;
}
