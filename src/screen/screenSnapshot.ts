// Reads the visible screen of a headless xterm into the plain ScreenSnapshot recorders use.
import type { Terminal } from '@xterm/headless';
import type { LineStyle, ScreenSnapshot } from '../core/screen.js';

type Buffer = Terminal['buffer']['active'];
type BufferLine = NonNullable<ReturnType<Buffer['getLine']>>;
type BufferCell = ReturnType<Buffer['getNullCell']>;

/** The colour value for "the terminal's default" in LineStyle. */
const DEFAULT_COLOR = -1;

const TRAILING_SPACES = / +$/;

export const DEFAULT_LINE_STYLE: LineStyle = Object.freeze({
  bold: false,
  dim: false,
  inverse: false,
  fg: DEFAULT_COLOR,
  bg: DEFAULT_COLOR,
});

export function toScreenSnapshot(term: Terminal, seq: number): ScreenSnapshot {
  const buffer = term.buffer.active;
  const { cols, rows } = term;
  const cell = buffer.getNullCell();
  const lines: string[] = [];
  const styles: LineStyle[] = [];
  for (let y = 0; y < rows; y++) {
    // baseY is the top of the live screen; with scrollback the rows above it are history.
    const line = buffer.getLine(buffer.baseY + y);
    // translateToString(true) trims only never-written cells; spaces the program wrote stay.
    lines.push(line === undefined ? '' : line.translateToString(true).replace(TRAILING_SPACES, ''));
    styles.push(line === undefined ? DEFAULT_LINE_STYLE : lineStyle(line, cols, cell));
  }
  return Object.freeze({
    cols,
    rows,
    lines: Object.freeze(lines),
    styles: Object.freeze(styles),
    // xterm parks the cursor at x === cols after writing the last column (pending wrap).
    cursor: Object.freeze({ x: Math.min(buffer.cursorX, cols - 1), y: buffer.cursorY }),
    seq,
    alternate: buffer.type === 'alternate',
  });
}

/**
 * The style of the row's first visible cell: one with a non-space character, or a blank painted
 * with inverse video or a background colour (highlight bars often start with padding).
 */
function lineStyle(line: BufferLine, cols: number, cell: BufferCell): LineStyle {
  for (let x = 0; x < cols; x++) {
    if (line.getCell(x, cell) === undefined) break;
    const chars = cell.getChars();
    const visible = (chars !== '' && chars !== ' ') || cell.isInverse() !== 0 || !cell.isBgDefault();
    if (!visible) continue;
    return {
      bold: cell.isBold() !== 0,
      dim: cell.isDim() !== 0,
      inverse: cell.isInverse() !== 0,
      fg: cell.isFgDefault() ? DEFAULT_COLOR : cell.getFgColor(),
      bg: cell.isBgDefault() ? DEFAULT_COLOR : cell.getBgColor(),
    };
  }
  return DEFAULT_LINE_STYLE;
}
