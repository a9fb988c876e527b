// Output chunks seen before the recording was ready, handed to the screen model when it is.

/** Output that arrives before the screen model exists is kept for it, up to this many bytes. */
const EARLY_OUTPUT_LIMIT = 4 * 1024 * 1024;

export class EarlyOutput {
  private _chunks: Buffer[] = [];
  private _bytes = 0;

  push(chunk: Buffer): void {
    this._chunks.push(chunk);
    this._bytes += chunk.length;
    // Over the limit, the oldest start-up output goes first: a TUI redraws what matters.
    while (this._bytes > EARLY_OUTPUT_LIMIT && this._chunks.length > 1) {
      this._bytes -= this._chunks.shift()!.length;
    }
  }

  take(): Buffer[] {
    const chunks = this._chunks;
    this._chunks = [];
    this._bytes = 0;
    return chunks;
  }
}
