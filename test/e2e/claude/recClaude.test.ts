// `rec claude` on the REAL pinned Claude Code against our mock Messages API:
// each scenario of issue 14 drives the keys a user would press, then compares the sidecar rows with
// Claude Code's own transcript (tool_use id, tool input, its words) and the file system (what ran).
// Runs sequentially in one file: each test owns a fresh HOME, a Claude Code and a mock.
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CREATED_FILE, EDITED_LINE, NOTES_FILE, NOTES_TEXT } from '../../../src/lab/mock/anthropicMessages/scenarios.js';
import { isAlive } from '../../../src/lab/processTree.js';
import { countAgentRecords, readAgentRecords, readRuns } from '../../support/sidecarRows.js';
import { expectJourneys } from '../../support/journey.js';
import { AGENT_VERSION } from '../../support/claude/env.js';
import {
  approvalRow,
  OPTION,
  promptRow,
  REJECT_STOP,
  rejectionRow,
  rejectWithReason,
  responseInterruptionRow,
  ruleRejectionRow,
  skippedRow,
  SUBAGENT_DENIED,
  CUT_WHILE_RUNNING,
  toolInterruptionRow,
  view,
} from '../../support/claude/expectedRows.js';
import { missingPart, startRec, waitReady, type RecSession } from '../../support/claude/recSession.js';
import { DISCARDED_REASON, REASON, SCENARIOS, SCREEN } from '../../../src/agents/claude/bench/recordedScenarios.js';
import { readTranscript, type TranscriptCall } from '../../support/claude/transcriptCalls.js';
import { INLINE_SCENARIOS } from '../../support/claude/inlineScenarios.js';

/** One scenario: Claude Code's start (4-6 s), a model turn or two, the quit and rec's reconcile; generous for 2 loaded cores. */
const TEST_TIMEOUT_MS = 120_000;

// The pinned Claude Code is a devDependency: without it (or without a build) the suite fails here,
// never passes by skipping (scripts/test builds first; `npm ci` installs it).
const missing = missingPart();
if (missing) throw new Error(`the Claude Code e2e suite cannot run: ${missing}`);

let session: RecSession | undefined;

afterEach(async () => {
  await session?.dispose();
  session = undefined;
});

/** Runs the named key script (the same one the fixtures were recorded with) under `rec claude`, then quits. */
async function run(name: string): Promise<RecSession> {
  const scenario = [...SCENARIOS, ...INLINE_SCENARIOS].find((s) => s.name === name);
  if (!scenario) throw new Error(`no scenario ${name}`);
  session = await startRec({
    ...(scenario.cols ? { cols: scenario.cols } : {}),
    ...(scenario.rows ? { rows: scenario.rows } : {}),
    ...(scenario.args ? { args: scenario.args } : {}),
  });
  await waitReady(session);
  await scenario.run(session.driver);
  const exit = await session.quit();
  expect(exit.exitCode).toBe(0);
  // Where the user ends: what was recorded comes out of `rec merge --run` and `rec stats --run`.
  await expectJourneys(session.dbPath, session.env.env);
  return session;
}

function calls(s: RecSession): TranscriptCall[] {
  return s.transcript().calls;
}

function onlyCall(s: RecSession, name = 'Bash'): TranscriptCall {
  const named = calls(s).filter((c) => c.name === name);
  expect(named).toHaveLength(1);
  return named[0]!;
}

const rowsOf = (s: RecSession) => s.rows().map(view);

/**
 * Esc or Ctrl+C while an approved command runs: Claude Code writes REJECT_STOP without
 * toolDenialBeforeRun, and the next line names the interrupted message.
 */
function expectCutWhileRunning(s: RecSession, trigger: 'esc' | 'ctrl_c'): void {
  const call = onlyCall(s);
  expect(call.result?.content).toBe(REJECT_STOP);
  expect(call.result?.line.toolDenialBeforeRun).toBeUndefined();
  expect(s.transcript().interrupts).toEqual([expect.objectContaining({ text: '[Request interrupted by user for tool use]' })]);
  expect(rowsOf(s)).toEqual([
    promptRow('command', call),
    approvalRow('command', call, { trigger: 'digit', option_label: OPTION.yes, scope: 'once', native: CUT_WHILE_RUNNING }),
    toolInterruptionRow(call, { trigger }),
  ]);
}

describe(`the Claude Code test kit: plain claude ${AGENT_VERSION} in the isolated env`, () => {
  it('reaches a Bash permission prompt on the mock, with the call in its transcript, and nothing tried to leave', async () => {
    session = await startRec({ bare: true });
    const s = session;
    await waitReady(s);
    expect(s.proc.screen()).toContain(`Claude Code v${AGENT_VERSION}`);
    await s.driver.line('SCENARIO bash');
    await s.driver.waitScreen(SCREEN.bashPrompt);
    const asked = await s.server.waitForRequest((r) => r.kind === 'turn' && r.scenario === 'bash', 1_000);
    expect(asked.step).toBe(0);
    expect(s.server.toolUseIds).toHaveLength(1);
    s.driver.send('\x1b');
    await s.driver.waitScreen(SCREEN.interrupted);
    const exit = await s.quit();
    expect(exit.exitCode).toBe(0);
    // The transcript has the mock's call, answered with Claude Code's rejection words.
    const call = onlyCall(s);
    expect(call.id).toBe(s.server.toolUseIds[0]);
    expect(call.result?.content).toBe(REJECT_STOP);
    expect(call.result?.line.toolDenialKind).toBe('user-rejected');
    expect(existsSync(join(s.env.workDir, 'bash-out.txt'))).toBe(false);
    // The guard (the proxies point at the mock) saw no CONNECT, no absolute URI, and no wrong key.
    expect(s.server.requests.filter((r) => r.kind === 'escape' || r.kind === 'unauthorized' || r.kind === 'other')).toEqual([]);
  }, TEST_TIMEOUT_MS);

  it('stops claude and everything it started by pid, and removes its HOME', async () => {
    session = await startRec({ bare: true });
    const s = session;
    await waitReady(s);
    const pid = s.proc.pid;
    const base = s.env.baseDir;
    await s.dispose();
    session = undefined;
    expect(isAlive(pid)).toBe(false);
    expect(existsSync(base)).toBe(false);
  }, TEST_TIMEOUT_MS);
});

// The same decisions on both renderers: the default full screen (the alternate screen), and the
// inline one the user picks with `--settings '{"tui":"default"}'` (normal screen, history in the
// scrollback, tool rows `● Bash(…)` / `⎿  Waiting…`, redrawn by erasing lines; rec merges its hooks
// into that flag and leaves the choice alone). The key scripts are the same (INLINE_SCENARIOS are
// named inline-<name>), and so are the transcript and the rows: they do not depend on how the
// prompt was drawn.
const RENDERERS = [
  { renderer: 'full-screen', prefix: '', alternateScreen: true },
  { renderer: `inline (the user's --settings {"tui":"default"})`, prefix: 'inline-', alternateScreen: false },
] as const;

describe.each(RENDERERS)(`rec claude on the real Claude Code ${AGENT_VERSION}, $renderer renderer: decisions at the prompt`, ({ prefix, alternateScreen }) => {
  /** The named scenario's key script for this renderer. */
  const runOn = (name: string) => run(`${prefix}${name}`);

  it('1 approves once: the run row carries version and session id; the command ran; the renderer the user has is the one Claude Code drew with', async () => {
    const s = await runOn('bash-approve-once');
    const call = onlyCall(s);
    expect(existsSync(join(s.env.workDir, 'bash-out.txt'))).toBe(true);
    // rec keeps the user's tui setting: only the full-screen renderer enters the alternate screen.
    if (alternateScreen) expect(s.proc.output).toContain('\x1b[?1049h');
    else expect(s.proc.output).not.toContain('\x1b[?1049h');
    expect(rowsOf(s)).toEqual([promptRow('command', call), approvalRow('command', call, { trigger: 'digit', option_label: OPTION.yes, scope: 'once' })]);
    const run0 = readRuns(s.dbPath)[0]!;
    expect(run0).toMatchObject({ agent: 'claude', agent_version: AGENT_VERSION });
    expect(String(s.transcriptFile())).toContain(String(run0.agent_session_id));
    expect(countAgentRecords(s.dbPath)).toBeGreaterThan(0);
  }, TEST_TIMEOUT_MS);

  it('4 (No) rejects with trigger digit', async () => {
    const s = await runOn('bash-reject-digit');
    const call = onlyCall(s);
    expect(existsSync(join(s.env.workDir, 'bash-out.txt'))).toBe(false);
    expect(rowsOf(s)).toEqual([promptRow('command', call), rejectionRow('command', call, { trigger: 'digit', option_label: OPTION.no })]);
  }, TEST_TIMEOUT_MS);

  it('Esc rejects with trigger esc and no option, although the transcript is byte-identical to No', async () => {
    const s = await runOn('bash-reject-esc');
    const call = onlyCall(s);
    expect(call.result?.line.toolDenialBeforeRun).toBe(true);
    expect(rowsOf(s)).toEqual([promptRow('command', call), rejectionRow('command', call, { trigger: 'esc', option_label: null })]);
  }, TEST_TIMEOUT_MS);

  it('Tab on No, a typed reason, Enter: trigger tab, the reason inline (Claude Code keeps it as userFeedback and goes on)', async () => {
    const s = await runOn('bash-reject-reason');
    const call = onlyCall(s);
    expect(call.result?.content).toBe(rejectWithReason(REASON));
    expect(rowsOf(s)).toEqual([promptRow('command', call), rejectionRow('command', call, { trigger: 'tab', option_label: OPTION.no, reason: REASON })]);
  }, TEST_TIMEOUT_MS);

  it('Tab on No, a typed reason, then Esc: a rejection with no reason, the typed text kept nowhere', async () => {
    const s = await runOn('bash-reject-reason-discarded');
    const call = onlyCall(s);
    expect(call.result?.content).toBe(REJECT_STOP);
    const rows = s.rows();
    expect(rows.map(view)).toEqual([promptRow('command', call), rejectionRow('command', call, { trigger: 'esc', option_label: null, reasonDiscarded: true })]);
    expect(JSON.stringify(rows)).not.toContain(DISCARDED_REASON);
  }, TEST_TIMEOUT_MS);

  // Inline, the Edit prompt's diff is still `…` when first drawn.
  it('3 (No) at the Edit prompt rejects the edit (kind edit); the Read before it asked nothing; the file is unchanged', async () => {
    const s = await runOn('edit-reject');
    const edit = onlyCall(s, 'Edit');
    expect(readFileSync(join(s.env.workDir, NOTES_FILE), 'utf8')).toBe(NOTES_TEXT);
    expect(edit.input.new_string).toBe(EDITED_LINE);
    expect(rowsOf(s)).toEqual([promptRow('edit', edit), rejectionRow('edit', edit, { trigger: 'digit', option_label: OPTION.no })]);
  }, TEST_TIMEOUT_MS);

  it('three parallel calls, the first approved and the second refused with Esc: approval, rejection, and the third skipped', async () => {
    const s = await runOn('parallel-second-rejected');
    const [first, second, third] = calls(s);
    expect([first, second, third].map((c) => c?.input.command)).toEqual(['echo one > p1.txt', 'echo two > p2.txt', 'echo three > p3.txt']);
    expect(existsSync(join(s.env.workDir, 'p1.txt'))).toBe(true);
    expect(existsSync(join(s.env.workDir, 'p2.txt'))).toBe(false);
    expect(existsSync(join(s.env.workDir, 'p3.txt'))).toBe(false);
    // The refused call and its never-prompted sibling carry the same words in the transcript.
    expect(third!.result?.content).toBe(second!.result?.content);
    expect(rowsOf(s)).toEqual([
      promptRow('command', first!),
      approvalRow('command', first!, { trigger: 'digit', option_label: OPTION.yes, scope: 'once' }),
      promptRow('command', second!),
      rejectionRow('command', second!, { trigger: 'esc', option_label: null }),
      skippedRow('command', third!, second!),
    ]);
  }, TEST_TIMEOUT_MS);

  it('Esc while an approved sleep runs: an approval, then an interruption of kind tool, never a rejection', async () => {
    expectCutWhileRunning(await runOn('sleep-esc-running'), 'esc');
  }, TEST_TIMEOUT_MS);

  it('Esc while an answer streams: an interruption of kind response naming the message Claude kept cut; any partial text on screen is its start', async () => {
    const s = await runOn('slowtext-esc');
    expect(calls(s)).toEqual([]);
    const aborted = s.transcript().aborted;
    expect(aborted).toHaveLength(1);
    const rows = s.rows();
    expect(rows.map(view)).toEqual([responseInterruptionRow({ trigger: 'esc' })]);
    // Claude Code draws a reply only now and then while it streams, so the screen may have shown
    // none of it when Esc came; what it showed, if anything, is the start of what Claude kept. The
    // kept text itself is referenced, not copied: native names the message Claude marked cut.
    const partial = String(rows[0]!.partial_output ?? '').trim();
    expect(aborted[0]!.text.startsWith(partial)).toBe(true);
    expect(rows[0]!.native).toMatchObject({ isAbortedMidStream: true, interruptedMessageId: expect.any(String) });
  }, TEST_TIMEOUT_MS);
});

// rec claude (src/agents/claude) on the real CLI, the full-screen renderer only: the exact rows of
// each further scenario.
describe(`rec claude on the real Claude Code ${AGENT_VERSION}, full-screen renderer: more decisions at the prompt`, () => {
  it('2 ("always allow access to <dir> from this project") approves for the session: the label verbatim, scope from what Claude Code did', async () => {
    const s = await run('bash-approve-always');
    const call = onlyCall(s);
    // Despite "always", 2.1.330 writes grantScope "session" and persists nothing (no .claude/settings.local.json).
    expect(call.result?.line.permissionDecision).toMatchObject({ decision: 'accept', grantScope: 'session' });
    expect(existsSync(join(s.env.workDir, '.claude', 'settings.local.json'))).toBe(false);
    expect(rowsOf(s)).toEqual([
      promptRow('command', call),
      approvalRow('command', call, { trigger: 'digit', option_label: OPTION.always(s.env.workDir), scope: 'session' }),
    ]);
  }, TEST_TIMEOUT_MS);

  it('Ctrl+C at the prompt records nothing (Claude Code ignores it); the Esc after it rejects', async () => {
    const s = await run('ctrlc-at-prompt');
    const call = onlyCall(s);
    expect(rowsOf(s)).toEqual([promptRow('command', call), rejectionRow('command', call, { trigger: 'esc', option_label: null })]);
  }, TEST_TIMEOUT_MS);

  it('a resize while the prompt is open is the same prompt, not a second one', async () => {
    const s = await run('resize-at-prompt');
    const call = onlyCall(s);
    expect(rowsOf(s)).toEqual([promptRow('command', call), rejectionRow('command', call, { trigger: 'esc', option_label: null })]);
  }, TEST_TIMEOUT_MS);
});

describe(`rec claude on the real Claude Code ${AGENT_VERSION}, full-screen renderer: edits, batches, interruptions, rules`, () => {
  it('Esc at the Write prompt ("Create file"): a rejection of kind edit with the content in tool_input; the file was not created', async () => {
    const s = await run('write-reject-esc');
    const write = onlyCall(s, 'Write');
    expect(existsSync(join(s.env.workDir, CREATED_FILE))).toBe(false);
    expect(write.input.content).toBe('created by the mock\n');
    const rows = s.rows();
    expect(rows.map(view)).toEqual([promptRow('edit', write), rejectionRow('edit', write, { trigger: 'esc', option_label: null })]);
    expect(rows[0]!.prompt?.title).toBe('Create file');
  }, TEST_TIMEOUT_MS);

  it('Ctrl+C while an approved sleep runs: an approval, then an interruption of kind tool with trigger ctrl_c', async () => {
    expectCutWhileRunning(await run('sleep-ctrlc-running'), 'ctrl_c');
  }, TEST_TIMEOUT_MS);

  it('Esc while a tool call is still streaming: kind response, and the dropped call is recorded nowhere', async () => {
    const s = await run('slowtool-esc');
    const dropped = s.server.toolUseIds.at(-1)!;
    expect(calls(s).map((c) => c.id)).not.toContain(dropped);
    const rows = s.rows();
    expect(rows.map(view)).toEqual([responseInterruptionRow({ trigger: 'esc' })]);
    expect(JSON.stringify(rows)).not.toContain(dropped);
  }, TEST_TIMEOUT_MS);

  // The subagent's transcript is followed live (subagents/agent-<id>.jsonl): its call id and words
  // come from there, and its meta file names the Agent call that started it.
  it("Esc at a subagent's Bash prompt: a rejection of the subagent's call (its words only in subagents/), and the subagent goes on", async () => {
    const s = await run('subagent-bash-esc');
    const sessionId = basename(s.transcriptFile(), '.jsonl');
    const subFiles = s.env.subagentTranscripts(sessionId);
    expect(subFiles).toHaveLength(1);
    const sub = readTranscript(subFiles[0]!).calls;
    expect(sub.map((c) => c.name)).toEqual(['Bash']);
    const call = sub[0]!;
    expect(call.result?.content).toBe(SUBAGENT_DENIED);
    // The main transcript has only the Agent call, launched in the background and accepted by config.
    expect(calls(s).map((c) => c.name)).toEqual(['Agent']);
    const rows = s.rows();
    expect(rows.filter((r) => r.call_id === call.id).map(view)).toEqual([
      promptRow('command', call),
      rejectionRow('command', call, { trigger: 'esc', option_label: null, content: SUBAGENT_DENIED }),
    ]);
    const agent = calls(s)[0]!;
    const agentId = basename(subFiles[0]!, '.jsonl').replace(/^agent-/, '');
    expect(rows.find((r) => r.type === 'rejection')!.native).toMatchObject({ agent_id: agentId, parent_call_id: agent.id });
    // Every line of both transcripts is kept, each under its own file.
    const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').length;
    const records = readAgentRecords(s.dbPath);
    expect(records.filter((r) => r.source_file.includes(`${sessionId}/subagents/`)).map((r) => r.source_file)).toEqual(Array(lines(subFiles[0]!)).fill(subFiles[0]));
    expect(records.filter((r) => r.source_file === s.transcriptFile())).toHaveLength(lines(s.transcriptFile()));
    expect(rows.filter((r) => r.type === 'interruption' || r.type === 'skipped')).toEqual([]);
  }, TEST_TIMEOUT_MS);

  // Issue 14 asks for an interruption of kind subagent when Esc lands while a foreground subagent
  // works. Claude Code 2.1.330 in a terminal has none: it launches every subagent in the background
  // (the binary: "subagents forced into the background: in a terminal, …"), even with
  // run_in_background: false, and an Esc at the prompt then does not reach the subagent. What is
  // true is recorded: nothing was interrupted.
  it('Esc while a subagent asked for the foreground works: Claude Code backgrounds it anyway and the Esc does not cut it; rec records no interruption', async () => {
    const s = await run('subagent-foreground-esc');
    const [agent] = calls(s);
    expect(agent).toMatchObject({ name: 'Agent', input: expect.objectContaining({ run_in_background: false }) });
    expect(JSON.stringify(agent!.result?.content)).toContain('Async agent launched successfully');
    const sessionId = basename(s.transcriptFile(), '.jsonl');
    const [sub] = s.env.subagentTranscripts(sessionId);
    const meta = JSON.parse(readFileSync(sub!.replace(/\.jsonl$/, '.meta.json'), 'utf8')) as Record<string, unknown>;
    expect(meta).toMatchObject({ toolUseId: agent!.id, requestShape: 'background' });
    expect(s.transcript().interrupts).toEqual([]);
    expect(s.rows()).toEqual([]);
  }, TEST_TIMEOUT_MS);

  it('a call matched by the deny rule: a rejection decided_by rule, no prompt row, no key', async () => {
    const s = await run('deny-rule');
    const call = onlyCall(s);
    expect(call.result?.line.toolDenialKind).toBe('permission-rule');
    expect(rowsOf(s)).toEqual([ruleRejectionRow(call)]);
  }, TEST_TIMEOUT_MS);
});

// The inline renderer picked in the user's own settings file rather than by the flag.
describe(`rec claude on the real Claude Code ${AGENT_VERSION}, inline renderer (the user's settings file)`, () => {
  it('the same key in the user\'s settings file (no flag): drawn inline, read from the screen; Esc rejects with trigger esc', async () => {
    const scenario = INLINE_SCENARIOS.find((x) => x.name === 'inline-bash-reject-esc')!;
    session = await startRec({ userSettings: { tui: 'default' } });
    const s = session;
    await waitReady(s);
    await scenario.run(s.driver);
    expect((await s.quit()).exitCode).toBe(0);
    await expectJourneys(s.dbPath, s.env.env);
    expect(s.proc.output).not.toContain('\x1b[?1049h');
    const call = onlyCall(s);
    expect(rowsOf(s)).toEqual([promptRow('command', call), rejectionRow('command', call, { trigger: 'esc', option_label: null })]);
  }, TEST_TIMEOUT_MS);

});
