// Subagents followed live: Claude Code 2.1.330 writes a subagent's transcript to
// <session>/subagents/agent-<id>.jsonl (agent-<id>.meta.json names the Agent call), and draws its
// prompts with ` · from the <type> agent` in the title (docs/claude.md).
// Lines here are cut-down copies of the recorded subagent-bash-esc transcripts; the screens are the
// recorded prompt's rows.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ClaudeRecorder } from '../../../../src/agents/claude/recorder.js';
import { CLAUDE_SESSION_ENV } from '../../../../src/agents/claude/launch.js';
import type { HookMessage } from '../../../../src/core/hookMessage.js';
import { Emitter } from '../../../../src/core/lifecycle.js';
import { keyEvent } from '../../../../src/lab/keys.js';
import { MemorySink } from '../../../support/memorySink.js';
import { TestScreen, blankScreen } from '../../../support/testScreen.js';
import { AgentReplay, IDLE_PANE } from '../../../support/claude/sampleReplay.js';

const SESSION = '901c33bb-f189-4ebc-8760-d23ba015cd13';
const DENIED =
  'Permission for this tool use was denied. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). Try a different approach or report the limitation to complete your task.';
const COMMAND = 'echo mock-bash-ran > bash-out.txt';
const REJECT_STOP =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
/** Long enough that no ignored-key check fires within a test. */
const NO_IGNORED_KEY_CHECK_MS = 600_000;
/** Nothing asserted waits on the reconcile after exit. */
const RECONCILE_IN_TESTS_MS = 300;

interface Call {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

const bash = (id: string): Call => ({ id, name: 'Bash', input: { command: COMMAND, description: 'Write a marker file' } });
const agentCall = (id: string): Call => ({ id, name: 'Agent', input: { description: 'Run bash in a subagent', prompt: 'SCENARIO bash', subagent_type: 'general-purpose' } });

function userText(text: string, uuid: string, agentId?: string): object {
  return { type: 'user', uuid, sessionId: SESSION, version: '2.1.330', ...(agentId ? { isSidechain: true, agentId } : { isSidechain: false }), message: { role: 'user', content: text } };
}
function assistantCalls(messageId: string, calls: readonly Call[], agentId?: string): object {
  return {
    type: 'assistant',
    ...(agentId ? { isSidechain: true, agentId } : { isSidechain: false }),
    message: { id: messageId, role: 'assistant', content: calls.map((c) => ({ type: 'tool_use', ...c })), stop_reason: 'tool_use' },
  };
}
function subagentDenied(callId: string, agentId: string): object {
  return {
    type: 'user',
    isSidechain: true,
    agentId,
    message: { role: 'user', content: [{ type: 'tool_result', content: DENIED, is_error: true, tool_use_id: callId }] },
    toolUseResult: `Error: ${DENIED}`,
    toolDenialKind: 'user-rejected',
    permissionDecision: { decision: 'reject', source: 'user_reject', reasonCode: 'unknown' },
  };
}
function accepted(callId: string, output: string): object {
  return {
    type: 'user',
    isSidechain: false,
    message: { role: 'user', content: [{ type: 'tool_result', content: output, is_error: false, tool_use_id: callId }] },
    permissionDecision: { decision: 'accept', source: 'user_temporary', grantScope: 'once' },
  };
}

/** The Bash prompt as 2.1.330 draws it, from a subagent (`from`) or the main thread. */
function bashPrompt(from?: string): string[] {
  return [
    '─'.repeat(120),
    from ? ` Bash command · from the ${from} agent` : ' Bash command',
    ' Write a marker file',
    '╌'.repeat(120),
    ` ${COMMAND}`,
    '╌'.repeat(120),
    ' Do you want to proceed?',
    ' ❯ 1. Yes',
    '   2. Yes, and always allow access to /w from this project',
    '   3. Yes, and switch to auto mode · auto mode handles these prompts for you',
    '   4. No',
    '',
    from ? ' Esc to cancel · Tab to amend · ctrl+x ctrl+k twice to stop background agents' : ' Esc to cancel · Tab to amend',
  ];
}

/** A ClaudeRecorder over a temporary HOME whose transcript and subagents/ the test writes. */
class SubagentRun {
  readonly sink = new MemorySink();
  readonly screen = new TestScreen(blankScreen(120, 45));
  readonly hooks = new Emitter<HookMessage>();
  readonly home = mkdtempSync(join(tmpdir(), 'rec-claude-sub-'));
  readonly transcript: string;
  readonly subagents: string;
  readonly recorder: ClaudeRecorder;

  constructor() {
    const project = join(this.home, '.claude', 'projects', '-w');
    mkdirSync(project, { recursive: true });
    this.transcript = join(project, `${SESSION}.jsonl`);
    this.subagents = join(project, SESSION, 'subagents');
    writeFileSync(this.transcript, '');
    this.recorder = new ClaudeRecorder(
      {
        runId: 'run-1',
        cwd: '/w',
        env: { HOME: this.home, [CLAUDE_SESSION_ENV]: SESSION },
        startedAt: new Date('2026-11-25T18:03:00.000Z'),
        screen: this.screen,
        sink: this.sink,
        hooks: this.hooks.event,
        debug: () => {},
      },
      { ignoredKeySettleMs: NO_IGNORED_KEY_CHECK_MS },
    );
    this.hook('SessionStart', {});
  }

  main(...lines: object[]): void {
    for (const l of lines) appendFileSync(this.transcript, JSON.stringify(l) + '\n');
  }

  /** Appends to agent-<id>.jsonl (creating subagents/ as Claude does with the first subagent). */
  sub(agentId: string, ...lines: object[]): void {
    mkdirSync(this.subagents, { recursive: true });
    for (const l of lines) appendFileSync(this.subFile(agentId), JSON.stringify(l) + '\n');
  }

  meta(agentId: string, parentCallId: string): void {
    mkdirSync(this.subagents, { recursive: true });
    writeFileSync(join(this.subagents, `agent-${agentId}.meta.json`), JSON.stringify({ agentType: 'general-purpose', toolUseId: parentCallId }));
  }

  subFile(agentId: string): string {
    return join(this.subagents, `agent-${agentId}.jsonl`);
  }

  hook(event: string, payload: Record<string, unknown>): void {
    this.hooks.fire({
      agent: 'claude',
      event,
      payload: { session_id: SESSION, transcript_path: this.transcript, hook_event_name: event, prompt_id: 'p1', ...payload },
      sent_at: new Date().toISOString(),
    });
  }

  show(lines: readonly string[]): void {
    this.screen.show({ ...blankScreen(120, 45), lines: [...lines, ...Array.from({ length: Math.max(0, 45 - lines.length) }, () => '')] });
  }

  press(...keys: string[]): void {
    for (const k of keys) this.recorder.handleKey(keyEvent(k));
  }

  async exit(): Promise<void> {
    await this.recorder.handleExit({ exitCode: 0 }, AbortSignal.timeout(RECONCILE_IN_TESTS_MS));
    this.recorder.dispose();
  }

  dispose(): void {
    rmSync(this.home, { recursive: true, force: true });
  }
}

let run: SubagentRun | undefined;
afterEach(() => {
  run?.recorder.dispose();
  run?.dispose();
  run = undefined;
});

const decisions = (r: SubagentRun) => r.sink.rows('approval', 'rejection', 'skipped', 'interruption');

describe('claude 2.1.330, a subagent followed live', () => {
  it("a subagent's prompt finds its transcript at once and binds to the subagent's own call, not the main thread's identical one; Esc rejects it with the subagent's words, agent_id and parent_call_id", async () => {
    const r = (run = new SubagentRun());
    // One main batch: the Agent call and a main-thread Bash with the very same command.
    r.main(userText('SCENARIO agent', 'u1'), assistantCalls('msg_main', [agentCall('toolu_agent'), bash('toolu_main')]));
    // The Agent call's PreToolUse: the main file is read (its Bash is the first call pending) before any subagent exists.
    r.hook('PreToolUse', { tool_name: 'Agent', tool_input: agentCall('toolu_agent').input, tool_use_id: 'toolu_agent' });
    r.meta('a1', 'toolu_agent');
    r.sub('a1', userText('SCENARIO bash', 's1', 'a1'), assistantCalls('msg_sub', [bash('toolu_sub')], 'a1'));
    // No timer tick between: the prompt's appearance itself looks for the new file.
    r.show(bashPrompt('general-purpose'));
    expect(r.sink.rows('prompt')).toEqual([expect.objectContaining({ call_id: 'toolu_sub', tool_name: 'Bash', prompt: expect.objectContaining({ title: 'Bash command · from the general-purpose agent' }) })]);

    r.press('esc');
    r.show(IDLE_PANE);
    r.sub('a1', subagentDenied('toolu_sub', 'a1'));
    // The subagent's refusal ended no turn: the main thread's own prompt is taken, and decided.
    r.show(bashPrompt());
    r.press('1');
    r.main(accepted('toolu_main', ''), accepted('toolu_agent', 'done'));
    r.show(IDLE_PANE);
    await r.exit();

    expect(r.sink.rows('prompt').map((e) => e.call_id)).toEqual(['toolu_sub', 'toolu_main']);
    expect(decisions(r)).toEqual([
      expect.objectContaining({
        type: 'rejection',
        trigger: 'esc',
        call_id: 'toolu_sub',
        ran: 'no',
        reason_source: 'none',
        native: expect.objectContaining({ agent_id: 'a1', parent_call_id: 'toolu_agent', output: DENIED, toolDenialKind: 'user-rejected' }),
        evidence: ['screen', 'keys', 'session_file'],
      }),
      expect.objectContaining({ type: 'approval', trigger: 'digit', call_id: 'toolu_main', ran: 'yes' }),
    ]);
    // The subagent's lines are kept as the main file's are, under their own file.
    const files = new Set(r.sink.records.map((rec) => rec.source_file));
    expect(files).toEqual(new Set([r.transcript, r.subFile('a1')]));
    expect(r.sink.records.filter((rec) => rec.source_file === r.subFile('a1')).map((rec) => rec.line_no)).toEqual([1, 2, 3]);
  });

  it("a subagent's rejection skips nothing even when the main turn is then cut: the Agent call and its sibling are not made skipped by it", async () => {
    const r = (run = new SubagentRun());
    r.main(userText('SCENARIO agent', 'u1'), assistantCalls('msg_main', [agentCall('toolu_agent'), bash('toolu_main')]));
    r.meta('a1', 'toolu_agent');
    r.sub('a1', assistantCalls('msg_sub', [bash('toolu_sub')], 'a1'));
    r.show(bashPrompt('general-purpose'));
    r.press('esc');
    r.sub('a1', subagentDenied('toolu_sub', 'a1'));
    // The main turn ends cut (as after an Esc at the main thread): the batch's fates are settled now.
    r.main({ type: 'user', isSidechain: false, message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user for tool use]' }] } });
    r.show(IDLE_PANE);
    await r.exit();
    expect(decisions(r).map((e) => [e.type, e.call_id])).toEqual([['rejection', 'toolu_sub']]);
  });

  it('a meta file written after the first lines: parent_call_id is filled in once Claude writes it', async () => {
    const r = (run = new SubagentRun());
    r.main(userText('SCENARIO agent', 'u1'), assistantCalls('msg_main', [agentCall('toolu_agent')]));
    r.sub('a1', assistantCalls('msg_sub', [bash('toolu_sub')], 'a1'));
    r.show(bashPrompt('general-purpose'));
    r.press('esc');
    expect(r.sink.rows('rejection')).toEqual([expect.objectContaining({ call_id: 'toolu_sub', native: { agent_id: 'a1' } })]);
    r.meta('a1', 'toolu_agent');
    r.sub('a1', subagentDenied('toolu_sub', 'a1'));
    r.show(IDLE_PANE);
    await r.exit();
    expect(r.sink.rows('rejection')).toEqual([expect.objectContaining({ call_id: 'toolu_sub', native: expect.objectContaining({ agent_id: 'a1', parent_call_id: 'toolu_agent', output: DENIED }) })]);
  });

  it("the hooks of two subagents asking the same command: the PermissionRequest's agent_id names the call its prompt shows", async () => {
    const r = (run = new SubagentRun());
    r.main(userText('SCENARIO agent', 'u1'), assistantCalls('msg_main', [agentCall('toolu_agent_a'), agentCall('toolu_agent_b')]));
    const input = bash('x').input;
    // Before either transcript is read: the hooks alone know the calls. Same prompt_id, tool and input.
    r.hook('PreToolUse', { agent_id: 'a', agent_type: 'general-purpose', tool_name: 'Bash', tool_input: input, tool_use_id: 'toolu_a' });
    r.hook('PreToolUse', { agent_id: 'b', agent_type: 'general-purpose', tool_name: 'Bash', tool_input: input, tool_use_id: 'toolu_b' });
    // From the first one: the latest PreToolUse with that input is the other subagent's.
    r.hook('PermissionRequest', { agent_id: 'a', agent_type: 'general-purpose', tool_name: 'Bash', tool_input: input });
    r.show(bashPrompt('general-purpose'));
    r.press('esc');
    r.show(IDLE_PANE);
    await r.exit();
    expect(r.sink.rows('rejection')).toEqual([expect.objectContaining({ call_id: 'toolu_a', native: expect.objectContaining({ agent_id: 'a' }) })]);
  });

  it('a main-thread prompt never binds to a subagent call with the same command', async () => {
    const r = (run = new SubagentRun());
    r.main(userText('SCENARIO agent', 'u1'), assistantCalls('msg_main', [agentCall('toolu_agent')]));
    r.sub('a1', assistantCalls('msg_sub', [bash('toolu_sub')], 'a1'));
    r.show(bashPrompt());
    expect(r.sink.rows('prompt').map((e) => e.call_id ?? null)).toEqual([null]);
    r.main(assistantCalls('msg_main2', [bash('toolu_main')]));
    r.press('4');
    r.show(IDLE_PANE);
    await r.exit();
    expect(r.sink.rows('rejection')).toEqual([expect.objectContaining({ call_id: 'toolu_main', option_label: 'No' })]);
  });

  it('Esc while the main turn runs an Agent call (the 2.1.328 recording; no prompt approved it, so the screen shows nothing running): once the transcript says the call was cut while it ran, the interruption is of kind subagent, about the Agent call', async () => {
    const r = new AgentReplay('23-agent-main-Esc-while-Agent-runs');
    r.appendThroughCall();
    const [agent] = r.callIds();
    r.showText(['● Agent(Run bash in a subagent)', '', '✻ Working… (esc to interrupt)', ...IDLE_PANE]);
    r.press('esc');
    expect(r.sink.rows('interruption')).toEqual([expect.objectContaining({ kind: 'response', trigger: 'esc' })]);
    r.showText(IDLE_PANE);
    // The rest: the Agent call "rejected" without toolDenialBeforeRun, the interrupt marker, the subagent's report.
    await r.exit();
    expect(r.sink.rows('approval', 'rejection', 'skipped', 'interruption')).toEqual([
      expect.objectContaining({
        type: 'interruption',
        kind: 'subagent',
        trigger: 'esc',
        call_id: agent,
        tool_name: 'Agent',
        related_call_id: agent,
        partial_output: null,
        native: expect.objectContaining({ toolDenialKind: 'user-rejected', output: REJECT_STOP, turn_aborted: '[Request interrupted by user for tool use]' }),
      }),
    ]);
  });
});
