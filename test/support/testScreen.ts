// A ScreenView that shows whatever snapshot the test sets: recorded screens are text, so no terminal
// emulator is involved. Every `show` is a new render with a new seq.
import { Emitter } from '../../src/core/lifecycle.js';
import type { ScreenSnapshot, ScreenView } from '../../src/core/screen.js';

export class TestScreen implements ScreenView {
  private readonly _onDidRender = new Emitter<number>();
  readonly onDidRender = this._onDidRender.event;
  private _seq = 0;
  private _lagging = false;
  private _idleWaiters: Array<() => void> = [];

  constructor(private _current: ScreenSnapshot) {}

  /** From now on the model is behind what the agent wrote (a frame still in its backlog), until catchUp. */
  lag(): void {
    this._lagging = true;
  }

  /** The backlog is parsed: whoever waits on whenIdle goes on. */
  catchUp(): void {
    this._lagging = false;
    const waiters = this._idleWaiters;
    this._idleWaiters = [];
    for (const w of waiters) w();
  }

  behind(): boolean {
    return this._lagging;
  }

  whenIdle(): Promise<void> {
    return this._lagging ? new Promise((resolve) => this._idleWaiters.push(resolve)) : Promise.resolve();
  }

  snapshot(): ScreenSnapshot {
    return this._current;
  }

  show(snapshot: ScreenSnapshot): void {
    this._current = { ...snapshot, seq: ++this._seq };
    this._onDidRender.fire(this._seq);
  }
}

export function blankScreen(cols = 120, rows = 40): ScreenSnapshot {
  const lines = Array.from({ length: rows }, () => '');
  const style = { bold: false, dim: false, inverse: false, fg: -1, bg: -1 };
  return { cols, rows, lines, styles: lines.map(() => style), cursor: { x: 0, y: 0 }, seq: 0 };
}
