import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { cell, formatTable, plural, truncate, type Column } from '../../../src/commands/formatTable.js';

const columns: Column[] = [
  { header: 'ID' },
  { header: 'TIME' },
  { header: 'CALL_ID', dropOrder: 1 },
  { header: 'COMMAND', shrink: true },
  { header: 'REASON', shrink: true },
];
const rows = [
  ['aaaa1111', '2025-01-02 08:30:00', 'call_0123456789abcdefghij', 'bash -lc "' + 'echo hello; '.repeat(12) + '"', 'too risky, ask me first'],
  ['bbbb2222', '2025-01-02 08:31:00', 'call_1', 'ls', '-'],
];
const lines = (text: string) => text.trimEnd().split('\n');

describe('formatTable', () => {
  it('piped (no width): every column whole, aligned', () => {
    const out = lines(formatTable(columns, rows));
    expect(out[1]).toContain(rows[0]![3]);
    expect(out[1]!.indexOf('call_0123')).toBe(out[0]!.indexOf('CALL_ID'));
  });

  it.each([200, 120, 80, 60])('at %i columns every line fits, ids and times are whole, the widest free text is cut with …', (width) => {
    const out = lines(formatTable(columns, rows, width));
    for (const line of out) expect(stringWidth(line)).toBeLessThanOrEqual(width);
    expect(out[1]).toMatch(/^aaaa1111  2025-01-02 08:30:00  /);
    expect(out[2]).toMatch(/^bbbb2222  2025-01-02 08:31:00  /);
    expect(out[1]).toContain('…');
  });

  it('cuts the widest free-text column first, and leaves out optional columns only when the rest cannot fit', () => {
    const wide = lines(formatTable(columns, rows, 120));
    expect(wide[0]).toContain('CALL_ID');
    expect(wide[1]).toContain('too risky, ask me first'); // the command was cut, the shorter reason kept whole
    const narrow = lines(formatTable(columns, rows, 60));
    expect(narrow[0]).not.toContain('CALL_ID');
    expect(narrow[0]).toMatch(/^ID\s+TIME\s+COMMAND\s+REASON$/);
  });

  it('measures wide characters by display width (CJK, emoji) when it pads and cuts', () => {
    const out = lines(formatTable([{ header: 'K' }, { header: 'TEXT', shrink: true }, { header: 'N', align: 'right' }], [['a', '漢字漢字漢字漢字漢字漢字', '1'], ['b', 'plain', '22']], 20));
    for (const line of out) expect(stringWidth(line)).toBeLessThanOrEqual(20);
    expect(out[1]).toMatch(/^a {2}漢字漢字漢字… {3}1$/);
    // The right-aligned last column lines up whatever the width of the text before it.
    expect(stringWidth(out[1]!)).toBe(stringWidth(out[2]!));
  });
});

describe('cell, truncate, plural', () => {
  it('cell: "-" for nothing, JSON for objects, controls shown escaped', () => {
    expect([cell(null), cell(''), cell({ a: 1 }), cell('a\nb\x1b[2J')]).toEqual(['-', '-', '{"a":1}', 'a\\nb\\x1b[2J']);
  });
  it('truncate never splits a character and never exceeds the width', () => {
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('漢字漢字', 5)).toBe('漢字…');
    expect(truncate('👍🏽👍🏽👍🏽', 5)).toBe('👍🏽👍🏽…');
    expect(truncate('short', 10)).toBe('short');
  });
  it('plural', () => {
    expect([plural(0, 'session'), plural(1, 'session'), plural(2, 'session'), plural(1, 'more diagnostic')]).toEqual(['0 sessions', '1 session', '2 sessions', '1 more diagnostic']);
  });
});
