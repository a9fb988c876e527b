// Plain-text output for people: aligned columns, local times, values cut to one short line.

/** Columns separated by two spaces; every column but the last padded to its widest cell. */
export function formatTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = headers.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i] ?? ''))));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell + ' '.repeat(widths[i]! - width(cell))))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n') + '\n';
}

/** Code points, so that the … we add and non-ASCII text pad correctly (wide CJK aside). */
function width(text: string): number {
  return [...text].length;
}

/**
 * One line of at most `max` characters. Control characters (escape sequences recorded from a
 * terminal, newlines) are replaced, so printing a stored value cannot drive the user's terminal.
 */
export function cell(value: unknown, max: number): string {
  if (value === null || value === undefined || value === '') return '-';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').replace(/\s+/g, ' ').trim();
  const chars = [...clean];
  return chars.length <= max ? clean : chars.slice(0, max - 1).join('') + '…';
}

/** ISO timestamp → local 'YYYY-MM-DD HH:MM:SS'. */
export function localTime(iso: string | null): string {
  if (iso === null) return '-';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
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
