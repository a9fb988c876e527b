// `rec merge`'s reader of GitHub Copilot CLI's events.jsonl. The schema and the rules that read
// meaning out of a line are sessionRecords.ts. What the file alone can tell (docs/copilot.md §3–§5):
// every decision at a prompt is a `permission.completed` naming its call, so approvals, refusals and
// their typed reasons are Copilot's own words; Esc and Ctrl+C at a prompt are byte-identical (the
// trigger stays undetermined), and so are Esc and "No (Esc)" at the path and URL prompts. Stopping
// at a prompt cancels every pending call of the batch, and only the prompt queue's order tells the
// one on screen from its unprompted siblings. A call approved and never completed before an `abort`
// was cut while it ran; an `abort` in a model call that wrote nothing cut a streamed answer, whose
// text the file does not keep.
import type { z } from 'zod';
import type { DecidedBy, EventKind } from '../../core/events.js';
import { toRejectionKind } from '../../readers/action.js';
import { emptyFinding, isObject, SessionBuilder, type NativeFinding, type NativeSession, type SessionReader } from '../../readers/nativeSession.js';
import {
  ABORT_USER_ABORT,
  ABORT_USER_INITIATED,
  COUNTED_HEAD,
  COUNTED_TYPES,
  completionText,
  ENVELOPE_TAIL,
  judgeDecision,
  READ_TYPES,
  rejectionKindOfRequest,
  ruleDenialOf,
  type PermissionCompleted,
  type ReadType,
  type ToolExecutionComplete,
} from './sessionRecords.js';
import { COPILOT_TOOLS } from './tools.js';

type Data<T extends ReadType> = z.infer<(typeof READ_TYPES)[T]>;

/** What the file has said so far about one call. */
interface CallState {
  /** Its prompts by requestId (a URL prompt and a shell prompt may ask about one call): kind and place in the queue. */
  readonly requests: Map<string, { readonly kind: string; readonly order: number }>;
  /** requestIds asked and not yet decided. */
  readonly open: Set<string>;
  started: boolean;
  completed: boolean;
  /** A refusal, a cancel or a cut was found for it: it did not run to its end. */
  stopped: boolean;
  approval: NativeFinding | null;
  /** Its refusal (a decision's or a rule's): the completion's error and the turn's abort are noted on it. */
  refusal: NativeFinding | null;
  /** Its interruption by an `abort`, until a completion after the abort shows it ran after all. */
  cut: NativeFinding | null;
}

/** A call whose prompt was cancelled ("Session aborted"), waiting for the `abort` that follows. */
interface Cancel {
  readonly callId: string;
  /** Its place in the prompt queue: the order of the requests (§4). */
  readonly order: number;
  readonly requestKind: string | null;
  readonly data: PermissionCompleted;
  readonly ts: string | null;
}

const USER_ABORTS: ReadonlySet<string> = new Set([ABORT_USER_INITIATED, ABORT_USER_ABORT]);

export class CopilotEventsReader implements SessionReader {
  private readonly _b: SessionBuilder;
  private readonly _calls = new Map<string, CallState>();
  /** The calls of the current user turn, in the order the model asked for them. */
  private _turnCalls: string[] = [];
  /** Whether the current model call wrote an assistant.message; null before any in this user turn. */
  private _modelCallWrote: boolean | null = null;
  private _cancels: Cancel[] = [];
  /** The last refusal in this user turn: the `abort` that ends the turn after it belongs to it. */
  private _lastRefusal: NativeFinding | null = null;
  private _requests = 0;

  constructor(file: string) {
    this._b = new SessionBuilder('copilot', file);
  }

  /** Bookkeeping lines counted from their text alone, with the same count and timestamp as parsed. */
  quickLine(text: string): boolean {
    const head = COUNTED_HEAD.exec(text.length > 80 ? text.slice(0, 80) : text);
    if (head === null) return false;
    const tail = ENVELOPE_TAIL.exec(text.length > 200 ? text.slice(-200) : text);
    if (tail === null) return false;
    this._b.seeTimestamp(tail[1]);
    this._b.count(head[1]!);
    return true;
  }

  add(record: unknown, lineNo: number, raw: string): void {
    const type = isObject(record) && typeof record['type'] === 'string' ? record['type'] : null;
    if (type === null || !isObject(record)) {
      this._b.keepUnknown('(untyped)', lineNo, raw);
      return;
    }
    const ts = typeof record['timestamp'] === 'string' ? record['timestamp'] : null;
    if (COUNTED_TYPES.has(type)) {
      this._b.seeTimestamp(ts);
      this._b.count(type);
      return;
    }
    if (!Object.hasOwn(READ_TYPES, type)) {
      this._b.keepUnknown(type, lineNo, raw);
      return;
    }
    const known = type as ReadType;
    const parsed = READ_TYPES[known].safeParse(record['data']);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = issue !== undefined && issue.path.length > 0 ? `.${issue.path.join('.')}` : '';
      this._b.diag('warning', 'invalid_record', `${known}: data${path} ${issue?.message ?? 'invalid'}`, lineNo);
      return;
    }
    this._b.seeTimestamp(ts);
    this._b.count(known);
    this._dispatch(known, parsed.data, ts, lineNo);
  }

  private _dispatch(type: ReadType, data: unknown, ts: string | null, lineNo: number): void {
    switch (type) {
      case 'session.start':
        return this._sessionStart(data as Data<'session.start'>);
      case 'session.resume': {
        const cwd = (data as Data<'session.resume'>).context?.cwd;
        this._b.session.cwd ??= cwd ?? null;
        return;
      }
      case 'user.message':
        return this._userMessage(data as Data<'user.message'>, ts, lineNo);
      case 'assistant.turn_start':
        this._modelCallWrote = false;
        return;
      case 'assistant.message':
        return this._assistantMessage(data as Data<'assistant.message'>, ts, lineNo);
      case 'tool.execution_start':
        this._state((data as Data<'tool.execution_start'>).toolCallId).started = true;
        return;
      case 'tool.execution_complete':
        return this._complete(data as ToolExecutionComplete, ts, lineNo);
      case 'permission.requested':
        return this._requested(data as Data<'permission.requested'>);
      case 'permission.completed':
        return this._decided(data as PermissionCompleted, ts);
      case 'abort':
        return this._closeTurn((data as Data<'abort'>).reason ?? null, ts);
    }
  }

  private _sessionStart(d: Data<'session.start'>): void {
    const s = this._b.session;
    // A resumed session appends to the same file: the first start names it.
    if (s.session_id !== null) return;
    s.session_id = d.sessionId;
    s.agent_version = d.copilotVersion ?? null;
    s.cwd = d.context?.cwd ?? s.cwd;
    if (d.startTime) this._b.seeTimestamp(d.startTime);
  }

  private _userMessage(d: Data<'user.message'>, ts: string | null, lineNo: number): void {
    // A turn the file left open (no abort after a cancel) is closed by the next prompt.
    this._closeTurn(null, null);
    this._turnCalls = [];
    this._modelCallWrote = null;
    this._lastRefusal = null;
    this._b.addMessage({ role: 'user', text: d.content, timestamp: ts, native_id: d.messageId ?? null, line: lineNo });
  }

  private _assistantMessage(d: Data<'assistant.message'>, ts: string | null, lineNo: number): void {
    this._modelCallWrote = true;
    const calls = (d.toolRequests ?? []).map((r) => ({ call_id: r.toolCallId, tool_name: r.name, tool_input: r.arguments ?? null }));
    const text = d.content !== undefined && d.content.length > 0 ? d.content : null;
    this._b.addMessage({ role: 'assistant', text, tool_calls: calls, timestamp: ts, native_id: d.messageId ?? null, line: lineNo });
    for (const c of calls) {
      this._state(c.call_id);
      this._turnCalls.push(c.call_id);
    }
  }

  private _state(callId: string): CallState {
    let s = this._calls.get(callId);
    if (!s) {
      s = { requests: new Map(), open: new Set(), started: false, completed: false, stopped: false, approval: null, refusal: null, cut: null };
      this._calls.set(callId, s);
    }
    return s;
  }

  private _requested(d: Data<'permission.requested'>): void {
    const callId = d.permissionRequest.toolCallId;
    if (callId === undefined) return;
    const s = this._state(callId);
    s.requests.set(d.requestId, { kind: d.permissionRequest.kind, order: this._requests++ });
    s.open.add(d.requestId);
  }

  private _decided(d: PermissionCompleted, ts: string | null): void {
    const callId = d.toolCallId;
    if (callId === undefined) return;
    const s = this._state(callId);
    const request = s.requests.get(d.requestId);
    const requestKind = request?.kind ?? null;
    s.open.delete(d.requestId);
    const decision = judgeDecision(d, requestKind);
    const native = { requestId: d.requestId, request: requestKind, result: d.result, decisionSource: d.decisionSource ?? null };
    const base = { ...emptyFinding(decision.type === 'approval' ? 'approval' : 'rejection'), call_id: callId, message_index: this._messageOf(callId), timestamp: ts };
    if (decision.type === 'cancelled') {
      // A cancel of a prompt the file never asked (a lost line) goes last in the queue.
      this._cancels.push({ callId, order: request?.order ?? Number.MAX_SAFE_INTEGER, requestKind, data: d, ts });
      return;
    }
    if (decision.type === 'approval') {
      // One approval per call, as the sidecar has it: a later prompt's answer (the shell prompt
      // after the URL prompt, §3) is the one that stood; every answer stays in `native`.
      const earlier = s.approval;
      const decisions = earlier ? [...(earlier.native as { decisions: unknown[] }).decisions, native] : [native];
      const f: NativeFinding = { ...base, decided_by: decision.decidedBy, scope: decision.scope, native: { decisions }, undetermined: undeterminedOf(['trigger'], decision.decidedBy, decision.scope !== null) };
      if (earlier) Object.assign(earlier, f);
      else this._b.addFinding((s.approval = f));
      return;
    }
    s.stopped = true;
    if (decision.type === 'unknown') {
      this._b.addFinding({ ...base, type: 'unknown', possible: ['rejection', 'skipped', 'ran'], ran: 'unknown', native, undetermined: ['type', 'kind', 'trigger', 'decided_by', 'ran'] });
      return;
    }
    const f: NativeFinding = {
      ...base,
      kind: this._kindOf(callId, requestKind),
      decided_by: decision.decidedBy,
      reason: decision.reason,
      reason_source: decision.reason !== null ? (decision.decidedBy === 'hook' ? 'hook' : 'inline') : 'none',
      ran: 'no',
      native,
      // A rule's or a hook's refusal is its own trigger; a person's key is not written.
      undetermined: undeterminedOf(decision.decidedBy === 'rule' || decision.decidedBy === 'hook' ? [] : ['trigger'], decision.decidedBy, true),
    };
    this._b.addFinding(f);
    this._lastRefusal = s.refusal = f;
  }

  private _complete(d: ToolExecutionComplete, ts: string | null, lineNo: number): void {
    const s = this._state(d.toolCallId);
    s.completed = true;
    const refused = d.success === false && (d.error?.code === 'denied' || d.error?.code === 'rejected');
    this._b.addMessage({ role: 'tool', tool_results: [{ call_id: d.toolCallId, output: completionText(d), is_error: d.success === false }], timestamp: ts, line: lineNo });
    if (s.cut !== null) {
      // Completed after the abort: an approved sibling that went on running (§4). It ran.
      this._b.session.findings.splice(this._b.session.findings.indexOf(s.cut), 1);
      s.cut = null;
      s.stopped = false;
    }
    if (refused) {
      // The refusal its permission.completed recorded: the error is what the model was told.
      const f = s.refusal;
      if (f === null) return this._unpromptedRefusal(d, ts);
      if (isObject(f.native)) f.native = { ...f.native, error: d.error };
      return;
    }
    const call = this._b.call(d.toolCallId);
    if (call) {
      call.fate = 'ran';
      call.output_seen = true;
    }
  }

  /** Refused with no decision event (and no prompt): a `--deny-tool` rule, told by its own words (§6). */
  private _unpromptedRefusal(d: ToolExecutionComplete, ts: string | null): void {
    const s = this._state(d.toolCallId);
    s.stopped = true;
    const rules = ruleDenialOf(d.error);
    const byRule = rules !== undefined;
    const f: NativeFinding = {
      ...emptyFinding('rejection'),
      call_id: d.toolCallId,
      message_index: this._messageOf(d.toolCallId),
      kind: byRule ? 'permission' : null,
      decided_by: byRule ? 'rule' : null,
      reason_source: byRule ? 'none' : null,
      ran: 'no',
      timestamp: ts,
      native: { error: d.error, ...(byRule ? { rules } : {}) },
      // Other words with the same code (a hook's, a policy's) were never measured: who refused is not told.
      undetermined: byRule ? [] : ['kind', 'trigger', 'decided_by', 'reason'],
    };
    this._b.addFinding(f);
    this._lastRefusal = s.refusal = f;
  }

  /**
   * The end of a user turn by `abort` (or, with `reason` null, a turn the file left open): the
   * prompted call and its cancelled siblings, the calls cut while running, or a cut answer.
   */
  private _closeTurn(reason: string | null, ts: string | null): void {
    const byUser = reason !== null && USER_ABORTS.has(reason);
    const abort = reason !== null ? { abort: reason } : {};
    const cancels = this._cancels.splice(0).sort((a, b) => a.order - b.order);
    cancels.forEach((c, i) => this._cancelled(c, i === 0 ? null : cancels[0]!.callId, byUser, abort));
    // After the cancels: a call whose prompt was cancelled never ran.
    const running = reason === null ? [] : this._turnCalls.filter((id) => this._isRunning(id));
    for (const id of running) this._cutWhileRunning(id, reason!, byUser, ts);
    if (reason === null || cancels.length > 0 || running.length > 0) return;
    if (this._modelCallWrote === false) {
      const last = this._b.lastMessage();
      this._b.addFinding({
        ...emptyFinding('interruption'),
        message_index: last ? last.index : null,
        kind: byUser ? 'response' : null,
        timestamp: ts,
        native: abort,
        // The answer cut while streaming is not written (§5): nothing of it is in the file.
        undetermined: byUser ? ['trigger', 'partial_output'] : ['kind', 'trigger', 'partial_output'],
      });
      this._modelCallWrote = null;
    } else if (this._lastRefusal !== null && isObject(this._lastRefusal.native)) {
      // The path and URL prompts' refusal ends the turn with an abort of its own (§3).
      this._lastRefusal.native = { ...this._lastRefusal.native, ...abort };
    }
  }

  /** Started, every prompt of it answered "yes" (or none asked), never completed, not refused. */
  private _isRunning(callId: string): boolean {
    const s = this._calls.get(callId);
    return s !== undefined && s.started && !s.completed && !s.stopped && s.open.size === 0;
  }

  /** The prompted call is the first of the queue; the others were never put to the user (§4). */
  private _cancelled(c: Cancel, promptedCallId: string | null, byUser: boolean, abort: object): void {
    this._state(c.callId).stopped = true;
    const native = { requestId: c.data.requestId, request: c.requestKind, result: c.data.result, ...abort };
    const base = { call_id: c.callId, message_index: this._messageOf(c.callId), ran: 'no' as const, timestamp: c.ts, native };
    if (promptedCallId !== null) {
      this._b.addFinding({ ...emptyFinding('skipped'), ...base, related_call_id: promptedCallId });
      return;
    }
    const decidedBy: DecidedBy | null = byUser ? 'user' : null;
    this._b.addFinding({
      ...emptyFinding('rejection'),
      ...base,
      kind: this._kindOf(c.callId, c.requestKind),
      decided_by: decidedBy,
      // Typed feedback is thrown away by Esc (§3): the reason is gone, whether one was typed is not told.
      // Esc and Ctrl+C write the same bytes.
      undetermined: undeterminedOf(['trigger', 'reason_source'], decidedBy, true),
    });
  }

  private _cutWhileRunning(callId: string, reason: string, byUser: boolean, ts: string | null): void {
    const s = this._state(callId);
    s.stopped = true;
    const f: NativeFinding = {
      ...emptyFinding('interruption'),
      call_id: callId,
      message_index: this._messageOf(callId),
      kind: byUser ? 'tool' : null,
      ran: 'yes',
      timestamp: ts,
      native: { abort: reason },
      // `abort.reason` tells Esc Esc from Ctrl+C (§5), but a finding has no trigger of its own to hold it.
      undetermined: byUser ? ['trigger', 'partial_output'] : ['kind', 'trigger', 'partial_output'],
    };
    s.cut = f;
    this._b.addFinding(f);
  }

  /** What a refusal refuses: the prompt's kind, else the tool's. */
  private _kindOf(callId: string, requestKind: string | null): EventKind | null {
    return rejectionKindOfRequest(requestKind) ?? toRejectionKind(COPILOT_TOOLS, this._b.call(callId)?.tool_name ?? null);
  }

  private _messageOf(callId: string): number | null {
    return this._b.call(callId)?.message_index ?? null;
  }

  finish(): NativeSession {
    this._closeTurn(null, null);
    for (const [id, s] of this._calls) {
      if (s.approval === null) continue;
      const call = this._b.call(id);
      // Approved and then cut while running still ran; approved at one prompt and stopped at the next did not.
      s.approval.ran = call?.output_seen || s.cut !== null ? 'yes' : s.stopped ? 'no' : 'unknown';
    }
    return this._b.session;
  }
}

/** `base`, plus `decided_by` when no decider is known, minus nothing else: the fields the file cannot tell. */
function undeterminedOf(base: string[], decidedBy: DecidedBy | null, scopeKnown: boolean): string[] {
  const out = [...base];
  if (decidedBy === null) out.push('decided_by');
  if (!scopeKnown) out.push('scope');
  return out;
}
