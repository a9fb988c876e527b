// What recorders see of the terminal: the rendered screen, never raw bytes.
import type { Event } from './lifecycle.js';

/** The style of a row's first non-blank cell: enough to tell which option row is highlighted. */
export interface LineStyle {
  readonly bold: boolean;
  readonly dim: boolean;
  readonly inverse: boolean;
  /** Palette index or 24-bit RGB value; -1 for the terminal default. */
  readonly fg: number;
  readonly bg: number;
}

export interface ScreenSnapshot {
  readonly cols: number;
  readonly rows: number;
  /** Visible rows as text, right-trimmed, top to bottom. */
  readonly lines: readonly string[];
  readonly styles: readonly LineStyle[];
  readonly cursor: { readonly x: number; readonly y: number };
  /** Increases with every render, so a recorder can skip a snapshot it has already seen. */
  readonly seq: number;
  /**
   * Whether the program draws on the alternate screen (a full-screen renderer) rather than inline
   * on the normal one. Absent where no terminal model is behind the view (screens replayed as text).
   */
  readonly alternate?: boolean;
}

export interface ScreenView {
  snapshot(): ScreenSnapshot;
  /**
   * Fires after a batch of output has been parsed into the model, with the new `seq`. Snapshots are
   * built lazily (and cached per seq) because most renders are never looked at.
   */
  readonly onDidRender: Event<number>;
  /**
   * The payloads of one OSC sequence (`ESC ] <ident> ; <data> ST`), fired as the model parses them,
   * before the render of the same output. Programs signal state there that the screen cannot show
   * (Codex: `7501;state=blocked:…` while an approval prompt waits). Optional: views replaying text
   * screens have no escape sequences.
   */
  watchOsc?(ident: number): Event<string>;
  /** Resolves once everything written so far has been parsed into the model. */
  whenIdle?(): Promise<void>;
  /** Whether output written so far is still waiting to be parsed: a snapshot now may lack the latest frame. */
  behind?(): boolean;
}
