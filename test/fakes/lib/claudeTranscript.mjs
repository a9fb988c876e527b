// @ts-check
// Writes a Claude Code 2.1.328 transcript (~/.claude/projects/<cwd slug>/<sessionId>.jsonl) in the
// shapes of /work/shared/agents/claude/samples/transcript/*.jsonl: one line per content block and
// per tool result, appended as things happen.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { hex } from './ids.mjs';
import { appendJsonLine } from './jsonl.mjs';
import { AGENT_VERSION, transcript as T } from './claudeStrings.mjs';

/** Claude's project folder name: the cwd with every non-alphanumeric character turned into `-`. */
export const projectSlug = (cwd) => cwd.replace(/[^a-zA-Z0-9]/g, '-');

export class ClaudeTranscript {
  /** @param {{ cwd: string, sessionId?: string, home?: string }} opts */
  constructor({ cwd, sessionId = randomUUID(), home = homedir() }) {
    this.cwd = cwd;
    this.sessionId = sessionId;
    this.path = join(home, '.claude', 'projects', projectSlug(cwd), `${sessionId}.jsonl`);
    this._parent = null;
    this._prompts = 0;
  }

  _base() {
    return { parentUuid: this._parent, isSidechain: false, cwd: this.cwd, sessionId: this.sessionId, version: AGENT_VERSION };
  }

  _write(rec) {
    const uuid = randomUUID();
    appendJsonLine(this.path, { ...this._base(), ...rec, uuid, timestamp: new Date().toISOString() });
    this._parent = uuid;
    return uuid;
  }

  _assistantBlock(turn, block, index, stopReason = 'tool_use') {
    return this._write({
      message: { id: turn.messageId, type: 'message', role: 'assistant', model: T.model, content: [block], stop_reason: stopReason, stop_sequence: null, usage: { input_tokens: 100, output_tokens: 20 }, stop_details: null },
      apiBlockIndex: index, requestId: `req_${hex(16)}`, type: 'assistant',
    });
  }

  userPrompt(text) {
    this._prompts++;
    const turn = { promptId: randomUUID(), messageId: `msg_${hex(16)}`, startedAt: Date.now() };
    this._write({ promptId: turn.promptId, type: 'user', message: { role: 'user', content: text }, permissionMode: 'default', origin: { kind: 'human' }, promptSource: 'typed', turnOrigin: 'human', turnPosition: { promptIndex: this._prompts, turnIndex: this._prompts } });
    return turn;
  }

  proposed(turn, calls, preface) {
    let index = 0;
    if (preface) this._assistantBlock(turn, { type: 'text', text: preface }, index++);
    for (const call of calls) {
      call.id ??= `toolu_${hex(20)}`;
      const name = T.toolNames[call.tool];
      const input = call.tool === 'shell' ? { command: call.command, description: call.description ?? '' }
        : call.tool === 'write' ? { file_path: call.path, content: call.content ?? '' }
          : { file_path: call.path, old_string: call.oldString ?? '', new_string: call.newString ?? '' };
      call.assistantUuid = this._assistantBlock(turn, { type: 'tool_use', id: call.id, name, input }, index++);
    }
  }

  callResolved(turn, call) {
    const o = call.outcome;
    const common = { promptId: turn.promptId, type: 'user', sourceToolAssistantUUID: call.assistantUuid };
    const result = (content, isError, extraBlocks = []) => ({ role: 'user', content: [{ type: 'tool_result', content, is_error: isError, tool_use_id: call.id }, ...extraBlocks] });
    if (o.status === 'success') {
      const out = call.tool === 'shell' ? (o.output.trim() === '' ? T.noOutput : o.output.replace(/\n$/, '')) : o.output;
      this._write({
        ...common,
        message: result(out, false, o.feedback ? [{ type: 'text', text: o.feedback }] : []),
        toolUseResult: call.tool === 'shell' ? { stdout: o.output, stderr: '', interrupted: false, isImage: false, noOutputExpected: false } : { type: 'create', filePath: call.path },
        permissionDecision: { decision: 'accept', source: 'user_temporary', grantScope: o.option?.scope === 'once' ? 'once' : 'session', reasonCode: 'unknown' },
      });
    } else if (o.status === 'reason') {
      const text = T.rejectWithReason(o.reason);
      this._write({ ...common, message: result(text, true), toolUseResult: `Error: ${text}`, toolDenialKind: 'user-rejected', permissionDecision: { decision: 'reject', source: 'user_reject', reasonCode: 'unknown' }, userFeedback: o.reason, holdsPersonsWords: true });
    } else if (o.status === 'interrupted') {
      this._write({ ...common, message: result(T.rejectStop, true), toolUseResult: T.userRejected, toolDenialKind: 'user-rejected' });
      turn.interruptedMessageId = turn.messageId;
    } else {
      // denied at the prompt, or a sibling never prompted: byte-identical records (README §2).
      this._write({ ...common, message: result(T.rejectStop, true), toolUseResult: T.userRejected, toolDenialKind: 'user-rejected', toolDenialBeforeRun: true });
    }
  }

  batchResolved(turn, calls, { aborted }) {
    if (!aborted) return;
    this._write({ promptId: turn.promptId, type: 'user', message: { role: 'user', content: [{ type: 'text', text: T.interruptedForTool }] }, ...(turn.interruptedMessageId ? { interruptedMessageId: turn.interruptedMessageId } : {}) });
  }

  streamCut(turn, partial) {
    this._write({ message: { id: turn.messageId, type: 'message', role: 'assistant', model: T.model, content: [{ type: 'text', text: partial }], stop_reason: null, stop_sequence: null, usage: { input_tokens: 100, output_tokens: 5 } }, apiBlockIndex: 0, type: 'assistant', isAbortedMidStream: true });
    this._write({ promptId: turn.promptId, type: 'user', message: { role: 'user', content: [{ type: 'text', text: T.interrupted }] }, interruptedMessageId: turn.messageId });
  }

  answer(turn, text) {
    const id = `msg_${hex(16)}`;
    this._write({ message: { id, type: 'message', role: 'assistant', model: T.model, content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 100, output_tokens: 20 }, stop_details: null }, apiBlockIndex: 0, type: 'assistant' });
    this._write({ type: 'system', subtype: 'turn_duration', durationMs: Date.now() - turn.startedAt, isMeta: false });
  }

  exit() {}
}
