// Which chat file is a run's, on the REAL Gemini CLI 0.61.0 with the scan every user but root gets
// (issue 19): two `rec gemini` side by side in one folder, given the same words and proposed the same
// command, each keep their own call (or none, and say why), never the other's.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EOF, spawn, TIMEOUT, type Spawned } from '../../../src/lab/spawn.js';
import { startGenerateContentServer, type GenerateContentServer } from '../../../src/lab/mock/googleGenerateContent/server.js';
import { settle, type Driver } from '../../../src/lab/driver.js';
import { noteNetworkIsolation } from '../../support/networkIsolation.js';
import { REC_BIN, assertBuilt } from '../../support/recBin.js';
import { readAgentRecords, readEventRows, readRuns, type EventRow } from '../../support/sidecarRows.js';
import { GEMINI_MODEL, AGENT_VERSION, createEnv, AGENT_BIN, type AgentEnv } from '../../support/gemini/env.js';
import { KEY, promptFor, quitGemini, SCREEN } from '../../../src/agents/gemini/bench/recordedScenarios.js';
import { readToolCalls, SessionSnapshots } from '../../support/gemini/sessionSnapshots.js';

const TEST_TIMEOUT_MS = 300_000;
const START_TIMEOUT_MS = 90_000;
const STEP_TIMEOUT_MS = 45_000;
const REC_EXIT_TIMEOUT_MS = 30_000;

interface World {
  readonly server: GenerateContentServer;
  readonly env: AgentEnv;
  readonly snapshots: SessionSnapshots;
  readonly recs: Spawned[];
}

let world: World | undefined;

beforeAll(() => assertBuilt());

afterEach(async () => {
  if (!world) return;
  const { server, env, snapshots, recs } = world;
  world = undefined;
  snapshots.stop();
  await env.stopProcesses(recs.map((r) => r.pid));
  for (const r of recs) r.dispose();
  await server.close();
  await env.dispose();
});

async function startWorld(): Promise<World> {
  noteNetworkIsolation();
  const server = await startGenerateContentServer({ modelName: GEMINI_MODEL });
  const env = createEnv({ baseUrl: server.baseUrl, token: server.token, proxyUrl: server.baseUrl });
  // Gemini deletes a session with nothing worth resuming as it exits: keep a copy of every file.
  world = { server, env, snapshots: new SessionSnapshots(env.chatsDir), recs: [] };
  return world;
}

const dbOf = (w: World, name: string) => join(w.env.baseDir, `${name}.db`);

/** `rec --db <name>.db gemini` in the world's one project folder, found by scanning (no runtime dir: no hook). */
function startRec(w: World, name: string, args: readonly string[] = []): { rec: Spawned; driver: Driver } {
  const rec = spawn(process.execPath, [REC_BIN, '--db', dbOf(w, name), 'gemini', ...args], {
    cols: 120,
    rows: 40,
    cwd: w.env.workDir,
    env: { ...w.env.env, REC_GEMINI_BIN: AGENT_BIN },
    timeoutMs: STEP_TIMEOUT_MS,
  });
  w.recs.push(rec);
  const driver: Driver = {
    waitScreen: async (re, _label, timeoutMs = STEP_TIMEOUT_MS) => void (await rec.expectScreen(re, timeoutMs)),
    send: (data) => rec.send(data),
    async line(text) {
      rec.send(text);
      await rec.expectScreen(text);
      // Gemini 0.61 takes an Enter within 30 ms of the previous key as a newline (test/support/gemini/recSession.ts).
      await settle();
      rec.sendKey('enter');
    },
    resize: (cols, rows) => rec.resize(cols, rows),
    snap: () => undefined,
    screen: () => rec.screen(),
  };
  return { rec, driver };
}

async function quit(p: { rec: Spawned; driver: Driver }): Promise<number> {
  await quitGemini(p.driver, async (ms) => (await p.rec.expect([EOF, TIMEOUT], ms)) === 0);
  return (await p.rec.expectExit(REC_EXIT_TIMEOUT_MS)).exitCode;
}

function recJson(w: World, name: string, args: readonly string[]): unknown {
  return JSON.parse(execFileSync(process.execPath, [REC_BIN, ...args, '--db', dbOf(w, name)], { cwd: w.env.workDir, env: w.env.env, encoding: 'utf8' })) as unknown;
}

const decisions = (rows: readonly EventRow[]) => rows.filter((r) => r.type === 'approval' || r.type === 'rejection');

describe(`rec gemini on the real Gemini ${AGENT_VERSION}, found by scanning: the right chat file, always`, () => {
  it("two runs side by side in one folder, same words, same command: each keeps its own call id or none, never the other's", async () => {
    const w = await startWorld();
    const refuser = startRec(w, 'refuser');
    const approver = startRec(w, 'approver');
    await refuser.rec.expectScreen(SCREEN.ready, START_TIMEOUT_MS);
    await approver.rec.expectScreen(SCREEN.ready, START_TIMEOUT_MS);
    await Promise.all([refuser.driver.line(promptFor('shell')), approver.driver.line(promptFor('shell'))]);
    await refuser.rec.expectScreen(SCREEN.shellDialog);
    await approver.rec.expectScreen(SCREEN.shellDialog);
    await settle();
    refuser.rec.send(KEY.esc);
    approver.rec.send(KEY.enter);
    await refuser.rec.expectScreen(SCREEN.cancelled);
    await approver.rec.expectScreen(SCREEN.final);
    expect(await quit(refuser)).toBe(0);
    expect(await quit(approver)).toBe(0);

    // Gemini's own record of who did what (copies: a deny-only session is deleted at exit).
    w.snapshots.sample();
    const sessions = [...w.snapshots.contents.entries()].map(([file, text]) => ({ file, calls: readToolCalls(text) }));
    expect(sessions).toHaveLength(2);
    const refused = sessions.find((s) => s.calls.some((c) => c.status === 'cancelled'))!;
    const ran = sessions.find((s) => s !== refused)!;
    const refusedCall = refused.calls[0]!.callId;
    const ranCall = ran.calls[0]!.callId;
    expect(ran.calls[0]!.status).toBe('success');

    const refuserRows = readEventRows(dbOf(w, 'refuser'));
    const approverRows = readEventRows(dbOf(w, 'approver'));
    // Its own call, or none and the word why; never the other pane's.
    const own = (rows: readonly EventRow[], call: string) =>
      decisions(rows).every((r) => r.call_id === call || (r.call_id === null && (r.native as { session?: string } | null)?.session === 'ambiguous'));
    expect(decisions(refuserRows).map((r) => r.type)).toEqual(['rejection']);
    expect(decisions(approverRows).map((r) => r.type)).toEqual(['approval']);
    expect(own(refuserRows, refusedCall)).toBe(true);
    expect(own(approverRows, ranCall)).toBe(true);
    for (const row of refuserRows) expect(row.call_id).not.toBe(ranCall);
    for (const row of approverRows) expect(row.call_id).not.toBe(refusedCall);

    // Stats count one refusal and one approval, each in its own run.
    const statsOf = (name: string) => recJson(w, name, ['stats', '--json', '--run', String(readRuns(dbOf(w, name))[0]!.id)]);
    expect(statsOf('refuser')).toMatchObject({ rejections: { total: 1 }, approvals: 0 });
    expect(statsOf('approver')).toMatchObject({ rejections: { total: 0 }, approvals: 1 });
  }, TEST_TIMEOUT_MS);

  // The session to go on with: the latest one, or one named by its id.
  it.each([
    { how: '--resume latest', args: (_id: string) => ['--resume', 'latest'] },
    { how: '--resume <id>', args: (id: string) => ['--resume', id] },
  ])('gemini $how: the refusal in the new turn carries the new call id, and the earlier turn is not recorded again', async ({ args }) => {
    const w = await startWorld();
    const first = startRec(w, 'first');
    await first.rec.expectScreen(SCREEN.ready, START_TIMEOUT_MS);
    await first.driver.line(promptFor('shell'));
    await first.rec.expectScreen(SCREEN.shellDialog);
    await settle();
    first.rec.send(KEY.enter);
    await first.rec.expectScreen(SCREEN.final);
    expect(await quit(first)).toBe(0);
    w.snapshots.sample();
    const before = [...w.snapshots.contents.entries()];
    expect(before).toHaveLength(1);
    const [chatFile, textBefore] = before[0]!;
    const earlierCall = readToolCalls(textBefore)[0]!.callId;
    const linesBefore = textBefore.split('\n').filter((l) => l.trim() !== '').length;
    const earlierSession = readRuns(dbOf(w, 'first'))[0]!.agent_session_id!;

    const resumed = startRec(w, 'resumed', args(earlierSession));
    await resumed.rec.expectScreen(SCREEN.ready, START_TIMEOUT_MS);
    await resumed.driver.line(`${promptFor('shell')} once more`);
    await resumed.rec.expectScreen(SCREEN.shellDialog);
    await settle();
    resumed.rec.send(KEY.esc);
    await resumed.rec.expectScreen(SCREEN.cancelled);
    expect(await quit(resumed)).toBe(0);

    // Gemini appended the new turn to the same chat file (a fresh one it may start first, empty of
    // turns, is deleted as it quits).
    w.snapshots.sample();
    const calls = readToolCalls(w.snapshots.contents.get(chatFile)!);
    expect(calls.map((c) => [c.callId, c.status])).toEqual([[earlierCall, 'success'], [expect.any(String), 'cancelled']]);
    const newCall = calls[1]!.callId;

    const rows = readEventRows(dbOf(w, 'resumed'));
    expect(decisions(rows).map((r) => [r.type, r.call_id])).toEqual([['rejection', newCall]]);
    expect(rows.every((r) => r.call_id !== earlierCall)).toBe(true);
    const run = readRuns(dbOf(w, 'resumed'))[0]!;
    expect(run.agent_session_file).toBe(chatFile);
    // Only what this run's Gemini wrote was copied: none of the earlier session's lines.
    const records = readAgentRecords(dbOf(w, 'resumed'));
    expect(records.length).toBeGreaterThan(0);
    expect(Math.min(...records.map((r) => r.line_no))).toBeGreaterThan(linesBefore);

    // Merge shows both turns: the earlier call that ran and the new one refused.
    const merged = recJson(w, 'resumed', ['merge', '--run', String(run.id)]);
    expect(JSON.stringify(merged)).toContain(earlierCall);
    expect((merged as { rejections: Array<{ call_id: string }> }).rejections.map((r) => r.call_id)).toEqual([newCall]);
  }, TEST_TIMEOUT_MS);
});
