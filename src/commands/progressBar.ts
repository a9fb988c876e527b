// A progress bar on the terminal for long reads (`rec merge`, `rec stats`): drawn only on a
// terminal, and only once the work has taken a few seconds (short runs stay quiet). It holds
// nothing from the files read, only counts, so its own escape sequences are all it writes.
import type { ProgressSink } from '../merge/mergeRun.js';

/** Reads shorter than this never show a bar: a flash of a bar is noise. */
export const PROGRESS_DELAY_MS = 2_000;
/** Redraw at most this often: each redraw is a terminal write. */
export const PROGRESS_REDRAW_MS = 100;
const BAR_WIDTH = 30;

export class ProgressBar implements ProgressSink {
  private _done = 0;
  private _files = 0;
  private _totalBytes = 0;
  private _totalFiles = 0;
  private _start: number;
  private _lastDraw = 0;
  private _shown = false;

  /** `out` undefined: no terminal to draw on, and the bar stays hidden. */
  constructor(
    private readonly _out: NodeJS.WritableStream | undefined,
    private readonly _now: () => number = Date.now,
  ) {
    this._start = _now();
  }

  start(totalBytes: number, files: number): void {
    this._totalBytes = totalBytes;
    this._totalFiles = files;
    this._start = this._now();
  }

  advance(bytes: number, files = 1): void {
    this._done += bytes;
    this._files += files;
    if (this._out === undefined) return;
    const now = this._now();
    if (now - this._start < PROGRESS_DELAY_MS || now - this._lastDraw < PROGRESS_REDRAW_MS) return;
    this._lastDraw = now;
    this._shown = true;
    const frac = this._totalBytes > 0 ? Math.min(1, this._done / this._totalBytes) : this._files / Math.max(1, this._totalFiles);
    const filled = Math.round(frac * BAR_WIDTH);
    const mb = (this._done / 1e6).toFixed(0);
    const rate = (this._done / 1e6 / ((now - this._start) / 1000)).toFixed(0);
    const count = `${this._files}/${this._totalFiles} file${this._totalFiles === 1 ? '' : 's'}`;
    this._out.write(`\r[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${(frac * 100).toFixed(0).padStart(3)}% ${count} ${mb} MB ${rate} MB/s`);
  }

  /** Clears the bar so the table or the diagnostics start on a clean line. */
  finish(): void {
    if (this._shown) this._out?.write('\r\x1b[2K');
    this._shown = false;
  }

  get shown(): boolean {
    return this._shown;
  }
}
