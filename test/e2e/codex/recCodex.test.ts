// `rec codex` on the REAL pinned Codex CLI against our mock Responses server:
// each scenario of issue 3 drives the keys a user would press, then compares the sidecar rows with
// Codex's own rollout (call_id, tool input) and the file system (what really ran).
// Runs sequentially in one file: each test owns a fresh CODEX_HOME, a Codex, its daemon and a mock.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SLOW_TEXT } from '../../../src/lab/mock/openaiResponses/scenarios.js';
import { LONG_COMMAND } from '../../../src/lab/mock/openaiResponses/scenarios.js';
import {
  approvalRow,
  detachedRow,
  OPTION,
  promptRow,
  rejectionRow,
  skippedRow,
  toolInterruptionRow,
  view,
} from '../../support/codex/expectedRows.js';
import { assertBuilt, startRec, waitReady, type RecSession } from '../../support/codex/recSession.js';
import { SCENARIOS } from '../../../src/agents/codex/bench/recordedScenarios.js';
import type { RolloutCall } from '../../support/codex/rolloutCalls.js';
import { isAlive } from '../../../src/lab/processTree.js';
import { expectJourneys } from '../../support/journey.js';
import { AGENT_VERSION } from '../../support/codex/env.js';

/** One scenario: Codex start, a model turn or two, the quit and rec's 5 s reconcile; generous for 2 loaded cores. */
const TEST_TIMEOUT_MS = 120_000;
/** rec reads the rollout for up to 5 s after Codex exits, then closes the database. */
const REC_EXIT_TIMEOUT_MS = 30_000;

let session: RecSession | undefined;

beforeAll(() => assertBuilt());

afterEach(async () => {
  await session?.dispose();
  session = undefined;
});

/** Runs the named key script (the same one the fixtures were recorded with) under `rec codex`, then quits. */
async function run(name: string, o: { codexExits?: boolean } = {}): Promise<RecSession> {
  const scenario = SCENARIOS.find((s) => s.name === name);
  if (!scenario) throw new Error(`no scenario ${name}`);
  session = await startRec({ ...(scenario.cols ? { cols: scenario.cols } : {}), ...(scenario.rows ? { rows: scenario.rows } : {}) });
  await waitReady(session);
  await scenario.run(session.driver);
  // Without -c overrides Codex stays on its shared app-server daemon, exactly as when run bare
  // (embedded mode starts none: the warning itself hides behind "⚠ N warnings · f2 to view").
  expect(session.env.daemonPids()).not.toEqual([]);
  const exit = o.codexExits ? await session.rec.expectExit(REC_EXIT_TIMEOUT_MS) : await session.quit();
  expect(exit.exitCode).toBe(0);
  // Where the user ends: what was recorded comes out of `rec merge --run` and `rec stats --run`.
  await expectJourneys(session.dbPath, session.env.env);
  return session;
}

function rowsOf(s: RecSession) {
  return s.rows().map(view);
}

function onlyCall(s: RecSession): RolloutCall {
  const calls = s.rolloutCalls();
  expect(calls).toHaveLength(1);
  return calls[0]!;
}

describe(`rec codex on the real Codex ${AGENT_VERSION}: decisions at the command prompt`, () => {
  it('y approves once; the row carries the rollout call_id and arguments, and the command ran', async () => {
    const s = await run('shell-approve-y');
    const call = onlyCall(s);
    expect(existsSync(join(s.env.workDir, 'approved.txt'))).toBe(true);
    expect(call.ranPerRollout).toBe(true); // so the approval row below must say ran: yes
    expect(rowsOf(s)).toEqual([
      promptRow('command', call),
      approvalRow('command', call, { trigger: 'letter', option_label: OPTION.yes, scope: 'once' }),
    ]);
  }, TEST_TIMEOUT_MS);

  it("p approves with scope always: Codex keeps the \"don't ask again\" prefix rule in $CODEX_HOME/rules, and rec reads it back", async () => {
    const s = await run('shell-approve-p');
    const call = onlyCall(s);
    const rules = readFileSync(join(s.env.codexHome, 'rules', 'default.rules'), 'utf8');
    // Codex wraps a compound command's rule in its shell: the pattern is the whole argument list.
    const rule = `prefix_rule(pattern=["/bin/bash", "-lc", ${JSON.stringify(call.args.cmd)}], decision="allow")`;
    expect(rules.split('\n')).toContain(rule);
    expect(rowsOf(s)).toEqual([
      promptRow('command', call),
      approvalRow('command', call, { trigger: 'letter', option_label: OPTION.always(String(call.args.cmd)), scope: 'always' }),
    ]);
    expect(s.rows().find((r) => r.type === 'approval')!.native).toMatchObject({ permission_rule: rule });
  }, TEST_TIMEOUT_MS);

  it('Esc rejects; ran is no although the rollout only says "aborted by user"', async () => {
    const s = await run('shell-reject-esc');
    const call = onlyCall(s);
    expect(call.output).toMatch(/aborted by user/);
    expect(existsSync(join(s.env.workDir, 'approved.txt'))).toBe(false);
    expect(rowsOf(s)).toEqual([promptRow('command', call), rejectionRow('command', call, { trigger: 'esc', option_label: OPTION.no })]);
  }, TEST_TIMEOUT_MS);

  it('n rejects with trigger letter', async () => {
    const s = await run('shell-reject-n');
    const call = onlyCall(s);
    expect(rowsOf(s)).toEqual([promptRow('command', call), rejectionRow('command', call, { trigger: 'letter', option_label: OPTION.no })]);
  }, TEST_TIMEOUT_MS);

  it('Down Down Enter rejects with option 3 (trigger enter)', async () => {
    const s = await run('shell-reject-option3');
    const call = onlyCall(s);
    expect(rowsOf(s)).toEqual([promptRow('command', call), rejectionRow('command', call, { trigger: 'enter', option_label: OPTION.no })]);
  }, TEST_TIMEOUT_MS);

  it('Ctrl+C at the prompt rejects with trigger ctrl_c and no option', async () => {
    const s = await run('shell-ctrlc-at-prompt');
    const call = onlyCall(s);
    expect(rowsOf(s)).toEqual([promptRow('command', call), rejectionRow('command', call, { trigger: 'ctrl_c', option_label: null })]);
  }, TEST_TIMEOUT_MS);

  it("the user's next message after a rejection becomes its reason (next_message)", async () => {
    const s = await run('shell-reject-then-reason');
    const call = onlyCall(s);
    // The model was told: the aborted call, <turn_aborted>, then the user's words.
    const told = s.server.requests.filter((r) => r.kind === 'turn').at(-1)!;
    expect(told.userText).toBe('do not write files in the repo');
    expect(rowsOf(s)).toEqual([
      promptRow('command', call),
      rejectionRow('command', call, { trigger: 'esc', option_label: OPTION.no, reason: 'do not write files in the repo' }),
    ]);
  }, TEST_TIMEOUT_MS);

  it('a command that wraps at 80 columns is re-joined and matched to its call', async () => {
    const s = await run('long-command-wrapped');
    const call = onlyCall(s);
    expect(call.args.cmd).toBe(LONG_COMMAND);
    const rows = s.rows();
    expect(rows.map(view)).toEqual([
      promptRow('command', call),
      approvalRow('command', call, { trigger: 'letter', option_label: OPTION.yes, scope: 'once' }),
    ]);
    expect(rows[0]!.prompt?.details?.command).toBe(LONG_COMMAND);
  }, TEST_TIMEOUT_MS);

  it('a resize while the prompt is open is the same prompt, not a second one', async () => {
    const s = await run('resize-at-prompt');
    const call = onlyCall(s);
    expect(rowsOf(s)).toEqual([promptRow('command', call), rejectionRow('command', call, { trigger: 'esc', option_label: OPTION.no })]);
  }, TEST_TIMEOUT_MS);
});

describe(`rec codex on the real Codex ${AGENT_VERSION}: edits, interruptions, parallel calls`, () => {
  it('Esc at the edits prompt rejects the edit (kind edit) and no file is written', async () => {
    const s = await run('patch-reject-esc');
    const call = onlyCall(s);
    expect(existsSync(join(s.env.workDir, 'patched.txt'))).toBe(false);
    expect(rowsOf(s)).toEqual([promptRow('edit', call), rejectionRow('edit', call, { trigger: 'esc', option_label: OPTION.no })]);
  }, TEST_TIMEOUT_MS);

  it('Esc while an approved sleep runs: an approval, then an interruption of kind tool, never a rejection', async () => {
    const s = await run('sleep-esc-while-running');
    const call = onlyCall(s);
    expect(call.output).toMatch(/aborted by user/);
    // Nothing but the user's Esc ended it, and nothing shows the command started: ran stays unknown.
    expect(call.ranPerRollout).toBe(false);
    expect(rowsOf(s)).toEqual([
      promptRow('command', call),
      approvalRow('command', call, { trigger: 'letter', option_label: OPTION.yes, scope: 'once' }),
      toolInterruptionRow(call, { trigger: 'esc', option_label: null }),
    ]);
  }, TEST_TIMEOUT_MS);

  it('Ctrl+C while a command runs, then "Cancel task": an interruption with the menu choice', async () => {
    const s = await run('sleep-ctrlc-cancel');
    const call = onlyCall(s);
    expect(rowsOf(s)).toEqual([
      promptRow('command', call),
      approvalRow('command', call, { trigger: 'letter', option_label: OPTION.yes, scope: 'once' }),
      toolInterruptionRow(call, { trigger: 'ctrl_c', option_label: 'Cancel task' }),
    ]);
  }, TEST_TIMEOUT_MS);

  it('Ctrl+C while a command runs, then "Exit": an interruption of kind tool with the menu choice; Codex exits', async () => {
    const s = await run('sleep-ctrlc-exit', { codexExits: true });
    const call = onlyCall(s);
    expect(call.output).toMatch(/aborted by user/);
    expect(rowsOf(s)).toEqual([
      promptRow('command', call),
      approvalRow('command', call, { trigger: 'letter', option_label: OPTION.yes, scope: 'once' }),
      toolInterruptionRow(call, { trigger: 'ctrl_c', option_label: 'Exit' }),
    ]);
  }, TEST_TIMEOUT_MS);

  it('Ctrl+C while an answer streams, then "Run in background": detached, not an interruption; Codex exits', async () => {
    const s = await run('text-ctrlc-background', { codexExits: true });
    expect(s.rolloutCalls()).toEqual([]);
    expect(rowsOf(s)).toEqual([detachedRow()]);
  }, TEST_TIMEOUT_MS);

  it('Esc while an answer streams: an interruption of kind response with the partial text on screen', async () => {
    const s = await run('text-esc-while-streaming');
    expect(s.rolloutCalls()).toEqual([]);
    const rows = rowsOf(s);
    expect(rows).toEqual([
      {
        type: 'interruption',
        kind: 'response',
        trigger: 'esc',
        option_label: null,
        call_id: null,
        related_call_id: null,
        partial_output: expect.stringMatching(/^Counting slowly: w1 w2 w3 .*\bw12\b/),
      },
    ]);
    // What was captured is a prefix of what the model sent (Codex keeps none of it).
    const partial = String((rows[0] as { partial_output: unknown }).partial_output).replace(/\s+/g, ' ').trim();
    expect(SLOW_TEXT.startsWith(partial)).toBe(true);
  }, TEST_TIMEOUT_MS);

  it('three parallel calls, first prompt approved and second rejected: approved, rejected, skipped (the rollout says "aborted by user" for all)', async () => {
    const s = await run('parallel-approve-reject');
    const calls = s.rolloutCalls();
    expect(calls).toHaveLength(3);
    // Every output says "aborted by user", even the one that ran.
    for (const c of calls) expect(c.output).toMatch(/aborted by user/);
    const fileOf = (c: RolloutCall) => join(s.env.workDir, /> (p\d\.txt)/.exec(String(c.args.cmd))![1]!);
    const rows = s.rows();
    if (process.env.REC_E2E_DEBUG) console.log(JSON.stringify({ calls, rows: rows.map(view) }, null, 1));
    const decided = rows.filter((r) => r.type === 'approval' || r.type === 'rejection');
    expect(decided.map((r) => r.type)).toEqual(['approval', 'rejection']);
    const approved = calls.find((c) => c.callId === decided[0]!.call_id);
    // The approved call ran (its file exists), but its output says "aborted by user" like the others
    // and it usually has no CommandExecution item: rec then says ran unknown, never a guessed yes.
    const rejected = calls.find((c) => c.callId === decided[1]!.call_id);
    expect(approved).toBeDefined();
    expect(rejected).toBeDefined();
    const skipped = calls.find((c) => c !== approved && c !== rejected)!;
    expect(existsSync(fileOf(approved!))).toBe(true);
    expect(existsSync(fileOf(rejected!))).toBe(false);
    expect(existsSync(fileOf(skipped))).toBe(false);
    expect(rows.map(view)).toEqual([
      promptRow('command', approved!),
      approvalRow('command', approved!, { trigger: 'letter', option_label: OPTION.yes, scope: 'once' }),
      promptRow('command', rejected!),
      rejectionRow('command', rejected!, { trigger: 'esc', option_label: OPTION.no }),
      skippedRow(skipped, rejected!),
    ]);
  }, TEST_TIMEOUT_MS);
});

describe('the harness leaves nothing behind', () => {
  // "Run in background" leaves the daemon finishing the turn; stopped mid-turn, it leaves its
  // socket and lock in /tmp/codex-daemon-<uid>/ (a shell-prompt run's daemon removes them itself).
  it("stops Codex's daemon by pid and removes the socket it keeps outside CODEX_HOME", async () => {
    const s = await run('text-ctrlc-background', { codexExits: true });
    const daemons = s.env.daemonPids();
    const socket = s.env.daemonSocket();
    expect(socket).not.toBeNull();
    expect(existsSync(socket!)).toBe(true);
    await s.dispose();
    session = undefined;
    expect(daemons.filter(isAlive)).toEqual([]);
    expect(existsSync(socket!)).toBe(false);
    expect(existsSync(`${socket!}.lock`)).toBe(false);
  }, TEST_TIMEOUT_MS);
});
