// Recorded sessions of the real Claude Code, every verified version's (test/fixtures/claude/<version>/recorded,
// each version kept replaying after a newer one is pinned; recorded by the claude kit's scripts/record-claude-fixtures.mjs against the mock Messages API), replayed
// chunk by chunk through a real ScreenModel, the InputRelay and the ClaudeRecorder into an in-memory
// sidecar, with the transcript written as Claude wrote it (test/support/claude/recordedRun.ts). Each scenario
// asserts the exact decision rows. (The recorded frames are not compared: the fixtures' paths were
// sanitised in the cast's bytes, which moves cursor-placed words, and in the frames' text.)
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecEvent } from '../../../../src/core/events.js';
import { fixturesDir } from '../../../support/agentVersions.js';
import { RECORDED_BY_VERSION, replayRecorded, type RecordedRun, type ReplayOptions } from '../../../support/claude/recordedRun.js';
import { TIMING_POINTS, timingLabel, timingOptions } from '../../../support/timingSweep.js';

/** A replay parses a few hundred kB of output on the recording's clock; generous for 2 loaded cores. */
const REPLAY_TIMEOUT_MS = 60_000;

/**
 * Claude's transcript writer trailing the screen (a loaded machine), as the Codex and Gemini replays
 * do it: 400 ms is two of the recorder's polls (SESSION_POLL_MS) behind what the screen shows, 1500 ms
 * more than a scan (SESSION_SCAN_MS) behind.
 */
const LAGGING_TRANSCRIPT_MS = [0, 400, 1_500] as const;

type Row = Partial<Pick<RecEvent, 'type' | 'kind' | 'trigger' | 'option_label' | 'call_id' | 'related_call_id' | 'decided_by' | 'scope' | 'reason' | 'reason_source' | 'ran'>>;

const view = (e: RecEvent): Row => ({
  type: e.type,
  kind: e.kind,
  trigger: e.trigger,
  option_label: e.option_label,
  call_id: e.call_id,
  related_call_id: e.related_call_id,
  decided_by: e.decided_by,
  scope: e.scope,
  reason: e.reason,
  reason_source: e.reason_source,
  ran: e.ran,
});
const decisions = (r: RecordedRun) => r.events.filter((e) => e.type !== 'prompt').map(view);
const prompts = (r: RecordedRun) => r.events.filter((e) => e.type === 'prompt');

const base: Row = { call_id: null, related_call_id: null, decided_by: 'user', scope: null, reason: null, reason_source: null, ran: null, trigger: null, option_label: null };
const approval = (callId: string, trigger: string, optionLabel: string, scope: string): Row => ({ ...base, type: 'approval', kind: 'command', trigger: trigger as Row['trigger'], option_label: optionLabel, scope: scope as Row['scope'], call_id: callId, ran: 'yes' });
const rejection = (callId: string, kind: string, trigger: string, reasonSource = 'none', reason: string | null = null): Row => ({
  ...base,
  type: 'rejection',
  kind: kind as Row['kind'],
  trigger: trigger as Row['trigger'],
  // Esc is not an option of Claude's prompt: a rejection by Esc names none (that is how it differs from No).
  option_label: trigger === 'esc' ? null : 'No',
  call_id: callId,
  reason,
  reason_source: reasonSource as Row['reason_source'],
  ran: 'no',
});

// As recorded, then at every point of the timing sweep (test/support/timingSweep.ts): the same rows.
const TIMINGS: ReadonlyArray<{ readonly label: string; readonly options: ReplayOptions }> = [
  { label: '', options: {} },
  ...TIMING_POINTS.map((p) => ({ label: `, ${timingLabel(p, 'transcript')}`, options: timingOptions(p) })),
];

for (const [{ version, recorded, inline }, { label, options }] of RECORDED_BY_VERSION.flatMap((v) => TIMINGS.map((t) => [v, t] as const))) {
  describe(`claude ${version}, 120x40, recorded sessions replayed through the recorder${label}`, () => {
    const replay = (name: string) => replayRecorded(name, { dir: recorded, ...options });

    it('bash-approve-once: 1 approves once; the transcript says it ran', async () => {
      const r = await replay('bash-approve-once');
      expect(prompts(r)).toEqual([expect.objectContaining({ kind: 'command', call_id: r.calls[0]!.id, tool_name: 'Bash', prompt: expect.objectContaining({ title: 'Bash command' }) })]);
      expect(decisions(r)).toEqual([approval(r.calls[0]!.id, 'digit', 'Yes', 'once')]);
      expect(r.forwarded.equals(r.keysSent)).toBe(true);
      expect(r.agentRecords).toBe(r.transcriptLines);
    }, REPLAY_TIMEOUT_MS);

    it('bash-approve-always: 2 approves for the session', async () => {
      const r = await replay('bash-approve-always');
      // The label as the replayed screen shows it: the fixture's sanitised path (`<BASE>`) is shorter
      // than the recorded one, and Claude placed the words after it with cursor moves.
      expect(decisions(r)).toEqual([approval(r.calls[0]!.id, 'digit', expect.stringMatching(/^Yes, and always allow access to <BASE>\/work\s+from this project$/) as unknown as string, 'session')]);
    }, REPLAY_TIMEOUT_MS);

    it('bash-reject-digit: 4 rejects (No)', async () => {
      const r = await replay('bash-reject-digit');
      expect(decisions(r)).toEqual([rejection(r.calls[0]!.id, 'command', 'digit')]);
    }, REPLAY_TIMEOUT_MS);

    it('bash-reject-esc: Esc rejects; the transcript cannot tell it from No, the keys do', async () => {
      const r = await replay('bash-reject-esc');
      expect(decisions(r)).toEqual([rejection(r.calls[0]!.id, 'command', 'esc')]);
    }, REPLAY_TIMEOUT_MS);

    it('bash-reject-reason: Down to No, Tab, a typed reason, Enter: trigger tab, the reason inline from the transcript', async () => {
      const r = await replay('bash-reject-reason');
      expect(decisions(r)).toEqual([rejection(r.calls[0]!.id, 'command', 'tab', 'inline', 'please use printf instead')]);
    }, REPLAY_TIMEOUT_MS);

    it('bash-reject-reason-discarded: Tab, typed text, Esc: a rejection saying a reason was typed inline, without it', async () => {
      const r = await replay('bash-reject-reason-discarded');
      expect(decisions(r)).toEqual([rejection(r.calls[0]!.id, 'command', 'esc', 'inline', null)]);
    }, REPLAY_TIMEOUT_MS);

    it('ctrlc-at-prompt: Ctrl+C at the prompt records nothing; the Esc after it rejects', async () => {
      const r = await replay('ctrlc-at-prompt');
      expect(decisions(r)).toEqual([rejection(r.calls[0]!.id, 'command', 'esc')]);
    }, REPLAY_TIMEOUT_MS);

    it('deny-rule: refused by a permission rule, no prompt: decided by the rule', async () => {
      const r = await replay('deny-rule');
      expect(prompts(r)).toEqual([]);
      expect(decisions(r)).toEqual([{ ...rejection(r.calls[0]!.id, 'permission', 'rule'), decided_by: 'rule', option_label: null }]);
    }, REPLAY_TIMEOUT_MS);

    it('edit-reject: the Edit prompt (after an auto-allowed Read) rejected with 3', async () => {
      const r = await replay('edit-reject');
      const edit = r.calls.find((c) => c.name === 'Edit')!;
      expect(prompts(r)).toEqual([expect.objectContaining({ kind: 'edit', call_id: edit.id, prompt: expect.objectContaining({ title: 'Edit file' }) })]);
      expect(decisions(r)).toEqual([rejection(edit.id, 'edit', 'digit')]);
    }, REPLAY_TIMEOUT_MS);

    it('parallel-second-rejected: the first approved, Esc on the second: it is the rejection, the third is skipped because of it', async () => {
      const r = await replay('parallel-second-rejected');
      const [first, second, third] = r.calls.map((c) => c.id);
      expect(decisions(r)).toEqual([
        approval(first!, 'digit', 'Yes', 'once'),
        rejection(second!, 'command', 'esc'),
        { ...base, type: 'skipped', kind: 'command', call_id: third!, related_call_id: second!, decided_by: null, ran: 'no' },
      ]);
    }, REPLAY_TIMEOUT_MS);

    it('resize-at-prompt: the prompt redrawn at 80x30 is the same prompt; Esc rejects it', async () => {
      const r = await replay('resize-at-prompt');
      expect(prompts(r)).toHaveLength(1);
      expect(decisions(r)).toEqual([rejection(r.calls[0]!.id, 'command', 'esc')]);
    }, REPLAY_TIMEOUT_MS);

    it('sleep-esc-running: approved, then Esc while it runs: the approval and an interruption of kind tool, no rejection; the Ctrl+C at idle after it records nothing', async () => {
      const r = await replay('sleep-esc-running');
      const [call] = r.calls.map((c) => c.id);
      expect(decisions(r)).toEqual([
        approval(call!, 'digit', 'Yes', 'once'),
        { ...base, type: 'interruption', kind: 'tool', trigger: 'esc', call_id: call!, related_call_id: call! },
      ]);
      expect(r.events.find((e) => e.type === 'interruption')!.native).toMatchObject({ toolDenialKind: 'user-rejected', turn_aborted: '[Request interrupted by user for tool use]' });
    }, REPLAY_TIMEOUT_MS);

    it('slowtext-esc: Esc while the answer streams: kind response, pointing at the partial message Claude kept', async () => {
      const r = await replay('slowtext-esc');
      expect(decisions(r)).toEqual([{ ...base, type: 'interruption', kind: 'response', trigger: 'esc' }]);
      expect(r.events[0]!.native).toMatchObject({ turn_aborted: '[Request interrupted by user]', isAbortedMidStream: true, interruptedMessageId: expect.stringMatching(/^msg_/) });
    }, REPLAY_TIMEOUT_MS);

    it("subagent-bash-esc: Esc at the subagent's Bash prompt, read live from subagents/: a rejection of the subagent's own call with its words; the Agent call is neither skipped nor interrupted", async () => {
      const r = await replay('subagent-bash-esc');
      const agent = r.calls.find((c) => c.name === 'Agent')!;
      expect(r.subagentCalls.map((c) => c.name)).toEqual(['Bash']);
      const bash = r.subagentCalls[0]!;
      expect(prompts(r)).toEqual([expect.objectContaining({ kind: 'command', call_id: bash.id, tool_name: 'Bash', prompt: expect.objectContaining({ title: 'Bash command · from the general-purpose agent' }) })]);
      expect(decisions(r)).toEqual([rejection(bash.id, 'command', 'esc')]);
      const rejected = r.events.find((e) => e.type === 'rejection')!;
      // The subagent's id is the recording's own (its transcript's file name, agent-<id>.jsonl).
      const [subagentFile] = Object.keys(r.subagentLines);
      expect(rejected.native).toMatchObject({
        agent_id: /^agent-(\w+)\.jsonl$/.exec(subagentFile!)![1],
        parent_call_id: agent.id,
        toolDenialKind: 'user-rejected',
        output: expect.stringMatching(/^Permission for this tool use was denied\./),
      });
      expect(rejected.evidence).toContain('session_file');
      // Every line of both transcripts is kept, each under its own file.
      expect(r.agentRecordsByFile).toEqual({ [`${r.sessionId}.jsonl`]: r.transcriptLines, ...r.subagentLines });
    }, REPLAY_TIMEOUT_MS);

    it('slowtool-esc: Esc while a tool call streams: kind response (Claude drops the partial call: no id anywhere)', async () => {
      const r = await replay('slowtool-esc');
      expect(r.calls).toEqual([]);
      expect(decisions(r)).toEqual([{ ...base, type: 'interruption', kind: 'response', trigger: 'esc' }]);
    }, REPLAY_TIMEOUT_MS);
  });

  // The same decisions drawn by the inline renderer the user may pick (recorded-inline/, `--settings
  // '{"tui":"default"}'`): the normal screen, the live area erased and rewritten line by line.
  describe(`claude ${version}, 120x40, inline renderer (tui default), recorded sessions replayed through the recorder${label}`, () => {
    const replay = (name: string) => replayRecorded(name, { dir: inline, ...options });

    it('inline-bash-approve-once: 1 approves once', async () => {
      const r = await replay('inline-bash-approve-once');
      expect(prompts(r)).toEqual([expect.objectContaining({ kind: 'command', call_id: r.calls[0]!.id, tool_name: 'Bash' })]);
      expect(decisions(r)).toEqual([approval(r.calls[0]!.id, 'digit', 'Yes', 'once')]);
      expect(r.finalScreen.alternate).toBe(false);
    }, REPLAY_TIMEOUT_MS);

    it('inline-bash-reject-digit: 4 rejects (No)', async () => {
      const r = await replay('inline-bash-reject-digit');
      expect(decisions(r)).toEqual([rejection(r.calls[0]!.id, 'command', 'digit')]);
    }, REPLAY_TIMEOUT_MS);

    it('inline-bash-reject-esc: Esc rejects with no option', async () => {
      const r = await replay('inline-bash-reject-esc');
      expect(decisions(r)).toEqual([rejection(r.calls[0]!.id, 'command', 'esc')]);
    }, REPLAY_TIMEOUT_MS);

    it('inline-bash-reject-reason: Down to No, Tab, a typed reason, Enter: trigger tab, the reason inline', async () => {
      const r = await replay('inline-bash-reject-reason');
      expect(decisions(r)).toEqual([rejection(r.calls[0]!.id, 'command', 'tab', 'inline', 'please use printf instead')]);
    }, REPLAY_TIMEOUT_MS);

    it('inline-bash-reject-reason-discarded: Tab, typed text, Esc: a rejection saying a reason was typed inline, without it', async () => {
      const r = await replay('inline-bash-reject-reason-discarded');
      expect(decisions(r)).toEqual([rejection(r.calls[0]!.id, 'command', 'esc', 'inline', null)]);
    }, REPLAY_TIMEOUT_MS);

    it('inline-edit-reject: the Edit prompt (its diff drawn as `…` at first) rejected with 3', async () => {
      const r = await replay('inline-edit-reject');
      const edit = r.calls.find((c) => c.name === 'Edit')!;
      expect(prompts(r)).toEqual([expect.objectContaining({ kind: 'edit', call_id: edit.id, prompt: expect.objectContaining({ title: 'Edit file' }) })]);
      expect(decisions(r)).toEqual([rejection(edit.id, 'edit', 'digit')]);
    }, REPLAY_TIMEOUT_MS);

    it('inline-sleep-esc-running: approved, then Esc while it runs: the approval and an interruption of kind tool', async () => {
      const r = await replay('inline-sleep-esc-running');
      const [call] = r.calls.map((c) => c.id);
      expect(decisions(r)).toEqual([
        approval(call!, 'digit', 'Yes', 'once'),
        { ...base, type: 'interruption', kind: 'tool', trigger: 'esc', call_id: call!, related_call_id: call! },
      ]);
    }, REPLAY_TIMEOUT_MS);

    it('inline-parallel-second-rejected: the first approved, Esc on the second: the rejection, the third skipped because of it', async () => {
      const r = await replay('inline-parallel-second-rejected');
      const [first, second, third] = r.calls.map((c) => c.id);
      expect(decisions(r)).toEqual([
        approval(first!, 'digit', 'Yes', 'once'),
        rejection(second!, 'command', 'esc'),
        { ...base, type: 'skipped', kind: 'command', call_id: third!, related_call_id: second!, decided_by: null, ran: 'no' },
      ]);
    }, REPLAY_TIMEOUT_MS);

    it('inline-slowtext-esc: Esc while the answer streams: kind response; the partial text shown is the start of what Claude kept', async () => {
      const r = await replay('inline-slowtext-esc');
      expect(decisions(r)).toEqual([{ ...base, type: 'interruption', kind: 'response', trigger: 'esc' }]);
      expect(r.events[0]!.native).toMatchObject({ isAbortedMidStream: true });
    }, REPLAY_TIMEOUT_MS);
  });
}

// A take of resize-at-prompt recorded on a heavily loaded machine (2.1.332 only): Claude stamped the
// prompt's line 2.3 to 3.3 s after its Enter, the 80x30 redraw was still coming in when Esc was sent,
// and the refusal's line came after the Esc by less than the time Claude took to redraw. The transcript
// is placed on the cast's clock by the refusal (test/support/claude/recordedRun.ts, MAX_PROMPT_LINE_LAG_MS); placed
// 2.2 s too early, it would be read before the prompt it refuses was drawn.
for (const lag of LAGGING_TRANSCRIPT_MS) {
  describe(`claude 2.1.332, 120x40, a take recorded under heavy load, transcript written ${lag} ms late`, () => {
    it('resize-at-prompt-loaded: the Esc at the prompt redrawn at 80x30 rejects the call, once, with its id', async () => {
      const r = await replayRecorded('resize-at-prompt-loaded', { dir: join(fixturesDir('claude', '2.1.332'), 'recorded'), fileLagMs: lag });
      expect(prompts(r)).toEqual([expect.objectContaining({ kind: 'command', call_id: r.calls[0]!.id, tool_name: 'Bash' })]);
      expect(decisions(r)).toEqual([rejection(r.calls[0]!.id, 'command', 'esc')]);
      // One rejection in merge and stats: the sidecar's row and the transcript's refusal are one entry.
      expect(r.journey.stats.rejections).toMatchObject({ total: 1, by_trigger: [{ key: 'esc', count: 1 }] });
    }, REPLAY_TIMEOUT_MS);
  });
}

// At 80 columns Claude draws a command that wraps with a `│ ` gutter on every row of the body; the
// gutter is not part of the command, and the call is tied by the command alone.
describe('claude 2.1.332, 80x24, a long node -e command wrapped over three rows of the Bash prompt', () => {
  it('bash-long-wrap-approve: 1 approves the call the wrapped prompt shows, with its id and input', async () => {
    const r = await replayRecorded('bash-long-wrap-approve', { dir: join(fixturesDir('claude', '2.1.332'), 'recorded') });
    const call = r.calls[0]!;
    expect(prompts(r)).toEqual([expect.objectContaining({ kind: 'command', call_id: call.id, tool_name: 'Bash', tool_input: expect.objectContaining({ command: expect.stringMatching(/^node -e "/) }) })]);
    expect(decisions(r)).toEqual([approval(call.id, 'digit', 'Yes', 'once')]);
    expect(r.events.filter((e) => e.type === 'approval')).toEqual([expect.objectContaining({ tool_input: expect.objectContaining({ command: expect.stringMatching(/^node -e "/) }) })]);
    // merge ties the approval to the call: the call has its fate.
    expect(r.journey.merged.flatMap((m) => m.calls).find((c) => c.call_id === call.id)?.fate).toBe('ran');
  }, REPLAY_TIMEOUT_MS);
});
