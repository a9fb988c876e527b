// `rec claude` on the REAL pinned Claude Code against our mock Messages API: the dialogs of WebFetch
// (kind network), an MCP server's tool (kind mcp: the one-tool stdio server test/fakes/mcp/markerServer.mjs)
// and NotebookEdit (kind edit). One Claude Code start per tool meets its dialog four times, one key
// each (promptScenarios.ts, the scripts the fixtures were recorded with): Esc, the No digit, 1, and
// 2 (the option that stops asking), then once more with no dialog. The sidecar rows are checked
// against the transcript, and the run followed through `rec merge` and `rec stats`. WebFetch's URL is
// a closed port on 127.0.0.1; its pre-flight check goes to the mock's guard and fails: nothing leaves.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { expectJourneys } from '../../support/journey.js';
import { approvalRow, promptRow, rejectionRow, view } from '../../support/claude/expectedRows.js';
import { PROMPT_SCENARIOS } from '../../support/claude/promptScenarios.js';
import { quitClaude } from '../../../src/agents/claude/bench/recordedScenarios.js';
import { missingPart, startRec, waitReady, type RecSession } from '../../support/claude/recSession.js';
import type { TranscriptCall } from '../../support/claude/transcriptCalls.js';
import { MCP_MARKER, MCP_TOOL, NOTEBOOK_FILE, NOTEBOOK_NEW_SOURCE } from '../../../src/lab/mock/anthropicMessages/scenarios.js';

/** Claude Code's start, five model turns, the quit and rec's reconcile, then merge and stats: generous for 2 loaded cores. */
const TEST_TIMEOUT_MS = 240_000;

const missing = missingPart();
if (missing) throw new Error(`the Claude Code e2e suite cannot run: ${missing}`);

let session: RecSession | undefined;

afterEach(async () => {
  await session?.dispose();
  session = undefined;
});

interface Run {
  readonly s: RecSession;
  /** The tool's five calls: Esc, No, 1, 2, and the one no dialog asked about. */
  readonly calls: readonly [TranscriptCall, TranscriptCall, TranscriptCall, TranscriptCall, TranscriptCall];
  readonly journey: Awaited<ReturnType<typeof expectJourneys>>[number];
}

async function run(name: string, tool: string): Promise<Run> {
  const scenario = PROMPT_SCENARIOS.find((x) => x.name === name);
  if (!scenario) throw new Error(`no scenario ${name}`);
  session = await startRec({ ...(scenario.mcpServer ? { mcpServer: true } : {}) });
  const s = session;
  await waitReady(s);
  await scenario.run(s.driver);
  await (scenario.quit ?? quitClaude)(s.driver);
  expect((await s.proc.expectExit(60_000)).exitCode).toBe(0);
  const journeys = await expectJourneys(s.dbPath, s.env.env);
  expect(journeys).toHaveLength(1);
  const calls = s.transcript().calls.filter((c) => c.name === tool);
  expect(calls).toHaveLength(5);
  return { s, calls: calls as unknown as Run['calls'], journey: journeys[0]! };
}

/** The decisions of the four dialogs, and merge and stats: two rejections of `kind`, then three calls that ran. */
function expectFourDecisions(r: Run, kind: string, o: { esc: string | null; no: string; always: string; alwaysScope: string; rule?: string }): void {
  const [esc, no, yes, always, ruled] = r.calls;
  const rows = r.s.rows().filter((row) => row.call_id !== ruled.id && row.call_id && r.calls.some((c) => c.id === row.call_id));
  expect(rows.map(view)).toEqual([
    promptRow(kind, esc),
    rejectionRow(kind, esc, { trigger: 'esc', option_label: o.esc }),
    promptRow(kind, no),
    rejectionRow(kind, no, { trigger: 'digit', option_label: o.no }),
    promptRow(kind, yes),
    approvalRow(kind, yes, { trigger: 'digit', option_label: 'Yes', scope: 'once' }),
    promptRow(kind, always),
    approvalRow(kind, always, {
      trigger: 'digit',
      option_label: o.always,
      scope: o.alwaysScope,
      ...(o.rule !== undefined ? { native: expect.objectContaining({ permission_rule: o.rule, permissionDecision: expect.objectContaining({ source: 'user_permanent' }) }) } : {}),
    }),
  ]);
  // The fifth call was let through by what option 2 set up: no prompt, no user's decision.
  expect(r.s.rows().filter((row) => row.call_id === ruled.id && (row.type === 'prompt' || row.decided_by === 'user'))).toEqual([]);
  const merged = r.journey.merged;
  expect(merged.flatMap((m) => m.rejections).map((x) => [x.call_id, x.rejection_type, x.trigger])).toEqual([
    [esc.id, kind, 'esc'],
    [no.id, kind, 'digit'],
  ]);
  expect(merged.flatMap((m) => m.calls).filter((c) => r.calls.some((x) => x.id === c.call_id)).map((c) => c.fate)).toEqual(['rejected', 'rejected', 'ran', 'ran', 'ran']);
  expect(r.journey.stats.rejections.by_kind).toEqual([{ key: kind, count: 2 }]);
}

const localRules = (s: RecSession): unknown => JSON.parse(readFileSync(join(s.env.workDir, '.claude', 'settings.local.json'), 'utf8'));

describe('rec claude on the real Claude Code 2.1.332: the WebFetch, MCP tool and NotebookEdit dialogs', () => {
  it('WebFetch (kind network): Esc and 3 refuse, 1 approves once, 2 writes WebFetch(domain:127.0.0.1) and approves always', async () => {
    const r = await run('prompt-webfetch', 'WebFetch');
    expect(localRules(r.s)).toEqual({ permissions: { allow: ['WebFetch(domain:127.0.0.1)'] } });
    const no = 'No, and tell Claude what to do differently (esc)';
    expectFourDecisions(r, 'network', { esc: no, no, always: "Yes, and don't ask again for 127.0.0.1", alwaysScope: 'always', rule: 'WebFetch(domain:127.0.0.1)' });
    expect(r.s.rows().find((row) => row.type === 'prompt')!.prompt).toMatchObject({ title: 'Fetch', details: { description: 'Claude wants to fetch content from 127.0.0.1' } });
  }, TEST_TIMEOUT_MS);

  it('an MCP tool (kind mcp): Esc and 3 refuse, 1 runs it once, 2 writes the tool’s rule and approves always', async () => {
    const r = await run('prompt-mcp', MCP_TOOL);
    expect(existsSync(join(r.s.env.workDir, MCP_MARKER))).toBe(true);
    expect(localRules(r.s)).toEqual({ permissions: { allow: [MCP_TOOL] } });
    expectFourDecisions(r, 'mcp', { esc: null, no: 'No', always: `Yes, and don't ask again for marker — Touch Marker commands in ${r.s.env.workDir}`, alwaysScope: 'always', rule: MCP_TOOL });
  }, TEST_TIMEOUT_MS);

  it('NotebookEdit (kind edit): Esc and 3 refuse, 1 edits the cell once, 2 switches to accept edits for the session', async () => {
    const r = await run('prompt-notebook', 'NotebookEdit');
    expect(readFileSync(join(r.s.env.workDir, NOTEBOOK_FILE), 'utf8')).toContain(JSON.stringify(NOTEBOOK_NEW_SOURCE).slice(1, -1));
    expect(existsSync(join(r.s.env.workDir, '.claude', 'settings.local.json'))).toBe(false);
    expectFourDecisions(r, 'edit', {
      esc: null,
      no: 'No',
      always: 'Yes, and switch to accept edits (auto-approve file edits and common file commands) for this session (shift+tab)',
      alwaysScope: 'session',
    });
  }, TEST_TIMEOUT_MS);
});
