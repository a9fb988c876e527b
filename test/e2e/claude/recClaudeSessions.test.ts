// Which transcript is a run's, on the REAL Claude Code 2.1.330 (issue 19): two `rec claude` side by
// side in one folder, given the same words and proposed the same command, each keep their own call
// (rec gives each its own --session-id, and its hooks are its own); and `rec claude --continue`
// records the new turn's call in the transcript Claude now appends to, not the earlier turn again; so
// do `--resume <id>` and `--resume <id> --fork-session` (a new transcript).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type Spawned } from '../../../src/lab/spawn.js';
import { startMessagesServer, type MessagesServer } from '../../../src/lab/mock/anthropicMessages/server.js';
import { press } from '../../../src/lab/driver.js';
import { noteNetworkIsolation } from '../../support/networkIsolation.js';
import { REC_BIN } from '../../support/recBin.js';
import { readAgentRecords, readEventRows, readRuns, type EventRow } from '../../support/sidecarRows.js';
import { AGENT_VERSION, AGENT_BIN, createEnv, type AgentEnv } from '../../support/claude/env.js';
import { KEY, quitClaude, SCREEN, type ClaudeDriver } from '../../../src/agents/claude/bench/recordedScenarios.js';
import { missingPart } from '../../support/claude/recSession.js';
import { readTranscript } from '../../support/claude/transcriptCalls.js';

const TEST_TIMEOUT_MS = 240_000;
const START_TIMEOUT_MS = 60_000;
const STEP_TIMEOUT_MS = 30_000;
const EXIT_TIMEOUT_MS = 30_000;

interface World {
  readonly server: MessagesServer;
  readonly env: AgentEnv;
  readonly recs: Spawned[];
}

let world: World | undefined;

beforeAll(() => {
  const missing = missingPart();
  if (missing) throw new Error(missing);
});

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
  const server = await startMessagesServer();
  const env = createEnv({ baseUrl: server.baseUrl, token: server.token });
  world = { server, env, recs: [] };
  return world;
}

const dbOf = (w: World, name: string) => join(w.env.baseDir, `${name}.db`);

function startRec(w: World, name: string, args: readonly string[] = []): { rec: Spawned; driver: ClaudeDriver } {
  const rec = spawn(process.execPath, [REC_BIN, '--db', dbOf(w, name), 'claude', ...args], {
    cols: 120,
    rows: 40,
    cwd: w.env.workDir,
    env: { ...w.env.env, REC_CLAUDE_BIN: AGENT_BIN! },
    timeoutMs: STEP_TIMEOUT_MS,
  });
  w.recs.push(rec);
  const driver: ClaudeDriver = {
    waitScreen: async (re, _label, timeoutMs = STEP_TIMEOUT_MS) => void (await rec.expectScreen(re, timeoutMs)),
    send: (data) => rec.send(data),
    async line(text) {
      // Enter only once the text shows in the input, so it is typed, not taken for a paste.
      rec.send(text);
      await rec.expectScreen(`❯\u00a0${text}`);
      rec.sendKey('enter');
    },
    resize: (cols, rows) => rec.resize(cols, rows),
    snap: () => undefined,
    screen: () => rec.screen(),
    waitStream: async (predicate, timeoutMs = STEP_TIMEOUT_MS) => void (await w.server.waitForStream(predicate, timeoutMs)),
  };
  return { rec, driver };
}

async function quit(p: { rec: Spawned; driver: ClaudeDriver }): Promise<number> {
  await quitClaude(p.driver);
  return (await p.rec.expectExit(EXIT_TIMEOUT_MS)).exitCode;
}

function recJson(w: World, name: string, args: readonly string[]): unknown {
  return JSON.parse(execFileSync(process.execPath, [REC_BIN, ...args, '--db', dbOf(w, name)], { cwd: w.env.workDir, env: w.env.env, encoding: 'utf8' })) as unknown;
}

const decisions = (rows: readonly EventRow[]) => rows.filter((r) => r.type === 'approval' || r.type === 'rejection');

/** Asks for the Bash scenario (the same words in every pane) and waits for its prompt. */
async function askBash(p: { rec: Spawned; driver: ClaudeDriver }, words = 'SCENARIO bash'): Promise<void> {
  await p.rec.expectScreen(SCREEN.ready, START_TIMEOUT_MS);
  await p.driver.line(words);
  await p.rec.expectScreen(SCREEN.bashPrompt);
}

describe(`rec claude on the real Claude Code ${AGENT_VERSION}: the right transcript, always`, () => {
  it("two runs side by side in one folder, same words, same command: each keeps its own call id (--session-id holds), never the other's", async () => {
    const w = await startWorld();
    const refuser = startRec(w, 'refuser');
    const approver = startRec(w, 'approver');
    await Promise.all([askBash(refuser), askBash(approver)]);
    await Promise.all([press(refuser.driver, KEY.esc), press(approver.driver, '1')]);
    await refuser.rec.expectScreen(SCREEN.interrupted);
    await approver.rec.expectScreen(SCREEN.final);
    expect(await quit(refuser)).toBe(0);
    expect(await quit(approver)).toBe(0);

    const transcripts = w.env.transcripts().map((file) => ({ file, calls: readTranscript(file).calls }));
    expect(transcripts).toHaveLength(2);
    const refused = transcripts.find((t) => t.calls.some((c) => c.result?.isError))!;
    const ran = transcripts.find((t) => t !== refused)!;
    const refusedCall = refused.calls[0]!.id;
    const ranCall = ran.calls[0]!.id;

    const refuserRows = readEventRows(dbOf(w, 'refuser'));
    const approverRows = readEventRows(dbOf(w, 'approver'));
    expect(decisions(refuserRows).map((r) => [r.type, r.call_id])).toEqual([['rejection', refusedCall]]);
    expect(decisions(approverRows).map((r) => [r.type, r.call_id])).toEqual([['approval', ranCall]]);
    // The session id rec gave each run is the one Claude used: the transcript is named after it.
    const refuserRun = readRuns(dbOf(w, 'refuser'))[0]!;
    const approverRun = readRuns(dbOf(w, 'approver'))[0]!;
    expect(refuserRun.agent_session_file).toBe(refused.file);
    expect(approverRun.agent_session_file).toBe(ran.file);
    expect(refused.file.endsWith(`${String(refuserRun.agent_session_id)}.jsonl`)).toBe(true);
    expect(ran.file.endsWith(`${String(approverRun.agent_session_id)}.jsonl`)).toBe(true);

    const statsOf = (name: string, run: Record<string, unknown>) => recJson(w, name, ['stats', '--json', '--run', String(run.id)]);
    expect(statsOf('refuser', refuserRun)).toMatchObject({ rejections: { total: 1 }, approvals: 0 });
    expect(statsOf('approver', approverRun)).toMatchObject({ rejections: { total: 0 }, approvals: 1 });
  }, TEST_TIMEOUT_MS);

  // How the user names the session to go on with: the last one, one by its id, or a fork of it
  // (a new session that starts from the earlier one's history).
  it.each([
    { how: '--continue', args: (_id: string) => ['--continue'] },
    { how: '--resume <id>', args: (id: string) => ['--resume', id] },
    { how: '--resume <id> --fork-session', args: (id: string) => ['--resume', id, '--fork-session'] },
  ])('claude $how: the refusal in the new turn carries the new call id, and the earlier turn is not recorded again', async ({ how, args }) => {
    const w = await startWorld();
    const first = startRec(w, 'first');
    await askBash(first);
    await press(first.driver, '1');
    await first.rec.expectScreen(SCREEN.final);
    expect(await quit(first)).toBe(0);
    const [transcript] = w.env.transcripts();
    const linesBefore = readFileSync(transcript!, 'utf8').split('\n').filter((l) => l.trim() !== '').length;
    const earlierCall = readTranscript(transcript!).calls[0]!.id;
    const earlierSession = readRuns(dbOf(w, 'first'))[0]!.agent_session_id!;

    const resumed = startRec(w, 'resumed', args(earlierSession));
    await askBash(resumed, 'SCENARIO bash');
    await press(resumed.driver, KEY.esc);
    await resumed.rec.expectScreen(SCREEN.interrupted);
    expect(await quit(resumed)).toBe(0);

    // The transcript Claude 2.1.330 wrote the new turn to (the hooks named it: no --session-id then):
    // the same file, or with --fork-session a new one.
    const run = readRuns(dbOf(w, 'resumed'))[0]!;
    const forked = how.includes('--fork-session');
    const files = w.env.transcripts();
    expect(files).toHaveLength(forked ? 2 : 1);
    const written = forked ? files.find((f) => f !== transcript)! : transcript!;
    expect(run.agent_session_file).toBe(written);
    const calls = readTranscript(written).calls;
    const newCall = calls.at(-1)!.id;
    expect(newCall).not.toBe(earlierCall);
    expect(calls.at(-1)!.result?.isError).toBe(true);
    const rows = readEventRows(dbOf(w, 'resumed'));
    expect(decisions(rows).map((r) => [r.type, r.call_id])).toEqual([['rejection', newCall]]);
    expect(rows.every((r) => r.call_id !== earlierCall)).toBe(true);
    // Only what this run's Claude wrote was copied: none of the earlier session's lines (its
    // unstamped cost-state and last-prompt trailers included, and a fork's copy of its history).
    const records = readAgentRecords(dbOf(w, 'resumed'));
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((r) => r.source_file === written)).toBe(true);
    expect(records.some((r) => r.record.includes(`"id":"${earlierCall}"`))).toBe(false);
    if (!forked) expect(Math.min(...records.map((r) => r.line_no))).toBeGreaterThan(linesBefore);

    // Merge shows both turns: the earlier call that ran and the new one refused.
    const merged = recJson(w, 'resumed', ['merge', '--run', String(run.id)]);
    expect(JSON.stringify(merged)).toContain(newCall);
    if (!forked) expect(JSON.stringify(merged)).toContain(earlierCall);
    expect((merged as { rejections: Array<{ call_id: string }> }).rejections.map((r) => r.call_id)).toEqual([newCall]);
  }, TEST_TIMEOUT_MS);
});
