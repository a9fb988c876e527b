// Numbered option lists as TUIs draw them ("› 1. Yes, proceed (y)"): shared by every agent's
// prompt parser. An option may wrap onto indented continuation rows; the highlighted row carries a
// marker (Codex `›`, Claude `❯`, Gemini `●`). A few prompts draw their options without numbers
// (Claude's auto mode, when its check cannot run: `❯ No` / `  Yes`); a parser that knows such a
// prompt reads them by position.

export interface ListOption {
  /** 1-based number as shown; for an option drawn without one, its position in the list. */
  readonly number: number;
  /** Drawn without its number: a digit does not pick it. */
  readonly unnumbered?: true;
  /** The label verbatim as shown, wrapped rows re-joined, hotkey suffix included. */
  readonly label: string;
  /** The hotkey shown after the label, e.g. `y` for "(y)". */
  readonly key?: string;
  readonly highlighted: boolean;
  /** Screen row of the option's first line. */
  readonly row: number;
  /** Screen row of its last line, where its label wrapped onto more rows. */
  readonly lastRow?: number;
}

export interface OptionListSyntax {
  /** The highlighted-row marker. */
  readonly marker: string;
  /** The hotkey at the end of a label; group 1 is the key. */
  readonly hotkey?: RegExp;
  /** Rows that end the list (a footer), matched against the trimmed row. */
  readonly stopAt?: (trimmed: string) => boolean;
  /**
   * The options carry no numbers: every row from the first one until a blank row is an option (the
   * highlighted one with the marker), numbered by position. Only for a prompt the parser knows draws
   * them so: any row would otherwise read as an option.
   */
  readonly unnumbered?: boolean;
  /**
   * A wrapped label's rows may start as far left as the option's number (Copilot 1.0.102 at 80
   * columns: `  2. Yes, and don't ask again … repo` / `  (/tmp/…/work)`), not only under its text.
   */
  readonly wrapsUnderNumber?: boolean;
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
  if (syntax.unnumbered) return scanUnnumbered(lines, start, end, syntax);
  return scanOptionList(lines, start, end, syntax).options;
}

/**
 * A list drawn without numbers: from the first non-blank row to the next blank one, each row is an
 * option, the marker on the highlighted one, which must be there. The text column of the first
 * option tells a row indented deeper (a wrapped label) from the next option.
 */
function scanUnnumbered(lines: readonly string[], start: number, end: number, syntax: OptionListSyntax): ListOption[] {
  const options: Array<{ parts: string[]; highlighted: boolean; row: number }> = [];
  let textCol = -1;
  for (let row = start; row < Math.min(end, lines.length); row++) {
    const line = lines[row] ?? '';
    const trimmed = line.trim();
    if (trimmed === '') {
      if (options.length === 0) continue;
      break;
    }
    if (syntax.stopAt?.(trimmed)) break;
    const marked = trimmed.startsWith(`${syntax.marker} `);
    const text = marked ? trimmed.slice(syntax.marker.length).trim() : trimmed;
    const col = line.length - line.trimStart().length + (marked ? trimmed.length - text.length : 0);
    if (textCol < 0) textCol = col;
    const last = options[options.length - 1];
    if (last && !marked && col > textCol) last.parts.push(text);
    else options.push({ parts: [text], highlighted: marked, row });
  }
  // Without numbers, only the marker tells a list from other rows (a half-redrawn frame leaves the
  // rows of what was there before under the question): no marked row, no list.
  if (!options.some((o) => o.highlighted)) return [];
  return options.map((o, i) => ({ number: i + 1, unnumbered: true as const, label: joinWrapped(o.parts), highlighted: o.highlighted, row: o.row }));
}

/**
 * Non-blank rows a live pane may draw below its option list: a footer ("Press enter to confirm or
 * esc to cancel", "Esc to cancel · Tab to amend") and a box's bottom border. A list with more below
 * it is history (a user's numbered message echoed with the agent's marker), not what keys act on.
 */
const PANE_ROWS_BELOW_LIST = 2;

/**
 * Whether the bottom pane is a numbered option list with a highlighted row, whatever its title or
 * footer say: a prompt or menu the agent draws even when its texts are not the ones rec knows. Keys
 * there answer the list (Esc cancels it); they cut no turn.
 */
export function showsOptionList(lines: readonly string[], syntax: OptionListSyntax): boolean {
  for (let row = lines.length - 1; row >= 0; row--) {
    if (Number(OPTION_ROW.exec(lines[row] ?? '')?.[3]) !== 1) continue;
    const { options, end } = scanOptionList(lines, row, lines.length, syntax);
    const below = lines.slice(end).filter((l) => l.trim() !== '').length;
    // The lowest list decides: one further up has at least this one below it.
    return options[0]?.row === row && options.length >= 2 && options.some((o) => o.highlighted) && below <= PANE_ROWS_BELOW_LIST;
  }
  return false;
}

/** The options in `lines[start, end)` and the row after the last one (its wrapped rows included). */
function scanOptionList(lines: readonly string[], start: number, end: number, syntax: OptionListSyntax): { options: ListOption[]; end: number } {
  let after = start;
  const options: Array<{ number: number; parts: string[]; highlighted: boolean; row: number; lastRow: number; textCol: number; wrapCol: number }> = [];
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
        const textCol = line.length - m[4]!.length;
        options.push({
          number,
          parts: [m[4]!.trimEnd()],
          highlighted: markerChar === syntax.marker,
          row,
          lastRow: row,
          textCol,
          wrapCol: syntax.wrapsUnderNumber ? textCol - `${number}. `.length : textCol - 1,
        });
        after = row + 1;
        continue;
      }
    }
    const last = options[options.length - 1];
    if (!last) continue;
    if (trimmed === '') break;
    const indent = line.length - line.trimStart().length;
    if (indent < last.wrapCol) break;
    last.parts.push(trimmed);
    last.lastRow = row;
    after = row + 1;
  }
  const parsed = options.map((o) => {
    const label = joinWrapped(o.parts);
    const key = syntax.hotkey?.exec(label)?.[1];
    return { number: o.number, label, highlighted: o.highlighted, row: o.row, ...(o.lastRow > o.row ? { lastRow: o.lastRow } : {}), ...(key ? { key } : {}) };
  });
  return { options: parsed, end: after };
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
