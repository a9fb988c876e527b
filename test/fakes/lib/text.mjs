// @ts-check
// Plain-text layout helpers shared by the fake TUIs: display width, word wrap, truncation.
// Every fake wraps its own text (instead of letting the terminal auto-wrap) so a redraw after a
// resize re-wraps exactly like the real TUIs, which lay out each frame for the current width.

const ANSI_RE = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07/g;

/** Removes SGR/CSI and OSC sequences. */
export function stripAnsi(s) {
  return s.replace(ANSI_RE, '');
}

/** Column width of one code point: 2 for wide East Asian ranges, 0 for combining marks, else 1. */
function codePointWidth(cp) {
  if (cp === 0) return 0;
  if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x200b && cp <= 0x200f)) return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0x1f300 && cp <= 0x1faff)
  ) return 2;
  return 1;
}

/** Terminal column width of a string (ANSI sequences ignored). */
export function displayWidth(s) {
  let w = 0;
  for (const ch of stripAnsi(s)) w += codePointWidth(ch.codePointAt(0));
  return w;
}

/** Cuts a plain string to at most `width` columns. */
export function sliceToWidth(s, width) {
  let out = '';
  let w = 0;
  for (const ch of s) {
    const cw = codePointWidth(ch.codePointAt(0));
    if (w + cw > width) break;
    out += ch;
    w += cw;
  }
  return out;
}

/** Truncates to `width` columns, ending in `ellipsis` when cut. */
export function truncateToWidth(s, width, ellipsis = '…') {
  if (displayWidth(s) <= width) return s;
  return sliceToWidth(s, Math.max(0, width - displayWidth(ellipsis))) + ellipsis;
}

/**
 * Greedy word wrap (ratatui/textwrap style): breaks at spaces, hard-breaks words longer than a line.
 * `initialIndent` starts the first line, `subsequentIndent` every following one. Newlines in `text`
 * start new lines (with the subsequent indent).
 */
export function wrapText(text, width, { initialIndent = '', subsequentIndent = '' } = {}) {
  const lines = [];
  const paragraphs = String(text).split('\n');
  let indent = initialIndent;
  for (const para of paragraphs) {
    let line = indent;
    let lineHasWord = false;
    const words = para.split(' ');
    for (let i = 0; i < words.length; i++) {
      let word = words[i];
      const sep = lineHasWord ? ' ' : '';
      if (displayWidth(line) + displayWidth(sep) + displayWidth(word) <= width) {
        line += sep + word;
        lineHasWord = true;
        continue;
      }
      if (lineHasWord) {
        lines.push(line);
        line = subsequentIndent;
        lineHasWord = false;
      }
      // The word alone may still be too long for a line: hard-break it.
      while (displayWidth(line) + displayWidth(word) > width) {
        const room = Math.max(1, width - displayWidth(line));
        const head = sliceToWidth(word, room);
        lines.push(line + head);
        word = word.slice(head.length);
        line = subsequentIndent;
      }
      line += word;
      lineHasWord = word.length > 0;
    }
    lines.push(line);
    indent = subsequentIndent;
  }
  return lines;
}

/** Pads a plain string with spaces to exactly `width` columns (truncating if longer). */
export function padToWidth(s, width) {
  const cut = displayWidth(s) > width ? sliceToWidth(s, width) : s;
  return cut + ' '.repeat(Math.max(0, width - displayWidth(cut)));
}
