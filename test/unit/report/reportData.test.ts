// The report's data: the figures are StatsAggregator's, decisions are bucketed per day or per week,
// and nothing in the data can end the script block it is embedded in.
import { describe, expect, it } from 'vitest';
import type { DecisionStep, SessionDetail } from '../../../src/merge/sessionDetail.js';
import type { SessionStats } from '../../../src/merge/sessionStats.js';
import { ReportBuilder, STEP_FIELDS } from '../../../src/report/reportData.js';
import { renderReportPage, scriptSafeJson } from '../../../src/report/reportPage.js';
import { StatsAggregator } from '../../../src/stats/aggregateStats.js';

const step = (type: string, ts: string | null, over: Partial<DecisionStep> = {}): DecisionStep => ({
  type, ts, tool: 'Bash', call_id: null, what: 'rm -rf build', kind: 'command', trigger: 'esc', decided_by: 'user', option: null, reason: null, reason_source: 'none', ran: 'no', partial: null, prompt: null, ...over,
});

function session(agent: string, started: string, steps: DecisionStep[]): [SessionStats, SessionDetail] {
  const rejections = steps.filter((s) => s.type === 'rejection').map((s) => ({ tool: s.tool, kind: 'command', trigger: s.trigger ?? '(unknown)', decided_by: 'user', command: s.what, ran: 'no', call_id: null, skipped: 0 }));
  const stats: SessionStats = { agent, session_id: started, file: `/f/${started}`, calls_by_tool: { Bash: steps.length }, rejections, interruptions: [], skipped: 0, approvals: steps.filter((s) => s.type === 'approval').length, unknown: 0, diagnostics: 0, misses: 0 };
  return [stats, { agent, session_id: started, file: `/f/${started}`, cwd: '/w', started_at: started, steps }];
}

describe('ReportBuilder', () => {
  const sessions = [
    session('codex', '2026-01-05T10:00:00Z', [step('rejection', '2026-01-05T10:01:00Z', { reason: 'not now', reason_source: 'inline' }), step('approval', '2026-01-05T10:02:00Z')]),
    session('claude', '2026-01-07T10:00:00Z', [step('rejection', null)]),
  ];

  it('gives the figures of rec stats and counts decisions per day, from the session start when a step has no time', () => {
    const b = new ReportBuilder(10);
    const agg = new StatsAggregator(10);
    for (const [s, d] of sessions) {
      b.add(s, d);
      agg.add(s);
    }
    const data = b.build(new Date('2026-02-01T00:00:00Z'), false);
    expect(data.stats).toEqual(agg.report());
    expect(data.over_time.unit).toBe('day');
    expect(data.over_time.buckets).toEqual(['2026-01-05', '2026-01-06', '2026-01-07']);
    expect(data.over_time.series).toEqual([
      { agent: 'claude', type: 'rejection', counts: [0, 0, 1] },
      { agent: 'codex', type: 'rejection', counts: [1, 0, 0] },
      { agent: 'codex', type: 'approval', counts: [1, 0, 0] },
    ]);
    expect(data.refused).toEqual([{ what: 'rm -rf build', count: 2, reasons: ['not now'], sessions: [0, 1] }]);
    expect(data.reason_source).toEqual([{ key: 'inline', count: 1 }, { key: 'none', count: 1 }]);
    expect(data.open).toBeNull();
  });

  it('lists each distinct prompt once; a step that answered one names it and the option chosen, others stop after their fields', () => {
    const prompt = (chosen: number | null) => ({
      event_id: `p${String(chosen)}`,
      title: 'Bash command',
      options: ['Yes', 'No'].map((label, i) => ({ label, key: label === 'No' ? 'esc' : null, chosen: i === chosen })),
    });
    const b = new ReportBuilder(10);
    b.add(...session('claude', '2026-01-05T10:00:00Z', [
      step('approval', '2026-01-05T10:01:00Z', { prompt: prompt(0) }),
      step('rejection', '2026-01-05T10:02:00Z', { prompt: prompt(null) }),
      step('skipped', '2026-01-05T10:03:00Z'),
    ]));
    const data = b.build(new Date(), false);
    expect(data.prompts).toEqual([{ title: 'Bash command', options: [['Yes', null], ['No', 'esc']] }]);
    expect(data.sessions[0]![7].map((st) => st.slice(STEP_FIELDS.length))).toEqual([[0, 0], [0, null], []]);
  });

  it('writes each folder once: a session names its folder and its file\'s folder by index', () => {
    const b = new ReportBuilder(10);
    const [stats, detail] = session('codex', '2026-01-05T10:00:00Z', []);
    b.add(stats, { ...detail, cwd: '/home/a/project', file: '/home/a/.codex/sessions/rollout-1.jsonl' });
    b.add({ ...stats, session_id: 'two' }, { ...detail, session_id: 'two', started_at: '2026-01-06T10:00:00Z', cwd: '/home/a/project', file: '/home/a/.codex/sessions/rollout-2.jsonl' });
    b.add({ ...stats, session_id: 'three' }, { ...detail, session_id: 'three', started_at: '2026-01-04T10:00:00Z', cwd: null, file: 'bare.jsonl' });
    const data = b.build(new Date(), false);
    expect(data.paths).toEqual(['/home/a/.codex/sessions', '/home/a/project']);
    expect(data.sessions.map((s) => s.slice(0, 6))).toEqual([
      ['codex', 'two', '2026-01-06T10:00:00Z', 1, 0, 'rollout-2.jsonl'],
      ['codex', '2026-01-05T10:00:00Z', '2026-01-05T10:00:00Z', 1, 0, 'rollout-1.jsonl'],
      ['codex', 'three', '2026-01-04T10:00:00Z', null, null, 'bare.jsonl'],
    ]);
  });

  it('counts per week, from Mondays, over a span of more than two months', () => {
    const b = new ReportBuilder(10);
    for (const [s, d] of [session('codex', '2026-01-01T10:00:00Z', [step('rejection', '2026-01-01T10:00:00Z')]), session('codex', '2026-04-01T10:00:00Z', [step('rejection', '2026-04-01T10:00:00Z')])]) b.add(s, d);
    const o = b.build(new Date(), true).over_time;
    expect(o.unit).toBe('week');
    // 2026-01-01 is a Thursday: its week starts on Monday 2025-12-29.
    expect(o.buckets[0]).toBe('2025-12-29');
    expect(o.buckets.at(-1)).toBe('2026-03-30');
    expect(o.series[0]!.counts.reduce((a, b) => a + b, 0)).toBe(2);
  });
});

describe('the page', () => {
  it('escapes every < and line separator of the data, so no session text can end the script block', () => {
    const json = scriptSafeJson({ what: '</script><script>alert(1)</script><!-- \u2028' });
    expect(json).not.toMatch(/[<\u2028]/);
    expect(JSON.parse(json)).toEqual({ what: '</script><script>alert(1)</script><!-- \u2028' });
  });

  it('names its two scripts by hash in a policy that forbids every request', () => {
    const [s, d] = session('codex', '2026-01-05T10:00:00Z', [step('rejection', null, { what: '</script><img src=x onerror=alert(1)>' })]);
    const b = new ReportBuilder(10);
    b.add(s, d);
    const html = renderReportPage(b.build(new Date(), false));
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)![1]!;
    expect(csp).toContain("default-src 'none'");
    expect(csp.match(/'sha256-/g)).toHaveLength(3);
    expect(html.match(/<script/g)).toHaveLength(3);
    expect(html).not.toContain('<img');
  });
});
