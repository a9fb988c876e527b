// Numbered option lists as TUIs draw them ("› 1. Yes, proceed (y)"): shared by every agent's
// prompt parser. An option may wrap onto indented continuation rows; the highlighted row carries a
// marker (Codex `›`, Claude `❯`, Gemini `●`).

export interface ListOption {
  /** 1-based number as shown. */
  readonly number: number;
  /** The label verbatim as shown, wrapped rows re-joined, hotkey suffix included. */
  readonly label: string;
  /** The hotkey shown after the label, e.g. `y` for "(y)". */
  readonly key?: string;
  readonly highlighted: boolean;
  /** Screen row of the option's first line. */
  readonly row: number;
}

export interface OptionListSyntax {
  /** The highlighted-row marker. */
  readonly marker: string;
  /** The hotkey at the end of a label; group 1 is the key. */
  readonly hotkey?: RegExp;
  /** Rows that end the list (a footer), matched against the trimmed row. */
  readonly stopAt?: (trimmed: string) => boolean;
}

const OPTION_ROW = /^(\s*)(\S\s)?\s*(\d+)\.\s(.*)$/;

/**
 * Parses the option list found in `lines[start, end)`. Rows before the first option are skipped;
 * a non-option row indented deeper than the option text continues the previous option.
 */
export function parseOptionList(
  lines: readonly string[],
  start: number,
  end: number,
  syntax: OptionListSyntax,
): ListOption[] {
  const options: Array<{ number: number; parts: string[]; highlighted: boolean; row: number; textCol: number }> = [];
  for (let row = start; row < Math.min(end, lines.length); row++) {
    const line = lines[row] ?? '';
    const trimmed = line.trim();
    if (syntax.stopAt?.(trimmed)) break;
    const m = OPTION_ROW.exec(line);
    const markerChar = m?.[2]?.trim();
    if (m && (markerChar === undefined || markerChar === syntax.marker)) {
      const number = Number(m[3]);
      const expected = options.length === 0 ? number : options[options.length - 1]!.number + 1;
      if (number === expected) {
        options.push({
          number,
          parts: [m[4]!.trimEnd()],
          highlighted: markerChar === syntax.marker,
          row,
          textCol: line.length - m[4]!.length,
        });
        continue;
      }
    }
    const last = options[options.length - 1];
    if (!last) continue;
    if (trimmed === '') break;
    const indent = line.length - line.trimStart().length;
    if (indent >= last.textCol - 1) last.parts.push(trimmed);
    else break;
  }
  return options.map((o) => {
    const label = joinWrapped(o.parts);
    const key = syntax.hotkey?.exec(label)?.[1];
    return { number: o.number, label, highlighted: o.highlighted, row: o.row, ...(key ? { key } : {}) };
  });
}

/**
 * Re-joins rows a TUI wrapped. Word wrapping broke at a space, so rows are joined with one; a row
 * ending in `/` or `-` was broken inside a long word (a path), so it is joined without one.
 */
export function joinWrapped(parts: readonly string[]): string {
  let out = '';
  for (const part of parts) {
    if (out === '') out = part;
    else if (/[/-]$/.test(out)) out += part;
    else out += ' ' + part;
  }
  return out;
}

/** Labels of a menu drawn as "1. Cancel task        Stop the current task…": the part before the gap. */
export function menuLabel(label: string): string {
  return label.split(/\s{2,}/)[0]!.trim();
}
