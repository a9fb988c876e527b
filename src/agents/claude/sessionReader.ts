// `rec merge`'s reader of Claude Code transcripts. The schema and the rules that read meaning out of
// a record (what a tool_result says happened) are sessionRecords.ts, shared with the live
// recorder. What the file alone cannot tell is marked undetermined: No vs Esc, Esc vs Ctrl+C, and a
// refused call vs the siblings cancelled with it (told apart here by batch order).
import { toRejectionKind } from '../../readers/action.js';
import { CLAUDE_TOOLS } from './tools.js';
import type { ToolCall, ToolResult } from '../../readers/conversation.js';
import { isVerifiedVersion, newestVerified, unverifiedVersionText } from '../verifiedVersions.js';
import { CLAUDE_VERSIONS } from './strings/index.js';
import {
  emptyFinding,
  isObject,
  SessionBuilder,
  str,
  type NativeFinding,
  type NativeSession,
  type SessionReader,
} from '../../readers/nativeSession.js';
import { interruptMarker, resultText, isSubagentTool, judgeResult, KNOWN_OTHER_TYPES, SKIPPED_LINE, toClaudeLine, type ClaudeLine } from './sessionRecords.js';

export class ClaudeTranscriptReader implements SessionReader {
  private readonly _b: SessionBuilder;
  private _versionChecked = false;
  /** Rejections that may instead be siblings cancelled with the rejected call (resolved in finish). */
  private readonly _beforeRun: NativeFinding[] = [];

  constructor(file: string, subagent: { agent_id: string | null; parent_call_id: string | null } | null = null) {
    this._b = new SessionBuilder('claude', file);
    this._b.session.subagent = subagent;
  }

  quickLine(text: string): boolean {
    if (text.charCodeAt(text.length - 1) !== 0x7d) return false;
    const key = SKIPPED_LINE.exec(text.slice(0, 40))?.[1];
    if (key === undefined) return false;
    this._b.count(key);
    return true;
  }

  add(record: unknown, lineNo: number, raw: string): void {
    const type = isObject(record) ? str(record['type']) : null;
    if (type !== 'user' && type !== 'assistant') {
      if (type !== null && KNOWN_OTHER_TYPES.has(type)) this._b.count(type);
      else this._b.keepUnknown(type ?? '(untyped)', lineNo, raw);
      return;
    }
    const parsed = toClaudeLine(record as Record<string, unknown>);
    if (!parsed.ok) {
      this._b.diag('warning', 'invalid_record', `${type}: ${parsed.issue}`, lineNo);
      return;
    }
    const line = parsed.line;
    this._b.count(type);
    this._meta(line, lineNo);
    if (type === 'assistant') this._assistant(line, lineNo);
    else this._user(line, lineNo);
  }

  private _meta(line: ClaudeLine, lineNo: number): void {
    const s = this._b.session;
    this._b.seeTimestamp(line.timestamp);
    s.session_id ??= line.sessionId ?? null;
    s.cwd ??= line.cwd ?? null;
    if (s.subagent && s.subagent.agent_id === null && line.agentId) s.subagent.agent_id = line.agentId;
    if (!this._versionChecked && line.version) {
      this._versionChecked = true;
      s.agent_version = line.version;
      if (!isVerifiedVersion(CLAUDE_VERSIONS, line.version)) {
        const as = newestVerified(CLAUDE_VERSIONS).version;
        this._b.diag('warning', 'unknown_version', `${unverifiedVersionText('claude', line.version, CLAUDE_VERSIONS)}; read as ${as}`, lineNo);
      }
    }
  }

  private _assistant(line: ClaudeLine, lineNo: number): void {
    const content = typeof line.message.content === 'string' ? [{ type: 'text', text: line.message.content }] : line.message.content;
    const texts: string[] = [];
    const calls: ToolCall[] = [];
    for (const block of content) {
      if (!isObject(block)) continue;
      if (block['type'] === 'text' && typeof block['text'] === 'string') texts.push(block['text']);
      else if (block['type'] === 'tool_use' && typeof block['id'] === 'string') {
        calls.push({ call_id: block['id'], tool_name: str(block['name']) ?? '(unknown)', tool_input: block['input'] ?? null });
      }
    }
    const id = line.message.id ?? null;
    const last = this._b.lastMessage();
    // One API message is written as one line per content block: join them back.
    if (last && id !== null && last.role === 'assistant' && last.native_id === id) {
      if (texts.length > 0) last.text = last.text === null ? texts.join('\n') : `${last.text}\n${texts.join('\n')}`;
      for (const c of calls) {
        last.tool_calls.push(c);
        this._b.addCall(c, last.index);
      }
      return;
    }
    this._b.addMessage({
      role: 'assistant',
      text: texts.length > 0 ? texts.join('\n') : null,
      tool_calls: calls,
      timestamp: line.timestamp ?? null,
      native_id: id,
      line: lineNo,
    });
  }

  private _user(line: ClaudeLine, lineNo: number): void {
    const ts = line.timestamp ?? null;
    if (typeof line.message.content === 'string') {
      this._b.addMessage({ role: 'user', text: line.message.content, timestamp: ts, native_id: line.uuid ?? null, line: lineNo });
      return;
    }
    const texts: string[] = [];
    const results: ToolResult[] = [];
    for (const block of line.message.content) {
      if (!isObject(block)) continue;
      if (block['type'] === 'text' && typeof block['text'] === 'string') texts.push(block['text']);
      else if (block['type'] === 'tool_result' && typeof block['tool_use_id'] === 'string') {
        results.push({ call_id: block['tool_use_id'], output: resultText(block['content']), is_error: block['is_error'] === true });
      }
    }
    if (results.length > 0) {
      const m = this._b.addMessage({
        role: 'tool',
        text: texts.length > 0 ? texts.join('\n') : null,
        tool_results: results,
        timestamp: ts,
        native_id: line.uuid ?? null,
        line: lineNo,
      });
      for (const r of results) this._judgeResult(line, r, m.index);
      return;
    }
    const text = texts.join('\n');
    const marker = text.trim();
    const interrupt = interruptMarker(marker);
    const synthetic = interrupt !== undefined || marker.startsWith('<task-notification>');
    const m = this._b.addMessage({ role: 'user', text, timestamp: ts, native_id: line.uuid ?? null, synthetic, line: lineNo });
    if (interrupt === 'response') {
      const cut = line.interruptedMessageId
        ? this._b.session.messages.find((x) => x.role === 'assistant' && x.native_id === line.interruptedMessageId)
        : undefined;
      this._b.addFinding({
        ...emptyFinding('interruption'),
        message_index: m.index,
        interrupted_message_index: cut?.index ?? null,
        kind: 'response',
        partial_output: cut?.text ?? null,
        timestamp: ts,
        native: { text: marker, interruptedMessageId: line.interruptedMessageId ?? null },
        // Esc and Ctrl+C while streaming write the same lines.
        undetermined: ['trigger'],
      });
    }
  }

  private _judgeResult(line: ClaudeLine, result: ToolResult, resultIndex: number): void {
    const b = this._b;
    const call = b.call(result.call_id);
    const toolName = call?.tool_name ?? null;
    const pd = line.permissionDecision;
    const base: NativeFinding = {
      ...emptyFinding('rejection'),
      call_id: result.call_id,
      message_index: call?.message_index ?? resultIndex,
      timestamp: line.timestamp ?? null,
      native: compact({
        toolDenialKind: line.toolDenialKind,
        toolDenialBeforeRun: line.toolDenialBeforeRun,
        permissionDecision: pd,
        userFeedback: line.userFeedback,
        content: result.output,
      }),
    };
    const rejectionKind = () => toRejectionKind(CLAUDE_TOOLS, toolName);
    const verdict = judgeResult(line, { toolUseId: result.call_id, output: result.output, isError: result.is_error }, toolName);
    switch (verdict.type) {
      case 'approved':
        // The evidence of an approval is the decision; the tool's output (already in the message's
        // tool_results) would only repeat every approved call's output in the merged session.
        b.addFinding({ ...base, type: 'approval', native: { permissionDecision: pd }, decided_by: verdict.decidedBy, scope: verdict.scope, ran: 'yes', undetermined: ['trigger'] });
        if (call) {
          call.fate = 'ran';
          call.output_seen = true;
        }
        return;
      case 'refused':
        b.addFinding({
          ...base,
          kind: rejectionKind(),
          decided_by: verdict.decidedBy,
          reason: verdict.reason,
          reason_source: verdict.reason !== null ? 'inline' : 'none',
          ran: 'no',
          undetermined: ['trigger'],
        });
        return;
      case 'refused_before_run': {
        const f: NativeFinding = {
          ...base,
          kind: rejectionKind(),
          decided_by: 'user',
          reason_source: 'none',
          ran: 'no',
          undetermined: verdict.textOnly ? ['type', 'trigger'] : ['trigger'],
        };
        b.addFinding(f);
        this._beforeRun.push(f);
        return;
      }
      case 'interrupted_running':
        // Written as a rejection after it started: the user interrupted a running call (Esc or Ctrl+C).
        b.addFinding({
          ...base,
          type: 'interruption',
          kind: line.toolDenialKind === 'user-rejected' && isSubagentTool(toolName) ? 'subagent' : 'tool',
          ran: 'yes',
          undetermined: ['trigger', 'partial_output'],
        });
        return;
      case 'refused_in_subagent':
        b.addFinding({ ...base, kind: rejectionKind(), decided_by: 'user', reason_source: 'none', ran: 'no', undetermined: ['trigger'] });
        return;
      case 'denied_by_policy':
        b.addFinding({ ...base, kind: 'permission', decided_by: verdict.decidedBy, reason_source: 'none', ran: 'no' });
        return;
      case 'refused_by_reviewer':
        b.addFinding(reviewerRefusal(base, rejectionKind(), verdict));
        return;
      case 'ran':
        if (call) {
          call.fate = 'ran';
          call.output_seen = true;
        }
        return;
    }
  }

  finish(): NativeSession {
    // Parallel calls are prompted one at a time, in order; when one is refused, the ones not yet
    // prompted get byte-identical lines with the same timestamp. The first of such a group is the
    // refused call, the rest were skipped because of it.
    const groups = new Map<string, NativeFinding[]>();
    for (const f of this._beforeRun) {
      const key = `${f.message_index}|${f.timestamp}`;
      const g = groups.get(key);
      if (g) g.push(f);
      else groups.set(key, [f]);
    }
    for (const g of groups.values()) {
      const first = g[0]!;
      for (const f of g.slice(1)) {
        f.type = 'skipped';
        f.related_call_id = first.call_id;
        f.kind = null;
        f.decided_by = null;
        f.reason_source = null;
        f.undetermined = ['type'];
      }
    }
    return this._b.session;
  }
}

function compact(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out;
}

/** Auto mode's classifier refused the call: no person, no prompt, no key; its explanation is the reason. */
function reviewerRefusal(base: NativeFinding, kind: NativeFinding['kind'], verdict: { readonly review: string; readonly reason: string | null }): NativeFinding {
  return {
    ...base,
    kind,
    decided_by: 'reviewer',
    reason: verdict.reason,
    reason_source: verdict.reason !== null ? 'reviewer' : 'none',
    ran: 'no',
    native: { ...(base.native as object), review: verdict.review },
  };
}
