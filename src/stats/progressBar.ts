// A progress bar on stderr for long reads: shown only when stderr is a terminal, and only once the
// work has taken a few seconds (short runs stay quiet).
import type { Writable } from 'node:stream';

/** Reads shorter than this never show a bar: a flash of a bar is noise. */
export const PROGRESS_DELAY_MS = 2_000;
/** Redraw at most this often: each redraw is a terminal write. */
export const PROGRESS_REDRAW_MS = 100;
const BAR_WIDTH = 30;

export class ProgressBar {
  private _done = 0;
  private _files = 0;
  private readonly _start: number;
  private _lastDraw = 0;
  private _shown = false;

  constructor(
    private readonly _out: Writable,
    private readonly _totalBytes: number,
    private readonly _totalFiles: number,
    private readonly _enabled: boolean,
    private readonly _now: () => number = Date.now,
  ) {
    this._start = _now();
  }

  /** Whether a stream is a terminal we may draw on. */
  static isTty(stream: Writable): boolean {
    return (stream as Writable & { isTTY?: boolean }).isTTY === true;
  }

  advance(bytes: number, files = 1): void {
    this._done += bytes;
    this._files += files;
    if (!this._enabled) return;
    const now = this._now();
    if (now - this._start < PROGRESS_DELAY_MS || now - this._lastDraw < PROGRESS_REDRAW_MS) return;
    this._lastDraw = now;
    this._shown = true;
    const frac = this._totalBytes > 0 ? Math.min(1, this._done / this._totalBytes) : this._files / Math.max(1, this._totalFiles);
    const filled = Math.round(frac * BAR_WIDTH);
    const mb = (this._done / 1e6).toFixed(0);
    const rate = (this._done / 1e6 / ((now - this._start) / 1000)).toFixed(0);
    this._out.write(
      `\r[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${(frac * 100).toFixed(0).padStart(3)}% ${this._files}/${this._totalFiles} files ${mb} MB ${rate} MB/s`,
    );
  }

  /** Clears the bar so the table or the diagnostics start on a clean line. */
  finish(): void {
    if (this._shown) this._out.write('\r\x1b[2K');
    this._shown = false;
  }

  get shown(): boolean {
    return this._shown;
  }
}
