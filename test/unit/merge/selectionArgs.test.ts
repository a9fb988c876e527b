import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/commands/commandIO.js';
import { parseSelectionArgs } from '../../../src/merge/selectionArgs.js';
import { parseSince } from '../../../src/merge/selectSessions.js';

describe('parseSelectionArgs', () => {
  it('takes files, --run, --agent, --since, --db, --jobs and -o', () => {
    const a = parseSelectionArgs(['a.jsonl', '--run', 'r1', '--agent=gemini', '--since', '7d', '--db', 'x.db', '-j', '2', '-o', 'out', 'b.jsonl'], { output: true });
    expect(a.selection).toMatchObject({ files: ['a.jsonl', 'b.jsonl'], runId: 'r1', agent: 'gemini' });
    expect(a.selection.since).toBeInstanceOf(Date);
    expect([a.db, a.jobs, a.output]).toEqual(['x.db', 2, 'out']);
  });

  it('refuses flags of the other command, bad agents, ages and job counts', () => {
    expect(() => parseSelectionArgs(['--json'], { output: true })).toThrow(UsageError);
    expect(() => parseSelectionArgs(['--agent', 'vim'], {})).toThrow(/codex, gemini or claude/);
    expect(() => parseSelectionArgs(['--since', 'yesterday-ish'], {})).toThrow(/--since/);
    expect(() => parseSelectionArgs(['--jobs', '0'], {})).toThrow(/--jobs/);
    expect(() => parseSelectionArgs(['--run'], {})).toThrow(/needs a value/);
  });
});

describe('parseSince', () => {
  it('reads ages and dates', () => {
    const now = new Date('2026-01-10T00:00:00.000Z');
    expect(parseSince('24h', now)!.toISOString()).toBe('2026-01-09T00:00:00.000Z');
    expect(parseSince('2w', now)!.toISOString()).toBe('2025-12-27T00:00:00.000Z');
    expect(parseSince('2026-01-01', now)!.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(parseSince('soon', now)).toBeNull();
  });
});
