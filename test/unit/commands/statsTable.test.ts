import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { formatStatsTable } from '../../../src/commands/statsTable.js';
import { StatsAggregator } from '../../../src/stats/aggregateStats.js';
import type { SessionStats } from '../../../src/merge/sessionStats.js';
import { HOSTILE, findUnsafe } from '../../support/hostileStrings.js';

const rej = (tool: string, command: string | null, extra: Partial<SessionStats['rejections'][number]> = {}): SessionStats['rejections'][number] => ({
  tool, kind: 'command', trigger: 'esc', decided_by: 'user', command, ran: 'no', call_id: 'call_1', skipped: 0, ...extra,
});
const session = (over: Partial<SessionStats>): SessionStats => ({
  agent: 'codex', session_id: 's', file: 'f', calls_by_tool: {}, rejections: [], interruptions: [], skipped: 0, approvals: 0, unknown: 0, diagnostics: 0, misses: 0, ...over,
});
const report = (...sessions: SessionStats[]) => {
  const agg = new StatsAggregator(10);
  for (const s of sessions) agg.add(s);
  return agg.report();
};

describe('formatStatsTable', () => {
  const r = report(
    session({ calls_by_tool: { exec_command: 4 }, rejections: [rej('exec_command', 'rm -rf build', { skipped: 2 }), rej('exec_command', 'rm -rf build')], skipped: 2 }),
    session({ agent: 'claude', calls_by_tool: { Bash: 2, Edit: 1 }, rejections: [rej('Bash', 'git push', { ran: 'yes', trigger: 'digit' })], interruptions: [{ tool: 'Bash', kind: 'tool', trigger: 'ctrl_c' }], diagnostics: 1, misses: 1 }),
  );

  it('starts with a short summary, with correct plurals', () => {
    const text = formatStatsTable(r);
    expect(text.split('\n')[0]).toBe('2 sessions (claude 1, codex 1), 7 tool calls, 1 diagnostic. 3 rejections, 1 interruption, 2 skipped, 0 approvals, 0 of unknown fate. rec missed 1 decision the agents\' files show.');
    const one = formatStatsTable(report(session({ calls_by_tool: { Bash: 1 }, rejections: [rej('Bash', 'ls')], approvals: 1, diagnostics: 1 })));
    expect(one.split('\n')[0]).toBe('1 session (codex 1), 1 tool call, 1 diagnostic. 1 rejection, 0 interruptions, 0 skipped, 1 approval, 0 of unknown fate.');
  });

  it('says how many decisions rec missed, and per agent, only when it missed some', () => {
    const text = formatStatsTable(report(session({ agent: 'claude', calls_by_tool: { Bash: 2 }, diagnostics: 2, misses: 2 }), session({})));
    expect(text.split('\n')[0]).toBe('2 sessions (claude 1, codex 1), 2 tool calls, 2 diagnostics. 0 rejections, 0 interruptions, 0 skipped, 0 approvals, 0 of unknown fate. rec missed 2 decisions the agents\' files show.');
    expect(text).toMatch(/Decisions rec missed, per agent \(rec doctor\)\n\s+agent\s+count\n\s+claude\s+2\n/);
    expect(formatStatsTable(report(session({})))).not.toContain('missed');
  });

    it('prints the tables that have rows, aligned', () => {
    const text = formatStatsTable(r);
    expect(text).toMatch(/Rejection rate per tool\n\s+tool\s+calls\s+rejected\s+rate\n\s+exec_command\s+4\s+2\s+50\.0%/);
    expect(text).toMatch(/Calls rejected yet run: 1\n.*\n\s+claude\s+Bash\s+git push/);
    expect(text).not.toContain('(none)');
    expect(text).not.toContain('left out'); // every table had rows
  });

  it('leaves empty tables out unless --all', () => {
    const quiet = report(session({ calls_by_tool: { exec_command: 3 }, unknown: 3 }));
    const text = formatStatsTable(quiet);
    expect(text).toBe('1 session (codex 1), 3 tool calls. 0 rejections, 0 interruptions, 0 skipped, 0 approvals, 3 of unknown fate.\n\n(14 empty tables left out; --all shows every table)\n');
    const all = formatStatsTable(quiet, { all: true });
    expect(all.match(/\(none\)/g)).toHaveLength(14);
    expect(all).toContain('Rejection rate per tool\n  (none)');
  });

  it.each([80, 200])('at %i columns no line is wider than the terminal; hostile commands are shown escaped', (width) => {
    const hostile = report(session({ calls_by_tool: { Bash: 1 }, rejections: [rej('Bash', `${HOSTILE} ${'x'.repeat(300)}`, { ran: 'yes' })] }));
    const text = formatStatsTable(hostile, { width });
    expect(findUnsafe(text)).toBeUndefined();
    expect(text).toContain('\\x1b]0;pwned\\x07');
    for (const line of text.trimEnd().split('\n')) expect(stringWidth(line)).toBeLessThanOrEqual(width);
    // Piped: nothing cut.
    expect(formatStatsTable(hostile)).toContain('x'.repeat(300));
  });
});
