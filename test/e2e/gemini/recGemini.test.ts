// `rec gemini` on the REAL pinned Gemini CLI against our mock Gemini API: each
// scenario of issue 13 drives the keys a user would press, then compares the sidecar rows with
// Gemini's own session file (copied live: call ids, arguments, reason strings), the mock's request log
// (what the model was told) and the file system (what really ran).
// Runs sequentially in one file: each test owns a fresh HOME, a Gemini and a mock.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EDIT_FILE, FETCH_URL, MCP_MARKER } from '../../../src/lab/mock/googleGenerateContent/scenarios.js';
import { pollUntil } from '../../../src/lab/pollUntil.js';
import { makeRootOwnedDir, removeRootOwnedDirs, ROOT_OWNED_BASE } from '../../support/rootOwnedDir.js';
import { readAgentRecords, readRuns } from '../../support/sidecarRows.js';
import { expectJourneys } from '../../support/journey.js';
import {
  approvalRow,
  expectDecisionsLinked,
  expectNative,
  NATIVE,
  OPTION,
  promptRow,
  rejectionRow,
  skippedRow,
  toolInterruptionRow,
  view,
} from '../../support/gemini/expectedRows.js';
import { AGENT_VERSION } from '../../support/gemini/env.js';
import { promptFor, REASON, SCENARIOS, SCREEN } from '../../../src/agents/gemini/bench/recordedScenarios.js';
import { press } from '../../../src/lab/driver.js';
import { KEYS } from '../../../src/lab/keys.js';
import { assertBuilt, startRec, STEP_TIMEOUT_MS, waitReady, type RecSession } from '../../support/gemini/recSession.js';
import type { EventRow } from '../../support/sidecarRows.js';
import type { Run } from '../../../src/store/run.js';
import type { SessionToolCall } from '../../support/gemini/sessionSnapshots.js';

/** One scenario: Gemini's start (10-20 s), a model turn or two, the quit; generous for 2 loaded cores. */
const TEST_TIMEOUT_MS = 240_000;

let session: RecSession | undefined;

beforeAll(() => assertBuilt());

afterEach(async () => {
  await session?.dispose();
  session = undefined;
});

/**
 * How rec finds the chat file (recSession.ts sessionPath): every test runs on the scan path, every
 * user's but root's, whatever this machine's temp folder; the deny-only ones (Gemini deletes their
 * file as it quits) run on root's settings-layer path too, where that can be set up.
 */
type SessionPath = 'scan' | 'layer';

/**
 * Runs the named key script (the one the fixtures were recorded with) under `rec gemini`, waits until
 * Gemini's session file holds `calls` tool calls in their final state, then quits with /quit.
 */
async function run(name: string, calls: number, path: SessionPath = 'scan'): Promise<{ s: RecSession; calls: SessionToolCall[] }> {
  const scenario = SCENARIOS.find((x) => x.name === name);
  if (!scenario) throw new Error(`no scenario ${name}`);
  const where = path === 'layer' ? { sessionPath: 'layer' as const, runtimeDir: makeRootOwnedDir() } : { sessionPath: 'scan' as const };
  session = await startRec({ ...where, ...(scenario.kitty ? { kitty: true } : {}), ...(scenario.fakeEditor ? { fakeEditor: true } : {}), ...(scenario.mcpServer ? { mcpServer: true } : {}) });
  await waitReady(session);
  await scenario.run(session.driver);
  const found = calls > 0 ? await session.snapshots.waitForToolCalls(calls, STEP_TIMEOUT_MS) : session.snapshots.toolCalls();
  expect(found).toHaveLength(calls);
  const exit = await session.quit();
  expect(exit.exitCode).toBe(0);
  // The way asked for is the way rec took, whatever this machine's temp folder.
  expect(session.sessionPathTaken()).toBe(path);
  expect(session.server.requests.filter((r) => r.kind === 'guard' || r.kind === 'denied')).toEqual([]);
  // Where the user ends: what was recorded comes out of `rec merge --run` and `rec stats --run`.
  await expectJourneys(session.dbPath, session.env.env);
  return { s: session, calls: found };
}

/** The session file's call with this argument (its order in the file is not always the batch's). */
function byArg(calls: readonly SessionToolCall[], key: string, value: string): SessionToolCall {
  const hit = calls.find((c) => c.args[key] === value);
  if (!hit) throw new Error(`no call with ${key}=${value} in ${JSON.stringify(calls)}`);
  return hit;
}

const workFile = (s: RecSession, name: string) => join(s.env.workDir, name);
const rowOf = (s: RecSession, type: string, callId: string | null) => s.rows().find((r) => r.type === type && r.call_id === callId);
/** The model turns the mock answered (a fully rejected batch is rolled back and never sent: README G1). */
const turns = (s: RecSession) => s.server.requests.filter((r) => r.kind === 'turn');

/** 3 at the shell dialog: a rejection with trigger digit, tied to the call Gemini's file names. */
async function rejectDigit(path: SessionPath): Promise<void> {
  const { s, calls } = await run('shell-reject-digit', 1, path);
  const [call] = calls as [SessionToolCall];
  expect(call).toMatchObject({ status: 'cancelled', error: NATIVE.denied });
  const rows = s.rows();
  expect(rows.map(view)).toEqual([promptRow('command', call), rejectionRow('command', call, { trigger: 'digit', option_label: OPTION.no })]);
  expectDecisionsLinked(rows);
}

/** Two writes in one response, Esc at the first: its rejection, and the second skipped because of it. */
async function rejectFirstWrite(path: SessionPath): Promise<void> {
  const { s, calls } = await run('parallel-writes-reject-first', 2, path);
  // Gemini writes the queued sibling it cancelled (b) before the call it asked about (a).
  const [a, b] = [byArg(calls, 'file_path', 'a.txt'), byArg(calls, 'file_path', 'b.txt')];
  expect(a).toMatchObject({ args: { file_path: 'a.txt' }, status: 'cancelled', error: NATIVE.denied });
  expect(b).toMatchObject({ args: { file_path: 'b.txt' }, status: 'cancelled', error: NATIVE.siblingCancelled });
  expect(existsSync(workFile(s, 'a.txt')) || existsSync(workFile(s, 'b.txt'))).toBe(false);
  const rows = s.rows();
  expect(rows.map(view)).toEqual([
    promptRow('edit', a),
    rejectionRow('edit', a, { trigger: 'esc', option_label: OPTION.no }),
    skippedRow(b, a, 'edit'),
  ]);
  expectDecisionsLinked(rows);
  expectNative(rowOf(s, 'skipped', b.callId), NATIVE.siblingCancelled);
}


describe(`rec gemini on the real Gemini CLI ${AGENT_VERSION}: decisions at the shell dialog`, () => {
  it("Enter approves once; call_id is the session file's <name>__<rawId>, the command ran, the run row has Gemini's version and session id", async () => {
    const { s, calls } = await run('shell-approve-enter', 1);
    const [call] = calls as [SessionToolCall];
    expect(call.status).toBe('success');
    expect(call.callId).toMatch(/^run_shell_command__run_shell_command_\d+_\d+$/);
    expect(existsSync(workFile(s, 'shell_marker.txt'))).toBe(true);
    // The model is told the raw id, without the `<name>__` prefix.
    const told = turns(s).at(-1)!.contentsFromUser.flatMap((c) => c.parts).find((p) => p.functionResponse);
    expect(`run_shell_command__${told?.functionResponse?.id}`).toBe(call.callId);
    const rows = s.rows();
    expect(rows.map(view)).toEqual([
      promptRow('command', call),
      approvalRow('command', call, { trigger: 'enter', option_label: OPTION.once, scope: 'once', ran: 'yes' }),
    ]);
    expectDecisionsLinked(rows);
    const sessionId = (JSON.parse(s.snapshots.only().text.split('\n')[0]!) as { sessionId: string }).sessionId;
    expect(readRuns(s.dbPath)).toMatchObject([{ agent: 'gemini', agent_version: AGENT_VERSION, agent_session_id: sessionId }]);
  }, TEST_TIMEOUT_MS);

  it('2 approves for the session (trigger digit, scope session)', async () => {
    const { s, calls } = await run('shell-approve-session', 1);
    const [call] = calls as [SessionToolCall];
    expect(existsSync(workFile(s, 'shell_marker.txt'))).toBe(true);
    const rows = s.rows();
    expect(rows.map(view)).toEqual([
      promptRow('command', call),
      approvalRow('command', call, { trigger: 'digit', option_label: OPTION.session, scope: 'session', ran: 'yes' }),
    ]);
    expectDecisionsLinked(rows);
  }, TEST_TIMEOUT_MS);

  it('Esc rejects with "No, suggest changes (esc)"; ran no; native keeps "User denied execution." and "Request cancelled."', async () => {
    const { s, calls } = await run('shell-reject-esc', 1);
    const [call] = calls as [SessionToolCall];
    expect(call).toMatchObject({ status: 'cancelled', error: NATIVE.denied });
    expect(existsSync(workFile(s, 'shell_marker.txt'))).toBe(false);
    expect(turns(s)).toHaveLength(1);
    const rows = s.rows();
    expect(rows.map(view)).toEqual([promptRow('command', call), rejectionRow('command', call, { trigger: 'esc', option_label: OPTION.no })]);
    expectDecisionsLinked(rows);
    expectNative(rowOf(s, 'rejection', call.callId), NATIVE.denied, NATIVE.requestCancelled);
  }, TEST_TIMEOUT_MS);

  it('3 rejects with trigger digit', () => rejectDigit('scan'), TEST_TIMEOUT_MS);

  it('Down Down Enter rejects with trigger enter', async () => {
    const { s, calls } = await run('shell-reject-down-enter', 1);
    const [call] = calls as [SessionToolCall];
    const rows = s.rows();
    expect(rows.map(view)).toEqual([promptRow('command', call), rejectionRow('command', call, { trigger: 'enter', option_label: OPTION.no })]);
    expectDecisionsLinked(rows);
  }, TEST_TIMEOUT_MS);

  it('Ctrl+C at the dialog is a rejection with trigger ctrl_c and no option; native keeps "Operation cancelled by user"', async () => {
    const { s, calls } = await run('shell-ctrlc-at-dialog', 1);
    const [call] = calls as [SessionToolCall];
    expect(call).toMatchObject({ status: 'cancelled', error: NATIVE.cancelledByUser });
    const rows = s.rows();
    expect(rows.map(view)).toEqual([promptRow('command', call), rejectionRow('command', call, { trigger: 'ctrl_c', option_label: null })]);
    expectDecisionsLinked(rows);
    expectNative(rowOf(s, 'rejection', call.callId), NATIVE.cancelledByUser);
  }, TEST_TIMEOUT_MS);

  it('Esc under the kitty keyboard protocol (CSI 27 u) rejects like a plain Esc', async () => {
    const { s, calls } = await run('shell-reject-esc-kitty', 1);
    const [call] = calls as [SessionToolCall];
    // Gemini turned kitty on (CSI > 1 u), so the Esc it got really was CSI 27 u.
    expect(s.proc.output).toContain('\x1b[>1u');
    expect(call).toMatchObject({ status: 'cancelled', error: NATIVE.denied });
    expect(s.rows().map(view)).toEqual([promptRow('command', call), rejectionRow('command', call, { trigger: 'esc', option_label: OPTION.no })]);
  }, TEST_TIMEOUT_MS);

  it("the user's next prompt after a rejection is its reason (next_message); the model only ever saw it as text", async () => {
    const { s, calls } = await run('shell-reject-then-reason', 1);
    const [call] = calls as [SessionToolCall];
    const told = turns(s).at(-1)!;
    expect(told.userText).toBe(REASON);
    expect(told.contentsFromUser.flatMap((c) => c.parts).filter((p) => p.functionCall || p.functionResponse)).toEqual([]);
    const rows = s.rows();
    expect(rows.map(view)).toEqual([
      promptRow('command', call),
      rejectionRow('command', call, { trigger: 'esc', option_label: OPTION.no, reason: REASON }),
    ]);
    expectDecisionsLinked(rows);
  }, TEST_TIMEOUT_MS);
});

describe(`rec gemini on the real Gemini CLI ${AGENT_VERSION}: edits and parallel calls`, () => {
  it('Esc at "Apply this change?" rejects the replace (kind edit) and the file on disk is unchanged', async () => {
    const { s, calls } = await run('edit-reject-esc', 1);
    const [call] = calls as [SessionToolCall];
    expect(call).toMatchObject({ name: 'replace', status: 'cancelled', error: NATIVE.denied });
    expect(readFileSync(workFile(s, EDIT_FILE.name), 'utf8')).toBe(EDIT_FILE.content);
    const rows = s.rows();
    expect(rows.map(view)).toEqual([promptRow('edit', call), rejectionRow('edit', call, { trigger: 'esc', option_label: OPTION.no })]);
    expectDecisionsLinked(rows);
  }, TEST_TIMEOUT_MS);

  it('"Modify with external editor", then Allow once at the dialog shown again: two prompts of one call, each with its decision; the edited change is written', async () => {
    const { s, calls } = await run('edit-modify-then-allow', 1);
    const [call] = calls as [SessionToolCall];
    // Gemini takes the whole edited file as the call's new arguments.
    const edited = EDIT_FILE.content.replace('old line', 'edited line');
    expect(call).toMatchObject({ name: 'replace', status: 'success', args: { new_string: edited } });
    expect(readFileSync(workFile(s, EDIT_FILE.name), 'utf8')).toBe(edited);
    const rows = s.rows();
    expect(rows.map(view)).toEqual([
      promptRow('edit', call),
      approvalRow('edit', call, { trigger: 'digit', option_label: OPTION.modify, scope: 'once', ran: 'yes' }),
      promptRow('edit', call),
      approvalRow('edit', call, { trigger: 'digit', option_label: OPTION.once, scope: 'once', ran: 'yes' }),
    ]);
    // Each decision belongs to its own prompt: the first shows the proposed line, the second the edited one.
    const [first, firstDecision, second, secondDecision] = rows as [EventRow, EventRow, EventRow, EventRow];
    expect([firstDecision.prompt_event_id, secondDecision.prompt_event_id]).toEqual([first.id, second.id]);
    expect(JSON.stringify(first.prompt)).toContain('new line');
    expect(JSON.stringify(second.prompt)).toContain('edited line');
  }, TEST_TIMEOUT_MS);

  it('an MCP tool\'s dialog refused with Esc: a rejection of kind mcp for the call as the file names it; the tool did not run', async () => {
    const { s, calls } = await run('mcp-reject-esc', 1);
    const [call] = calls as [SessionToolCall];
    expect(call).toMatchObject({ status: 'cancelled', error: NATIVE.denied, args: { name: MCP_MARKER } });
    expect(existsSync(workFile(s, MCP_MARKER))).toBe(false);
    const rows = s.rows();
    expect(rows.map(view)).toEqual([promptRow('mcp', call), rejectionRow('mcp', call, { trigger: 'esc', option_label: OPTION.no })]);
    expectDecisionsLinked(rows);
  }, TEST_TIMEOUT_MS);

  it('an MCP tool\'s dialog approved once with Enter: an approval of kind mcp; the tool ran', async () => {
    const { s, calls } = await run('mcp-approve-enter', 1);
    const [call] = calls as [SessionToolCall];
    expect(call).toMatchObject({ status: 'success', args: { name: MCP_MARKER } });
    expect(existsSync(workFile(s, MCP_MARKER))).toBe(true);
    const rows = s.rows();
    expect(rows.map(view)).toEqual([promptRow('mcp', call), approvalRow('mcp', call, { trigger: 'enter', option_label: OPTION.once, scope: 'once', ran: 'yes' })]);
    expectDecisionsLinked(rows);
  }, TEST_TIMEOUT_MS);

  it('web_fetch\'s "Do you want to proceed?" refused with Esc: a rejection of kind network, and nothing was fetched', async () => {
    const { s, calls } = await run('fetch-reject-esc', 1);
    const [call] = calls as [SessionToolCall];
    expect(call).toMatchObject({ name: 'web_fetch', status: 'cancelled', error: NATIVE.denied });
    const rows = s.rows();
    expect(rows.map(view)).toEqual([promptRow('network', call), rejectionRow('network', call, { trigger: 'esc', option_label: OPTION.no })]);
    expect(JSON.stringify(rows[0]!.prompt)).toContain(FETCH_URL);
    expectDecisionsLinked(rows);
  }, TEST_TIMEOUT_MS);

  it('two writes in one response, Esc at the first: a rejection, and the second (never shown) skipped with related_call_id', () => rejectFirstWrite('scan'), TEST_TIMEOUT_MS);

  it('two writes in one response, Enter at the first and Esc at the second: approved and ran, then rejected; the model is told both', async () => {
    const { s, calls } = await run('parallel-writes-approve-then-reject', 2);
    const [a, b] = [byArg(calls, 'file_path', 'a.txt'), byArg(calls, 'file_path', 'b.txt')];
    expect(a.status).toBe('success');
    expect(b).toMatchObject({ status: 'cancelled', error: NATIVE.denied });
    expect(readFileSync(workFile(s, 'a.txt'), 'utf8')).toBe('alpha\n');
    expect(existsSync(workFile(s, 'b.txt'))).toBe(false);
    const responses = turns(s).at(-1)!.contentsFromUser.flatMap((c) => c.parts).flatMap((p) => (p.functionResponse ? [p.functionResponse] : []));
    // By the model's raw id: the session file's call id without the `<name>__` prefix.
    const toModel = (c: SessionToolCall) => responses.find((r) => `${c.name}__${r.id}` === c.callId)?.response;
    expect(toModel(a)).toEqual({ output: expect.stringContaining('a.txt') });
    expect(toModel(b)).toEqual({ error: NATIVE.denied });
    const rows = s.rows();
    expect(rows.map(view)).toEqual([
      promptRow('edit', a),
      approvalRow('edit', a, { trigger: 'enter', option_label: OPTION.once, scope: 'once', ran: 'yes' }),
      promptRow('edit', b),
      rejectionRow('edit', b, { trigger: 'esc', option_label: OPTION.no }),
    ]);
    expectDecisionsLinked(rows);
  }, TEST_TIMEOUT_MS);

  it('three shell calls ("1 of 3") cancelled by one Esc: one rejection for the call shown, the other two skipped', async () => {
    const { s, calls } = await run('parallel-shell-esc', 3);
    const [one, two, three] = ['one', 'two', 'three'].map((n) => byArg(calls, 'command', `touch ${n}.txt`)) as [SessionToolCall, SessionToolCall, SessionToolCall];
    // Gemini writes the same reason for all three: the screen is what tells the one asked from the others.
    for (const c of calls) expect(c).toMatchObject({ status: 'cancelled', error: NATIVE.denied });
    for (const f of ['one.txt', 'two.txt', 'three.txt']) expect(existsSync(workFile(s, f))).toBe(false);
    const rows = s.rows();
    expect(rows.map(view)).toEqual([
      promptRow('command', one),
      rejectionRow('command', one, { trigger: 'esc', option_label: OPTION.no }),
      skippedRow(two, one),
      skippedRow(three, one),
    ]);
    expectDecisionsLinked(rows);
    expect(JSON.stringify(rows[0]!.prompt)).toContain('1 of 3');
  }, TEST_TIMEOUT_MS);
});

describe(`rec gemini on the real Gemini CLI ${AGENT_VERSION}: interruptions`, () => {
  for (const [name, trigger] of [
    ['long-esc-running', 'esc'],
    ['long-ctrlc-running', 'ctrl_c'],
  ] as const) {
    it(`${trigger} while an approved sleep runs: an approval (ran yes), then an interruption of kind tool, never a rejection`, async () => {
      const { s, calls } = await run(name, 1);
      const [call] = calls as [SessionToolCall];
      expect(call).toMatchObject({ status: 'cancelled', error: NATIVE.cancelledByUser });
      expect(existsSync(workFile(s, 'slept.txt'))).toBe(false);
      const rows = s.rows();
      expect(rows.map(view)).toEqual([
        promptRow('command', call),
        approvalRow('command', call, { trigger: 'enter', option_label: OPTION.once, scope: 'once', ran: 'yes' }),
        toolInterruptionRow(call, { trigger, option_label: null }),
      ]);
      expectDecisionsLinked(rows);
      expectNative(rowOf(s, 'interruption', call.callId), NATIVE.cancelledByUser);
    }, TEST_TIMEOUT_MS);
  }

  /**
   * Esc this long after the Enter that approved the sleep, while Gemini may still draw the dialog:
   * Gemini drops such a key or takes it as a cut of the call, depending on the machine's speed
   * (docs/gemini.md). Whichever it did, the rows say the same.
   */
  for (const gapMs of [0, 300]) {
    it(`Esc ${gapMs} ms after the approving Enter: an interruption of the approved call exactly when Gemini cut it`, async () => {
      session = await startRec({ sessionPath: 'scan' });
      await waitReady(session);
      const d = session.driver;
      await d.line(promptFor('long'));
      await d.waitScreen(SCREEN.shellDialog, 'dialog');
      await press(d, KEYS.enter);
      // The user's own speed, the dimension under test: not a wait for anything.
      await new Promise((resolve) => setTimeout(resolve, gapMs));
      d.send(KEYS.esc);
      const [call] = (await session.snapshots.waitForToolCalls(1, STEP_TIMEOUT_MS)) as [SessionToolCall];
      expect((await session.quit()).exitCode).toBe(0);
      await expectJourneys(session.dbPath, session.env.env);
      const rows = session.rows().map(view);
      const cut = call.status === 'cancelled';
      if (!cut) expect(call.status).toBe('success');
      expect(rows.map((r) => [r.type, r.call_id])).toEqual([
        ['prompt', call.callId],
        ['approval', call.callId],
        ...(cut ? [['interruption', call.callId]] : []),
      ]);
      if (cut) expect(rows[2]).toEqual(toolInterruptionRow(call, { trigger: 'esc', option_label: null }));
    }, TEST_TIMEOUT_MS);
  }

  for (const [name, trigger] of [
    ['stream-esc', 'esc'],
    ['stream-ctrlc', 'ctrl_c'],
  ] as const) {
    it(`${trigger} while an answer streams: an interruption of kind response with the partial answer from the screen`, async () => {
      const { s } = await run(name, 0);
      const stream = await s.server.waitForStreamEnd((e) => e.scenario === 'stream', STEP_TIMEOUT_MS);
      expect(stream.completed).toBe(false);
      const rows = s.rows();
      expect(rows.map(view)).toEqual([
        {
          type: 'interruption',
          kind: 'response',
          trigger,
          option_label: null,
          call_id: null,
          related_call_id: null,
          partial_output: expect.stringMatching(/Counting slowly: w1 w2 w3 w4 w5 w6\b/),
        },
      ]);
      // What was captured is part of what the model sent (Gemini keeps none of it).
      const squash = (t: string) => t.replace(/\s+/g, ' ').trim();
      const partial = squash(String(rows[0]!.partial_output));
      expect(squash(stream.text)).toContain(partial);
      expectNative(rows[0], NATIVE.requestCancelled);
    }, TEST_TIMEOUT_MS);
  }
});

describe(`rec gemini on the real Gemini CLI ${AGENT_VERSION}: what Gemini deletes`, () => {
  it('a deny-only session: Gemini deletes its file at exit, agent_records keep it, and `rec merge --run` rebuilds it', async () => {
    const { s, calls } = await run('shell-reject-esc', 1);
    const [call] = calls as [SessionToolCall];
    expect(s.env.sessionFiles()).toEqual([]);
    const sessionId = (JSON.parse(s.snapshots.only().text.split('\n')[0]!) as { sessionId: string }).sessionId;
    const [runRow] = readRuns(s.dbPath) as [Run];
    expect(runRow.agent_session_id).toBe(sessionId);
    const records = readAgentRecords(s.dbPath);
    expect(records.every((r) => r.run_id === runRow.id && r.agent === 'gemini')).toBe(true);
    // Every line Gemini wrote, in order: the one that cancelled the call is among them.
    const written = s.snapshots.only().text.split('\n').filter((l) => l.trim() !== '');
    expect(records.map((r) => JSON.parse(r.record) as unknown)).toEqual(written.map((l) => JSON.parse(l) as unknown));
    expect(records.some((r) => r.record.includes(call.callId) && r.record.includes(NATIVE.denied))).toBe(true);
    const merged = s.merge(runRow.id) as { rejections?: { call_id?: string }[] };
    expect(JSON.stringify(merged)).toContain(sessionId);
    expect(merged.rejections?.map((r) => r.call_id)).toEqual([call.callId]);
  }, TEST_TIMEOUT_MS);

  // Gemini takes a system settings file only from a folder root-owned all the way up: as root, with
  // such a $XDG_RUNTIME_DIR (root's is /run/user/0), rec's SessionStart hook is wired for the run.
  it.runIf(ROOT_OWNED_BASE !== undefined)(
    "where Gemini takes rec's settings layer: the SessionStart hook names the session and its chat file before any message, and the layer is gone after",
    async () => {
      const runtime = makeRootOwnedDir();
      try {
        const s = (session = await startRec({ sessionPath: 'layer', runtimeDir: runtime }));
        await waitReady(s);
        // No message yet, so no scan could have confirmed a file: only the hook names them now.
        const run = await pollUntil(
          () => readRuns(s.dbPath).find((r) => r.agent_session_id !== null),
          { what: 'the run row named by the SessionStart hook', timeoutMs: STEP_TIMEOUT_MS },
        );
        expect(run!.agent_session_file).toMatch(new RegExp(`^${s.env.chatsDir}/session-.*\\.jsonl$`));
        expect(readdirSync(runtime)).toEqual([expect.stringMatching(/^rec-gemini-/)]);
        expect(s.proc.output).not.toContain('Security Warning');
        const scenario = SCENARIOS.find((x) => x.name === 'shell-reject-esc')!;
        await scenario.run(s.driver);
        const [call] = (await s.snapshots.waitForToolCalls(1, STEP_TIMEOUT_MS)) as [SessionToolCall];
        expect((await s.quit()).exitCode).toBe(0);
        expect(s.rows().map(view)).toEqual([promptRow('command', call), rejectionRow('command', call, { trigger: 'esc', option_label: OPTION.no })]);
        await expectJourneys(s.dbPath, s.env.env);
        expect(readdirSync(runtime)).toEqual([]);
      } finally {
        rmSync(runtime, { recursive: true, force: true });
      }
    },
    TEST_TIMEOUT_MS,
  );
});

// Root's path: the same deny-only sessions with rec's settings layer and its SessionStart hook.
describe.runIf(ROOT_OWNED_BASE !== undefined)(`rec gemini on the real Gemini CLI ${AGENT_VERSION}: deny-only sessions on the settings-layer path`, () => {
  it('3 rejects with trigger digit', () => rejectDigit('layer'), TEST_TIMEOUT_MS);
  it('two writes in one response, Esc at the first: a rejection, and the second skipped with related_call_id', () => rejectFirstWrite('layer'), TEST_TIMEOUT_MS);
});

afterAll(() => removeRootOwnedDirs());
