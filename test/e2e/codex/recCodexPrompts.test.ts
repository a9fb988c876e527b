// `rec codex` on the REAL pinned Codex against our mock Responses server: the approval form of a
// tool of an MCP server (kind mcp), with the one-tool stdio server test/fakes/mcp/markerServer.mjs,
// and the network prompt (kind network), with Codex under managed network requirements in a private
// /etc (src/agents/codex/bench/managedNetwork.ts). Each prompt gets one key (promptScenarios.ts, the scripts
// the fixtures were recorded with). The sidecar rows are checked against the rollout (and the files
// the MCP calls made, the rule the network prompt wrote), and each run is followed through `rec
// merge` and `rec stats`.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { press } from '../../../src/lab/driver.js';
import { waitUntil } from '../../../src/lab/pollUntil.js';
import { managedNetworkUnavailable } from '../../../src/agents/codex/bench/managedNetwork.js';
import { INDIRECT_NETWORK_COMMAND, mcpMarkerFile, MCP_CALLS } from '../../../src/lab/mock/openaiResponses/scenarios.js';
import { expectJourneys, type Journey } from '../../support/journey.js';
import { approvalRow, NETWORK_OPTION, networkApprovalRow, promptRow, rejectionRow, view } from '../../support/codex/expectedRows.js';
import { netAlwaysExpected, netKeysExpected } from '../../support/codex/networkExpected.js';
import { AGENT_VERSION } from '../../support/codex/env.js';
import { networkForm, PROMPT_SCENARIOS } from '../../support/codex/promptScenarios.js';
import { assertBuilt, startRec, waitReady, type RecSession } from '../../support/codex/recSession.js';
import type { RolloutCall } from '../../support/codex/rolloutCalls.js';

/** Codex's start (its MCP server's too), one turn of five calls, the quit and rec's reconcile, merge and stats. */
const TEST_TIMEOUT_MS = 150_000;
const TOOL = 'mcp__marker__touch_marker';
/** What "Always allow" writes to config.toml (measured on 0.171.0). */
const ALWAYS_RULE = '[mcp_servers.marker.tools.touch_marker]\napproval_mode = "approve"';

let session: RecSession | undefined;

beforeAll(() => assertBuilt());

afterEach(async () => {
  await session?.dispose();
  session = undefined;
});

interface Run {
  readonly s: RecSession;
  readonly calls: readonly RolloutCall[];
  readonly journey: Journey;
}

async function run(name: string, env?: NodeJS.ProcessEnv): Promise<Run> {
  const scenario = PROMPT_SCENARIOS.find((x) => x.name === name);
  if (!scenario) throw new Error(`no scenario ${name}`);
  session = await startRec({ mcpServer: scenario.mcpServer === true, managedNetwork: scenario.managedNetwork === true, ...(env ? { env } : {}) });
  const s = session;
  await waitReady(s);
  await scenario.run(s.driver);
  expect((await s.quit()).exitCode).toBe(0);
  const journeys = await expectJourneys(s.dbPath, s.env.env);
  expect(journeys).toHaveLength(1);
  const calls = s.rolloutCalls();
  if (scenario.mcpServer) expect(calls.map((c) => c.name)).toEqual(Array(MCP_CALLS).fill(TOOL));
  return { s, calls, journey: journeys[0]! };
}

/** Which of the five calls made their file: the marker server ran them. */
function ranFiles(s: RecSession): boolean[] {
  return Array.from({ length: MCP_CALLS }, (_, i) => existsSync(join(s.env.workDir, mcpMarkerFile(i + 1))));
}

describe(`rec codex on the real Codex ${AGENT_VERSION}: an MCP tool's approval form`, () => {
  it.each([
    ['without hooks', undefined],
    // Codex's hooks tell each call (PreToolUse, named as rec names it) before the rollout does.
    ['with REC_CODEX_HOOKS=1', { REC_CODEX_HOOKS: '1' }],
  ] as const)('Esc and 4 cancel the call (kind mcp) and the turn goes on; Enter allows once; 2 allows for the session (%s)', async (_, env) => {
    const { s, calls, journey } = await run('mcp-keys', env);
    expect(ranFiles(s)).toEqual([false, false, true, true, true]);
    const [esc, cancel, enter, session2] = calls as [RolloutCall, RolloutCall, RolloutCall, RolloutCall, RolloutCall];
    expect(s.rows().map(view)).toEqual([
      promptRow('mcp', esc),
      rejectionRow('mcp', esc, { trigger: 'esc', option_label: 'Cancel' }),
      promptRow('mcp', cancel),
      rejectionRow('mcp', cancel, { trigger: 'digit', option_label: 'Cancel' }),
      promptRow('mcp', enter),
      approvalRow('mcp', enter, { trigger: 'enter', option_label: 'Allow', scope: 'once' }),
      promptRow('mcp', session2),
      approvalRow('mcp', session2, { trigger: 'digit', option_label: 'Allow for this session', scope: 'session' }),
    ]);
    expect(s.rows().find((r) => r.type === 'prompt')!.prompt).toMatchObject({ title: 'Allow the marker MCP server to run tool "touch_marker"?', details: { server: 'marker', tool: 'touch_marker' } });
    const merged = journey.merged;
    expect(merged.flatMap((m) => m.rejections).map((x) => [x.call_id, x.rejection_type, x.trigger])).toEqual([
      [esc.callId, 'mcp', 'esc'],
      [cancel.callId, 'mcp', 'digit'],
    ]);
    expect(merged.flatMap((m) => m.calls).map((c) => c.fate)).toEqual(['rejected', 'rejected', 'ran', 'ran', 'ran']);
    expect(journey.stats.rejections.by_kind).toEqual([{ key: 'mcp', count: 2 }]);
  }, TEST_TIMEOUT_MS);

  it('3 allows always: Codex writes the tool’s approval_mode to config.toml, rec reads it back, and asks no more', async () => {
    const { s, calls, journey } = await run('mcp-always');
    expect(ranFiles(s)).toEqual([true, true, true, true, true]);
    expect(readFileSync(join(s.env.codexHome, 'config.toml'), 'utf8')).toContain(ALWAYS_RULE);
    const first = calls[0]!;
    expect(s.rows().map(view)).toEqual([
      promptRow('mcp', first),
      approvalRow('mcp', first, { trigger: 'digit', option_label: 'Always allow', scope: 'always' }),
    ]);
    expect(s.rows().find((r) => r.type === 'approval')!.native).toMatchObject({ permission_rule: ALWAYS_RULE });
    expect(journey.merged.flatMap((m) => m.calls).map((c) => c.fate)).toEqual(Array(MCP_CALLS).fill('ran'));
    expect(journey.stats.rejections.by_kind).toEqual([]);
  }, TEST_TIMEOUT_MS);
});

/** Where a private /etc cannot be mounted (not root, no overlay), the suite says so and does not run. */
const NO_PRIVATE_ETC = managedNetworkUnavailable();
if (NO_PRIVATE_ETC) process.stderr.write(`recCodexPrompts: the network prompt is not tested here: ${NO_PRIVATE_ETC}\n`);

describe.skipIf(NO_PRIVATE_ETC !== undefined)(`rec codex on the real Codex ${AGENT_VERSION}: the network prompt`, () => {
  it('y allows once, a for the conversation (not asked again), Esc, n and 4 refuse (kind network, tied to the command that fetched)', async () => {
    const { s, calls, journey } = await run('net-keys');
    const expected = netKeysExpected(calls);
    expect(calls.map((c) => c.args.cmd)).toEqual(expected.commands);
    expect(s.rows().map(view)).toEqual(expected.rows);
    expect(s.rows().find((r) => r.type === 'prompt')!.prompt).toMatchObject({ title: 'Do you want to approve network access to "one.example.com"?', details: { host: 'one.example.com' } });
    const merged = journey.merged;
    expect(merged.flatMap((m) => m.rejections).map((x) => [x.call_id, x.rejection_type, x.trigger, x.reason])).toEqual(expected.rejections.map(([id, trigger, reason]) => [id, 'network', trigger, reason]));
    expect(merged.flatMap((m) => m.calls).map((c) => c.fate)).toEqual(expected.fates);
    expect(journey.stats.rejections.by_kind).toEqual([{ key: 'network', count: 3 }]);
  }, TEST_TIMEOUT_MS);

  it('p allows a host in the future: Codex appends a network_rule, rec reads it back, and a next turn is not asked', async () => {
    const { s, calls, journey } = await run('net-always');
    const expected = netAlwaysExpected(calls);
    expect(calls.map((c) => c.args.cmd)).toEqual(expected.commands);
    const rules = readFileSync(join(s.env.codexHome, 'rules', 'default.rules'), 'utf8');
    const ruleFor = (host: string) => rules.split('\n').find((l) => l.startsWith('network_rule(') && l.includes(`host="${host}"`));
    expect(ruleFor('one.example.com')).toMatch(/decision="allow"/);
    expect(ruleFor('two.example.com')).toBeUndefined();
    expect(s.rows().map(view)).toEqual(expected.rows);
    const approvals = s.rows().filter((r) => r.type === 'approval');
    expect(approvals.map((r) => (r.native as { permission_rule?: string } | null)?.permission_rule)).toEqual([ruleFor('one.example.com'), undefined, ruleFor('three.example.com')]);
    expect(journey.merged.flatMap((m) => m.calls).map((c) => c.fate)).toEqual(expected.fates);
    expect(journey.merged.flatMap((m) => m.approvals).map((a) => [a.call_id, a.scope])).toEqual(expected.approvals);
    expect(journey.stats.rejections.by_kind).toEqual([]);
  }, TEST_TIMEOUT_MS);

  it('with REC_CODEX_HOOKS=1, a command that does not name the host is tied to its prompt by the PermissionRequest hook', async () => {
    session = await startRec({ managedNetwork: true, env: { REC_CODEX_HOOKS: '1' } });
    const s = session;
    await waitReady(s);
    const turn = 'SCN=netindirect fetch';
    await s.driver.line(turn);
    await s.driver.waitScreen(networkForm(turn, 'one.example.com'), 'form');
    await press(s.driver, 'y');
    await s.driver.waitScreen(/✔ You approved codex network access to http:\/\/one\.example\.com this time/, 'approved');
    await s.driver.waitScreen(/^• Done\.$/m, 'done');
    // With hooks Codex runs its Stop hook after the answer is drawn: a quit during it would abort the turn.
    await waitUntil(() => (readFileSync(s.rolloutFile(), 'utf8').includes('"type":"task_complete"') ? true : undefined), { what: 'task_complete in the rollout', timeoutMs: 30_000 });
    expect((await s.quit()).exitCode).toBe(0);
    const [call] = s.rolloutCalls();
    expect(call!.args.cmd).toBe(INDIRECT_NETWORK_COMMAND);
    expect(s.rows().map(view)).toEqual([
      promptRow('network', call!),
      networkApprovalRow(call!, { trigger: 'letter', option_label: NETWORK_OPTION.once, scope: 'once' }),
    ]);
    const journeys = await expectJourneys(s.dbPath, s.env.env);
    expect(journeys.flatMap((j) => j.merged).flatMap((m) => m.approvals).map((a) => a.call_id)).toEqual([call!.callId]);
  }, TEST_TIMEOUT_MS);
});
