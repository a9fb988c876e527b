// Which rollout is a run's, on the REAL Codex 0.169.0 (issue 19): two `rec codex` side by side in one
// folder, given the same words and proposed the same command, each keep their own call (or none, and
// say why), never the other's; and `rec codex resume --last` records the new turn's call in the
// rollout it continues, without recording the earlier turn again.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EOF, spawn, TIMEOUT, type Spawned } from '../../../src/lab/spawn.js';
import { startResponsesServer, type ResponsesServer } from '../../../src/lab/mock/openaiResponses/server.js';
import { settle } from '../../../src/lab/driver.js';
import { noteNetworkIsolation } from '../../support/networkIsolation.js';
import { REC_BIN, assertBuilt } from '../../support/recBin.js';
import { readAgentRecords, readEventRows, readRuns } from '../../support/sidecarRows.js';
import { AGENT_VERSION, AGENT_BIN, createEnv, type AgentEnv } from '../../support/codex/env.js';
import { readRolloutCalls } from '../../support/codex/rolloutCalls.js';
import { KEY, SCREEN } from '../../../src/agents/codex/bench/recordedScenarios.js';

const TEST_TIMEOUT_MS = 180_000;
const START_TIMEOUT_MS = 60_000;
const STEP_TIMEOUT_MS = 30_000;
const QUIT_WAIT_MS = 2_000;
const REC_EXIT_TIMEOUT_MS = 30_000;
/** The same words in every pane: the mock proposes the same command to each. */
const SHELL_PROMPT = 'SCN=shell please write the file';

interface World {
  readonly server: ResponsesServer;
  readonly env: AgentEnv;
  readonly recs: Spawned[];
}

let world: World | undefined;

beforeAll(() => assertBuilt());

afterEach(async () => {
  if (!world) return;
  const { server, env, recs } = world;
  world = undefined;
  await env.stopProcesses(recs.map((r) => r.pid));
  for (const r of recs) r.dispose();
  await server.close();
  await env.dispose();
});

async function startWorld(): Promise<World> {
  noteNetworkIsolation();
  const server = await startResponsesServer({});
  const env = createEnv({ baseUrl: server.baseUrl, token: server.token });
  world = { server, env, recs: [] };
  return world;
}

/** `rec --db <name>.db codex ARGS…` in the world's one project folder and CODEX_HOME. */
function startRec(w: World, name: string, args: readonly string[] = []): Spawned {
  const rec = spawn(process.execPath, [REC_BIN, '--db', dbOf(w, name), 'codex', ...args], {
    cols: 120,
    rows: 40,
    cwd: w.env.workDir,
    env: { ...w.env.env, REC_CODEX_BIN: AGENT_BIN },
    timeoutMs: STEP_TIMEOUT_MS,
  });
  w.recs.push(rec);
  return rec;
}

const dbOf = (w: World, name: string) => join(w.env.baseDir, `${name}.db`);

/** Types the message; Enter only once it shows (Codex takes a burst ending in Enter as a paste). */
async function typeMessage(rec: Spawned, text: string): Promise<void> {
  rec.send(text);
  await rec.expectScreen(`› ${text}`);
}

/** Ctrl+C at the idle composer, as a user quits; waits until rec has exited. */
async function quit(rec: Spawned): Promise<number> {
  for (let attempt = 0; attempt < 3 && !rec.exitStatus; attempt += 1) {
    rec.sendKey('ctrl-c');
    if ((await rec.expect([EOF, TIMEOUT], QUIT_WAIT_MS)) === 0) break;
  }
  return (await rec.expectExit(REC_EXIT_TIMEOUT_MS)).exitCode;
}

function recJson(w: World, name: string, args: readonly string[]): unknown {
  const out = execFileSync(process.execPath, [REC_BIN, ...args, '--db', dbOf(w, name)], { cwd: w.env.workDir, env: w.env.env, encoding: 'utf8' });
  return JSON.parse(out) as unknown;
}

/** A deciding key, after a person's reaction time (KEY_SETTLE_MS: Codex drops a key sent the instant a prompt appears). */
async function decide(rec: Spawned, key: string): Promise<void> {
  await settle();
  rec.send(key);
}

const decisions = (rows: ReturnType<typeof readEventRows>) => rows.filter((r) => r.type === 'approval' || r.type === 'rejection');

describe(`rec codex on the real Codex ${AGENT_VERSION}: the right rollout, always`, () => {
  it('two runs side by side in one folder, same words, same command: each keeps its own call id, never the other\'s', async () => {
    const w = await startWorld();
    const refuser = startRec(w, 'refuser');
    const approver = startRec(w, 'approver');
    await refuser.expectScreen(SCREEN.ready, START_TIMEOUT_MS);
    await approver.expectScreen(SCREEN.ready, START_TIMEOUT_MS);
    await Promise.all([typeMessage(refuser, SHELL_PROMPT), typeMessage(approver, SHELL_PROMPT)]);
    refuser.sendKey('enter');
    approver.sendKey('enter');
    await refuser.expectScreen(SCREEN.promptFooter);
    await approver.expectScreen(SCREEN.promptFooter);
    await Promise.all([decide(refuser, KEY.esc), decide(approver, 'y')]);
    await refuser.expectScreen(SCREEN.canceled);
    await approver.expectScreen(SCREEN.done);
    expect(await quit(refuser)).toBe(0);
    expect(await quit(approver)).toBe(0);

    // Codex's own record of who did what: one rollout holds the refused call, the other the one that ran.
    const rollouts = w.env.rolloutFiles().map((file) => ({ file, calls: readRolloutCalls(file) }));
    expect(rollouts).toHaveLength(2);
    const refused = rollouts.find((r) => r.calls.some((c) => /aborted by user/.test(c.output ?? '')))!;
    const ran = rollouts.find((r) => r !== refused)!;
    const refusedCall = refused.calls[0]!.callId;
    const ranCall = ran.calls[0]!.callId;
    expect(ran.calls[0]!.ranPerRollout).toBe(true);

    const refuserRows = readEventRows(dbOf(w, 'refuser'));
    const approverRows = readEventRows(dbOf(w, 'approver'));
    expect(decisions(refuserRows).map((r) => [r.type, r.call_id])).toEqual([['rejection', refusedCall]]);
    expect(decisions(approverRows).map((r) => [r.type, r.call_id])).toEqual([['approval', ranCall]]);
    for (const row of refuserRows) expect(row.call_id).not.toBe(ranCall);
    for (const row of approverRows) expect(row.call_id).not.toBe(refusedCall);
    expect(readRuns(dbOf(w, 'refuser'))[0]!.agent_session_file).toBe(refused.file);
    expect(readRuns(dbOf(w, 'approver'))[0]!.agent_session_file).toBe(ran.file);
    // Each sidecar copied only its own rollout's records.
    expect(new Set(readAgentRecords(dbOf(w, 'refuser')).map((r) => r.source_file))).toEqual(new Set([refused.file]));
    expect(new Set(readAgentRecords(dbOf(w, 'approver')).map((r) => r.source_file))).toEqual(new Set([ran.file]));

    // Merge and stats count one refusal and one approval, each in its own run.
    const refuserRun = String(readRuns(dbOf(w, 'refuser'))[0]!.id);
    const approverRun = String(readRuns(dbOf(w, 'approver'))[0]!.id);
    const mergedRefuser = recJson(w, 'refuser', ['merge', '--run', refuserRun]) as { rejections: Array<{ call_id: string }> };
    const mergedApprover = recJson(w, 'approver', ['merge', '--run', approverRun]) as { rejections: unknown[] };
    expect(mergedRefuser.rejections.map((r) => r.call_id)).toEqual([refusedCall]);
    expect(mergedApprover.rejections).toEqual([]);
    const statsRefuser = recJson(w, 'refuser', ['stats', '--json', '--run', refuserRun]);
    const statsApprover = recJson(w, 'approver', ['stats', '--json', '--run', approverRun]);
    expect(statsRefuser).toMatchObject({ calls: 1, rejections: { total: 1 }, approvals: 0 });
    expect(statsApprover).toMatchObject({ calls: 1, rejections: { total: 0 }, approvals: 1 });
  }, TEST_TIMEOUT_MS);

  // The session to go on with: the last one, or one named by its id.
  it.each([
    { how: 'resume --last', args: (_id: string) => ['resume', '--last'] },
    { how: 'resume <id>', args: (id: string) => ['resume', id] },
  ])('codex $how: the refusal in the new turn carries the new call id, and the earlier turn is not recorded again', async ({ args }) => {
    const w = await startWorld();
    const first = startRec(w, 'first');
    await first.expectScreen(SCREEN.ready, START_TIMEOUT_MS);
    await typeMessage(first, SHELL_PROMPT);
    first.sendKey('enter');
    await first.expectScreen(SCREEN.promptFooter);
    await decide(first, 'y');
    await first.expectScreen(SCREEN.done);
    expect(await quit(first)).toBe(0);
    const [rollout] = w.env.rolloutFiles();
    const linesBefore = readFileSync(rollout!, 'utf8').split('\n').filter((l) => l.trim() !== '').length;
    const [earlierCall] = readRolloutCalls(rollout!);
    const earlierSession = readRuns(dbOf(w, 'first'))[0]!.agent_session_id!;

    const resumed = startRec(w, 'resumed', args(earlierSession));
    await resumed.expectScreen(SCREEN.ready, START_TIMEOUT_MS);
    const again = `${SHELL_PROMPT} once more`;
    await typeMessage(resumed, again);
    resumed.sendKey('enter');
    await resumed.expectScreen(SCREEN.promptFooter);
    await decide(resumed, KEY.esc);
    await resumed.expectScreen(SCREEN.canceled);
    expect(await quit(resumed)).toBe(0);

    // Codex appended the new turn to the same rollout.
    expect(w.env.rolloutFiles()).toEqual([rollout]);
    const calls = readRolloutCalls(rollout!);
    expect(calls).toHaveLength(2);
    const newCall = calls[1]!.callId;
    expect(calls[1]!.output).toMatch(/aborted by user/);

    const rows = readEventRows(dbOf(w, 'resumed'));
    expect(decisions(rows).map((r) => [r.type, r.call_id])).toEqual([['rejection', newCall]]);
    expect(rows.every((r) => r.call_id !== earlierCall!.callId)).toBe(true);
    expect(readRuns(dbOf(w, 'resumed'))[0]!.agent_session_file).toBe(rollout);
    // Only what this run's Codex appended was copied: none of the earlier turn's lines.
    const copied = readAgentRecords(dbOf(w, 'resumed'));
    expect(copied.length).toBeGreaterThan(0);
    expect(Math.min(...copied.map((r) => r.line_no))).toBeGreaterThan(linesBefore);

    // Merge shows both turns: the earlier call that ran and the new one refused.
    const run = String(readRuns(dbOf(w, 'resumed'))[0]!.id);
    const merged = recJson(w, 'resumed', ['merge', '--run', run]);
    const text = JSON.stringify(merged);
    expect(text).toContain(earlierCall!.callId);
    expect((merged as { rejections: Array<{ call_id: string }> }).rejections.map((r) => r.call_id)).toEqual([newCall]);
  }, TEST_TIMEOUT_MS);
});
