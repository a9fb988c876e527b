// Plain-text tables for people: aligned columns that fit the terminal. Ids, times and types are
// never cut; when a row is too wide, the widest free-text column (a command, a reason) is cut with
// an ellipsis, and on a narrow terminal the least needed columns are left out. Piped output keeps
// every column whole (it may be read by grep); --json is the exact form for programs.
import stringWidth from 'string-width';
import { escapeControls } from './terminalText.js';

export interface Column {
  readonly header: string;
  /** Free text that may be cut to fit; other columns (ids, times, types, counts) are kept whole. */
  readonly shrink?: boolean;
  /** Left out when even the kept columns do not fit: 1 goes first, then 2… Absent: always shown. */
  readonly dropOrder?: number;
  readonly align?: 'left' | 'right';
}

/** Between columns. */
const GAP = '  ';
/** A cut column keeps at least this much (or its header's width): less says nothing. */
const MIN_SHRUNK_WIDTH = 8;
/**
 * Optional columns give way before free text is cut below this: a command cut to 24 columns still
 * says what it was, one cut to 8 does not.
 */
const COMFORT_WIDTH = 24;

/**
 * Columns separated by two spaces, each padded to its widest cell (the last one is not padded),
 * fitted into `width` display columns (Infinity: no limit). Cells must come from `cell()`.
 */
export function formatTable(columns: readonly Column[], rows: ReadonlyArray<readonly string[]>, width = Number.POSITIVE_INFINITY, indent = ''): string {
  let shown = columns.map((_, i) => i);
  const natural = columns.map((c, i) => Math.max(stringWidth(c.header), ...rows.map((r) => stringWidth(r[i] ?? ''))));
  const atLeast = (floor: number) => (i: number): number => (columns[i]!.shrink ? Math.min(natural[i]!, Math.max(stringWidth(columns[i]!.header), floor)) : natural[i]!);
  const minimum = atLeast(MIN_SHRUNK_WIDTH);
  const comfortable = atLeast(COMFORT_WIDTH);
  const total = (cols: readonly number[], w: (i: number) => number): number => indent.length + cols.reduce((sum, i) => sum + w(i), 0) + GAP.length * (cols.length - 1);

  // Narrow terminal: leave out optional columns until the rest fits with its free text still
  // readable; a column with nothing in it (all `-`) goes first, even one otherwise always shown.
  const empty = (i: number): boolean => rows.every((r) => (r[i] ?? '-') === '-');
  const order = (i: number): number => (empty(i) ? 0 : (columns[i]!.dropOrder ?? Number.POSITIVE_INFINITY));
  const droppable = shown.filter((i) => order(i) !== Number.POSITIVE_INFINITY).sort((a, b) => order(a) - order(b));
  while (total(shown, comfortable) > width && droppable.length > 0) {
    const drop = droppable.shift()!;
    shown = shown.filter((i) => i !== drop);
  }

  // Then cut the widest free-text column, one display column at a time, until the row fits.
  const widths = new Map(shown.map((i) => [i, natural[i]!]));
  let excess = total(shown, (i) => widths.get(i)!) - width;
  while (excess > 0) {
    let widest: number | undefined;
    for (const i of shown) {
      if (widths.get(i)! > minimum(i) && (widest === undefined || widths.get(i)! > widths.get(widest)!)) widest = i;
    }
    if (widest === undefined) break; // nothing left to cut: the terminal wraps what remains
    widths.set(widest, widths.get(widest)! - 1);
    excess--;
  }

  const line = (cells: readonly string[]): string =>
    indent +
    shown
      .map((i, k) => {
        const text = truncate(cells[i] ?? '', widths.get(i)!);
        const pad = ' '.repeat(widths.get(i)! - stringWidth(text));
        if (columns[i]!.align === 'right') return pad + text;
        return k === shown.length - 1 ? text : text + pad;
      })
      .join(GAP)
      .trimEnd();
  return [line(columns.map((c) => c.header)), ...rows.map(line)].join('\n') + '\n';
}

const segmenter = new Intl.Segmenter();

/** At most `max` display columns, cut at a character boundary and marked with an ellipsis. */
export function truncate(text: string, max: number): string {
  if (stringWidth(text) <= max) return text;
  let out = '';
  let used = 0;
  for (const { segment } of segmenter.segment(text)) {
    const w = stringWidth(segment);
    if (used + w > max - 1) break;
    out += segment;
    used += w;
  }
  return out + '…';
}

/** A value as one table cell: `-` when empty, JSON when not a string, control characters escaped. */
export function cell(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return escapeControls(text);
}

/** `1 session`, `2 sessions`; `irregular` for the plural when adding an s will not do. */
export function plural(n: number, singular: string, irregular?: string): string {
  return `${n} ${n === 1 ? singular : (irregular ?? `${singular}s`)}`;
}

/** ISO timestamp → local 'YYYY-MM-DD HH:MM:SS'. */
export function localTime(iso: string | null): string {
  if (iso === null) return '-';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return escapeControls(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** 12s, 3m05s, 1h02m. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const p = (n: number) => String(n).padStart(2, '0');
  if (s < 3600) return `${Math.floor(s / 60)}m${p(s % 60)}s`;
  return `${Math.floor(s / 3600)}h${p(Math.floor((s % 3600) / 60))}m`;
}

/** argv as one shell-like line: words with spaces or quotes are single-quoted. */
export function formatArgv(argv: readonly string[]): string {
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}
