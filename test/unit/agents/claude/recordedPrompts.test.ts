// Claude Code 2.1.332's dialogs for WebFetch (kind network), an MCP server's tool (kind mcp) and
// NotebookEdit (kind edit), recorded by scripts/record-claude-fixtures.mjs from the claude kit's
// promptScenarios.ts (recorded/prompt-*: one start per tool, the dialog met four times, Esc, the No
// digit, 1 and 2, then once more with no dialog), replayed through the recorder with the transcript
// written on time and late, then through merge and stats.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecEvent } from '../../../../src/core/events.js';
import { fixturesDir } from '../../../support/agentVersions.js';
import { replayRecorded, type RecordedRun } from '../../../support/claude/recordedRun.js';
import { TIMING_POINTS, timingLabel, timingOptions } from '../../../support/timingSweep.js';

/** A replay parses a few hundred kB of output on the recording's clock; generous for 2 loaded cores. */
const REPLAY_TIMEOUT_MS = 90_000;
/** Claude's transcript trails the screen: on time, and later than a loaded machine showed. */
const LAGGING_TRANSCRIPT_MS = [0, 400, 1_500] as const;
const RECORDED = join(fixturesDir('claude', '2.1.332'), 'recorded');

type Row = Partial<Pick<RecEvent, 'type' | 'kind' | 'trigger' | 'option_label' | 'call_id' | 'scope' | 'ran' | 'tool_name'>>;

const view = (e: RecEvent): Row => ({
  type: e.type,
  kind: e.kind,
  trigger: e.trigger,
  option_label: e.option_label,
  call_id: e.call_id,
  scope: e.scope,
  ran: e.ran,
  tool_name: e.tool_name,
});

interface Dialog {
  readonly scenario: string;
  readonly tool: string;
  readonly kind: string;
  readonly title: string;
  readonly no: string;
  /** The option label Esc picks: WebFetch names Esc on its No option; elsewhere Esc is no option. */
  readonly esc: string | null;
  readonly always: string;
  readonly alwaysScope: string;
}

const DIALOGS: readonly Dialog[] = [
  {
    scenario: 'prompt-webfetch',
    tool: 'WebFetch',
    kind: 'network',
    title: 'Fetch',
    no: 'No, and tell Claude what to do differently (esc)',
    esc: 'No, and tell Claude what to do differently (esc)',
    always: "Yes, and don't ask again for 127.0.0.1",
    alwaysScope: 'always',
  },
  {
    scenario: 'prompt-mcp',
    tool: 'mcp__marker__touch_marker',
    kind: 'mcp',
    title: 'Tool use',
    no: 'No',
    esc: null,
    always: "Yes, and don't ask again for marker — Touch Marker commands in <BASE>/work",
    alwaysScope: 'always',
  },
  {
    scenario: 'prompt-notebook',
    tool: 'NotebookEdit',
    kind: 'edit',
    title: 'Edit notebook',
    no: 'No',
    esc: null,
    always: 'Yes, and switch to accept edits (auto-approve file edits and common file commands) for this session (shift+tab)',
    alwaysScope: 'session',
  },
];

const callsOf = (r: RecordedRun, tool: string): string[] => r.calls.filter((c) => c.name === tool).map((c) => c.id);

function expectDialogs(r: RecordedRun, d: Dialog): void {
  const ids = callsOf(r, d.tool);
  expect(ids).toHaveLength(5);
  const [esc, no, yes, always, ruled] = ids as [string, string, string, string, string];
  const prompts = r.events.filter((e) => e.type === 'prompt');
  expect(prompts.map((e) => [e.kind, e.call_id, e.tool_name])).toEqual([esc, no, yes, always].map((id) => [d.kind, id, d.tool]));
  expect(prompts[0]!.prompt).toMatchObject({ title: d.title });
  const decided = r.events.filter((e) => e.type !== 'prompt' && e.tool_name === d.tool).map(view);
  const base = { kind: d.kind, tool_name: d.tool };
  expect(decided.filter((e) => e.call_id !== ruled)).toEqual([
    { ...base, type: 'rejection', trigger: 'esc', option_label: d.esc, call_id: esc, scope: null, ran: 'no' },
    { ...base, type: 'rejection', trigger: 'digit', option_label: d.no, call_id: no, scope: null, ran: 'no' },
    { ...base, type: 'approval', trigger: 'digit', option_label: 'Yes', call_id: yes, scope: 'once', ran: 'yes' },
    { ...base, type: 'approval', trigger: 'digit', option_label: d.always, call_id: always, scope: d.alwaysScope, ran: 'yes' },
  ]);
  // The fifth call asked nothing: no user decision is recorded for it.
  expect(decided.filter((e) => e.call_id === ruled && e.trigger !== null && e.trigger !== 'rule')).toEqual([]);
  const merged = r.journey.merged;
  expect(merged.flatMap((m) => m.rejections).map((x) => [x.call_id, x.rejection_type, x.trigger])).toEqual([
    [esc, d.kind, 'esc'],
    [no, d.kind, 'digit'],
  ]);
  const fates = merged.flatMap((m) => m.calls).filter((c) => c.tool_name === d.tool);
  expect(fates.map((c) => c.fate)).toEqual(['rejected', 'rejected', 'ran', 'ran', 'ran']);
  expect(r.journey.stats.rejections.by_kind).toEqual([{ key: d.kind, count: 2 }]);
}

const TIMINGS = [
  ...LAGGING_TRANSCRIPT_MS.map((lag) => ({ label: `transcript written ${lag} ms late`, options: { fileLagMs: lag } })),
  ...TIMING_POINTS.map((p) => ({ label: timingLabel(p, 'transcript'), options: timingOptions(p) })),
];

for (const { label, options } of TIMINGS) {
  describe(`claude 2.1.332, 120x40, the WebFetch, MCP and NotebookEdit dialogs, ${label}`, () => {
    for (const d of DIALOGS) {
      it(`${d.scenario}: Esc and ${d.no} refuse (kind ${d.kind}), 1 approves once, 2 approves (${d.alwaysScope}), then no dialog`, async () => {
        const r = await replayRecorded(d.scenario, { dir: RECORDED, ...options });
        expectDialogs(r, d);
      }, REPLAY_TIMEOUT_MS);
    }
  });
}
