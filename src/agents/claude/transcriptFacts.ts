// Claude's transcript lines translated into session facts: the session and the version, tool calls
// and their results (by the rule merge uses, sessionRecords.ts judgeResult), turns and their ends,
// and a subagent's transcript lines marked with the subagent.
import type { SessionFact } from '../common/agentProfile.js';
import type { ClaudeFactContext } from './factContext.js';
import { localAllowRule } from './permissionRules.js';
import {
  interruptMarker,
  isSubagentTool,
  judgeResult,
  parseTranscriptLine,
  textsOf,
  toolResultsOf,
  toolUsesOf,
  type ClaudeLine,
  type ToolResultBlock,
} from './sessionRecords.js';

export class TranscriptFacts {
  private _versionSaid = false;
  /** The message id of the latest batch of tool calls. */
  private _lastBatch: string | undefined;
  /** Messages whose end of turn was read (each content block repeats the message's stop_reason). */
  private readonly _ended = new Set<string>();
  private readonly _toolNames = new Map<string, string>();
  private readonly _toolInputs = new Map<string, unknown>();
  /** The message Claude cut mid-stream and kept (isAbortedMidStream). */
  private _abortedMidStream: string | undefined;

  constructor(private readonly _shared: ClaudeFactContext) {}

  translate(text: string, file?: string): SessionFact[] {
    const line = parseTranscriptLine(text);
    if (!line) return [];
    if (file !== undefined) return this._subagentRecord(line, file);
    // Sidechain lines are a subagent's: read from its own file (companionFiles), not here.
    if (line.isSidechain === true) return [];
    const facts = this._sessionFacts(line);
    if (line.type === 'assistant') return [...facts, ...this._assistant(line)];
    return [...facts, ...this._user(line)];
  }

  /**
   * A line of a subagent's transcript: its calls and their results, marked with the subagent; its
   * prompt, answers and end of turn are the subagent's own, not the main thread's turn.
   */
  private _subagentRecord(line: ClaudeLine, file: string): SessionFact[] {
    const uses = line.type === 'assistant' ? toolUsesOf(line) : [];
    const results = line.type === 'user' ? toolResultsOf(line) : [];
    if (uses.length === 0 && results.length === 0) return [];
    const native = this._shared.subagents.fileNative(file, line.agentId);
    const facts: SessionFact[] = [];
    for (const use of uses) {
      const toolName = use.name ?? 'unknown';
      this._toolNames.set(use.id, toolName);
      if (native.agent_id !== undefined) this._shared.subagents.addCall(use.id, String(native.agent_id));
      // Its own batch (its message id): a refusal in it never makes the main thread's calls skipped.
      facts.push({ type: 'call', callId: use.id, toolName, toolInput: use.input, ...(line.message.id !== undefined ? { turnId: line.message.id } : {}), source: 'session_file', native });
    }
    for (const r of results) facts.push(...this._result(line, r, native));
    return facts;
  }

  private _sessionFacts(line: ClaudeLine): SessionFact[] {
    const version = !this._versionSaid ? line.version : undefined;
    const sessionId = !this._shared.sessionSaid ? line.sessionId : undefined;
    if (version === undefined && sessionId === undefined) return [];
    if (version !== undefined) this._versionSaid = true;
    if (sessionId !== undefined) this._shared.sessionSaid = true;
    return [{ type: 'session', ...(sessionId !== undefined ? { sessionId } : {}), ...(version !== undefined ? { version } : {}) }];
  }

  private _assistant(line: ClaudeLine): SessionFact[] {
    const id = line.message.id;
    if (line.isAbortedMidStream === true && id !== undefined) this._abortedMidStream = id;
    const facts: SessionFact[] = [];
    for (const use of toolUsesOf(line)) {
      const toolName = use.name ?? 'unknown';
      this._toolNames.set(use.id, toolName);
      this._toolInputs.set(use.id, use.input);
      if (id !== undefined) this._lastBatch = id;
      facts.push({ type: 'call', callId: use.id, toolName, toolInput: use.input, ...(id !== undefined ? { turnId: id } : {}), source: 'session_file' });
    }
    const stop = line.message.stop_reason;
    if (stop && stop !== 'tool_use' && id !== undefined && !this._ended.has(id)) {
      this._ended.add(id);
      facts.push({ type: 'turn_completed', source: 'session_file' });
    }
    return facts;
  }

  private _user(line: ClaudeLine): SessionFact[] {
    const results = toolResultsOf(line);
    if (results.length > 0) return results.flatMap((r) => this._result(line, r));
    const text = textsOf(line).join('\n');
    const marker = interruptMarker(text, this._shared.strings());
    const cut = line.interruptedMessageId;
    if (marker === 'tool') {
      const turnId = cut ?? this._lastBatch;
      return [{ type: 'turn_aborted', ...(turnId !== undefined ? { turnId } : {}), reason: text.trim(), ...(cut ? { native: { interruptedMessageId: cut } } : {}) }];
    }
    if (marker === 'response') {
      // Claude keeps the partial answer in the transcript (isAbortedMidStream): the event points at it.
      const native = cut ? { interruptedMessageId: cut, ...(this._abortedMidStream === cut ? { isAbortedMidStream: true } : {}) } : undefined;
      return [{ type: 'turn_aborted', reason: text.trim(), ...(native ? { native } : {}) }];
    }
    if (text.trim() === '' || this._shared.strings().harnessText.test(text)) return [];
    return [
      // The turn's id only: whether a turn works is the screen's to say (the transcript trails the
      // screen; an idle input prompt with the interrupt marker not read yet is not a working turn).
      { type: 'turn_started', ...(line.uuid !== undefined ? { turnId: line.uuid } : {}), source: 'session_file', endMarked: false },
      { type: 'user_message', text, source: 'session_file' },
    ];
  }

  /** The allow rule "don't ask again" wrote for the call's tool, when the local settings show it. */
  private _ruleWritten(callId: string): string | undefined {
    const toolName = this._toolNames.get(callId);
    if (toolName === undefined) return undefined;
    return localAllowRule(this._shared.cwd, toolName, this._toolInputs.get(callId)) ?? undefined;
  }

  /** What a tool_result says, by the rule merge uses too (sessionRecords.ts judgeResult). */
  private _result(line: ClaudeLine, result: ToolResultBlock, subagent: Record<string, unknown> = {}): SessionFact[] {
    const callId = result.toolUseId;
    const verdict = judgeResult(line, result, this._toolNames.get(callId) ?? null, this._shared.strings());
    const text = result.output ?? '';
    const native = compact({
      ...subagent,
      is_error: result.isError || undefined,
      toolDenialKind: line.toolDenialKind,
      toolDenialBeforeRun: line.toolDenialBeforeRun,
      permissionDecision: line.permissionDecision,
      permission_rule: verdict.type === 'approved' && verdict.scope === 'always' ? this._ruleWritten(callId) : undefined,
    });
    // `decision`: what a person decided at the prompt, as the transcript tells (a miss when rec saw no prompt).
    const output = (aborted: boolean, reason?: string | null, decision?: string): SessionFact => ({
      type: 'output',
      callId,
      text,
      aborted,
      ...(reason !== undefined && reason !== null ? { reason } : {}),
      ...(Object.keys(native).length ? { native } : {}),
      ...(decision !== undefined ? { decision } : {}),
    });
    switch (verdict.type) {
      case 'approved':
        // Auto mode's classifier let it run: the reviewer's approval, no person asked.
        if (verdict.decidedBy === 'reviewer') return [output(false), { type: 'reviewed', callId, outcome: 'allow', source: 'session_file' }];
        return [output(false, undefined, verdict.decidedBy === 'user' ? 'approved' : undefined)];
      case 'ran':
        return [output(false)];
      case 'refused':
        if (verdict.decidedBy === 'user') return [output(true, verdict.reason, 'rejected')];
        return [output(true), { type: 'refused', callId, decidedBy: verdict.decidedBy, trigger: verdict.decidedBy === 'hook' ? 'hook' : 'rule', source: 'session_file' }];
      case 'refused_before_run':
        return [output(true, undefined, 'rejected')];
      case 'refused_in_subagent':
        // The Agent call's result for a refusal inside its subagent: the subagent's own call carries the decision.
        return [output(true)];
      case 'interrupted_running':
        // Written as a rejection, but it had started: it ran (and was cut). Cutting an Agent call is
        // a subagent interruption, as merge says (sessionReader.ts).
        return [output(true), { type: 'ran', callId, source: 'session_file' }, { type: 'cut', callId, kind: isSubagentTool(this._toolNames.get(callId) ?? null) ? 'subagent' : 'tool' }];
      case 'refused_by_reviewer':
        return [
          output(true),
          { type: 'refused', callId, decidedBy: 'reviewer', ...(verdict.reason !== null ? { reason: verdict.reason } : {}), native: { review: verdict.review }, source: 'session_file' },
        ];
      case 'denied_by_policy':
        return [output(true), { type: 'refused', callId, decidedBy: verdict.decidedBy, trigger: verdict.decidedBy, kind: 'permission', source: 'session_file' }];
    }
  }
}

function compact(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out;
}
