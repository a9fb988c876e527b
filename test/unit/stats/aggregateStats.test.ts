import { describe, expect, it } from 'vitest';
import { StatsAggregator } from '../../../src/stats/aggregateStats.js';
import type { SessionStats } from '../../../src/merge/sessionStats.js';

const rej = (tool: string, command: string | null, extra: Partial<SessionStats['rejections'][number]> = {}) => ({
  tool,
  kind: 'command',
  trigger: 'esc',
  decided_by: 'user',
  command,
  ran: 'no',
  call_id: `c-${Math.random()}`,
  skipped: 0,
  ...extra,
});

const session = (over: Partial<SessionStats>): SessionStats => ({
  agent: 'codex',
  session_id: 's',
  file: 'f',
  calls_by_tool: {},
  rejections: [],
  interruptions: [],
  skipped: 0,
  approvals: 0,
  unknown: 0,
  diagnostics: 0,
  misses: 0,
  ...over,
});

describe('StatsAggregator', () => {
  const agg = new StatsAggregator(2);
  agg.add(session({ calls_by_tool: { exec_command: 4 }, rejections: [rej('exec_command', 'rm -rf build', { skipped: 2 }), rej('exec_command', 'rm -rf build')], skipped: 2 }));
  agg.add(session({ agent: 'claude', calls_by_tool: { Bash: 2, Edit: 1 }, rejections: [rej('Bash', 'git push', { ran: 'yes', trigger: 'digit' })], interruptions: [{ tool: 'Bash', kind: 'tool', trigger: 'ctrl_c' }] }));
  const r = agg.report();

  it('counts rejections per agent, tool and trigger, and the rate per tool', () => {
    expect(r.rejections.by_agent).toEqual([{ key: 'codex', count: 2 }, { key: 'claude', count: 1 }]);
    expect(r.rejections.by_trigger).toEqual([{ key: 'esc', count: 2 }, { key: 'digit', count: 1 }]);
    expect(r.rejection_rate_by_tool.find((t) => t.tool === 'exec_command')).toEqual({ tool: 'exec_command', calls: 4, rejections: 2, rate: 0.5 });
    expect(r.rejection_rate_by_tool.find((t) => t.tool === 'Edit')).toMatchObject({ rejections: 0, rate: 0 });
  });

  it('lists the most refused commands (top N), calls rejected yet run, and siblings skipped per rejection', () => {
    expect(r.most_refused_commands).toEqual([{ key: 'rm -rf build', count: 2 }, { key: 'git push', count: 1 }]);
    expect(r.rejected_yet_ran).toEqual([expect.objectContaining({ agent: 'claude', command: 'git push' })]);
    expect(r.skipped.per_rejection).toMatchObject({ rejections_with_siblings: 1, max: 2, mean: 2 / 3 });
    expect(r.interruptions.by_trigger).toEqual([{ key: 'ctrl_c', count: 1 }]);
  });
});
