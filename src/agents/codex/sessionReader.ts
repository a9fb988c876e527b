// Codex rollouts (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl): `{timestamp, type, payload}` per
// line. What the file alone can tell (docs/codex.md): a call whose output is
// "aborted by user" was rejected, interrupted while running, or cancelled as a sibling — the bytes
// are the same, so without the sidecar its fate is `unknown`. A `turn_aborted` with no aborted
// call is a turn cut short (a streamed answer, or Ctrl+C at the prompt). A call the harness refused
// before it started (the auto-review's reviewer, a hook, a rule) is a rejection no person made; under
// auto-review an "aborted by user" may be the reviewer's too (its circuit breaker), which the file
// alone cannot tell from the user's cut. The reviewer's own rollout reads as a subagent's session.
import type { z } from 'zod';
import {
  FunctionCall as FunctionCallItem,
  FunctionCallOutput as FunctionOutputItem,
  isAbortedOutput,
  isHarnessMessage,
  ItemCompleted,
  LocalShellCall as LocalShellCallItem,
  MessageItem,
  outputText,
  RAN_ITEM_TYPES,
  AUTO_REVIEWER,
  isSubagentThread,
  SessionMetaPayload as SessionMeta,
  toolInputOf,
  toolNameOf,
  TurnAborted,
  TurnStarted,
} from './sessionRecords.js';
import { isVerifiedVersion, newestVerified, unverifiedVersionText } from '../verifiedVersions.js';
import { CODEX_VERSIONS, codexStringsFor, type CodexStrings } from './strings/index.js';
import { harnessRefusalOf } from './harnessRefusal.js';
import { CODEX_TOOLS } from './tools.js';
import { toRejectionKind } from '../../readers/action.js';
import {
  emptyFinding,
  isObject,
  joinTexts,
  SessionBuilder,
  str,
  type NativeSession,
  type SessionReader,
} from '../../readers/nativeSession.js';

const KNOWN_TOP = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'world_state', 'token_usage_record', 'compacted']);
const KNOWN_ITEMS = new Set([
  'message', 'function_call', 'custom_tool_call', 'local_shell_call', 'function_call_output', 'custom_tool_call_output',
  'reasoning', 'web_search_call', 'image_generation_call',
]);
const KNOWN_EVENTS = new Set([
  'task_started', 'turn_started', 'task_complete', 'turn_complete', 'turn_aborted', 'token_count', 'thread_settings_applied',
  'item_completed', 'item_started', 'user_message', 'agent_message', 'agent_reasoning', 'exec_command_begin', 'exec_command_end',
  'patch_apply_begin', 'patch_apply_end', 'exec_approval_request', 'apply_patch_approval_request', 'error', 'stream_error',
  'turn_diff', 'context_compacted', 'entered_review_mode', 'exited_review_mode',
]);

/**
 * Records the merge takes without parsing, recognised by Codex's own serialisation order
 * (`{"timestamp":…,"type":…,"payload":{"type":…`): big or frequent, and only counted (their
 * timestamp is still seen). Everything else is parsed.
 */
const COUNTED_TOP = new Set(['world_state', 'token_usage_record', 'compacted']);
const COUNTED_ITEMS = new Set(['reasoning', 'web_search_call', 'image_generation_call']);
/** Events with an effect: turn ids, a turn's end, and completed items (read from their prefix). */
const PARSED_EVENTS = new Set(['task_started', 'turn_started', 'turn_aborted', 'item_completed']);
// 0.169 writes an `ordinal` between the timestamp and the type; older versions do not.
const ENVELOPE = /^\{"timestamp":"([^"\\]*)",(?:"ordinal":\d+,)?"type":"(\w+)"(?:,"payload":\{"type":"(\w+)")?/;
/** How far into a line the envelope and an item_completed's item header are looked for. */
const PREFIX_CHARS = 400;
/**
 * `item_completed` up to its item's type and id: string-valued keys (thread_id, turn_id) and then
 * the item. A line of another layout is parsed.
 */
const ITEM_COMPLETED = /^\{"timestamp":"[^"\\]*",(?:"ordinal":\d+,)?"type":"event_msg","payload":\{"type":"item_completed"(?:,"\w+":"[^"\\]*")*,"item":\{"type":"(\w+)"(?:,"id":"([^"\\]*)")?/;

type MessageData = z.infer<typeof MessageItem>;
type FunctionCallData = z.infer<typeof FunctionCallItem>;
type FunctionOutputData = z.infer<typeof FunctionOutputItem>;

function optStr(v: unknown): boolean {
  return v === undefined || typeof v === 'string';
}

function passthroughOk(v: unknown): boolean {
  if (v === undefined) return true;
  return isObject(v) && optStr(v['turn_id']) && (v['content_item_metadata'] === undefined || Array.isArray(v['content_item_metadata']));
}

// Hand checks of the hot payload shapes, equivalent to their zod schemas: a payload that passes is
// used as it is (no copy); one that fails goes through zod, which reports what is wrong.
function isMessageData(p: Record<string, unknown>): boolean {
  if (typeof p['role'] !== 'string' || !optStr(p['id']) || !passthroughOk(p['internal_chat_message_metadata_passthrough'])) return false;
  const content = p['content'];
  if (!Array.isArray(content)) return false;
  for (const c of content) if (!isObject(c) || typeof c['type'] !== 'string' || !optStr(c['text'])) return false;
  return true;
}

function isFunctionCallData(p: Record<string, unknown>): boolean {
  return typeof p['name'] === 'string' && typeof p['call_id'] === 'string' && optStr(p['arguments']) && optStr(p['namespace']) && passthroughOk(p['internal_chat_message_metadata_passthrough']);
}

interface TurnState {
  aborted: string[]; // call ids with "aborted by user" in this turn
}

export class CodexRolloutReader implements SessionReader {
  private readonly _b: SessionBuilder;
  private _turnId: string | null = null;
  private _turns = new Map<string, TurnState>();
  private _noTurn: TurnState = { aborted: [] };
  private _versionChecked = false;
  /** The current turn's `approvals_reviewer` (turn_context): `auto_review` when a reviewer answers escalations. */
  private _reviewer: string | null = null;
  /** The texts of the version that wrote the file, once session_meta names it. */
  private _strings: CodexStrings = codexStringsFor(undefined);

  constructor(file: string) {
    this._b = new SessionBuilder('codex', file);
  }

  quickLine(text: string): boolean {
    if (text.charCodeAt(text.length - 1) !== 0x7d) return false;
    const head = text.length > PREFIX_CHARS ? text.slice(0, PREFIX_CHARS) : text;
    const env = ENVELOPE.exec(head);
    if (!env) return false;
    const type = env[2]!;
    const sub = env[3];
    let key: string;
    if (COUNTED_TOP.has(type)) key = type;
    else if (sub === undefined) return false;
    else if (type === 'response_item' && COUNTED_ITEMS.has(sub)) key = `response_item:${sub}`;
    else if (type !== 'event_msg' || !KNOWN_EVENTS.has(sub)) return false;
    else if (!PARSED_EVENTS.has(sub)) key = `event_msg:${sub}`;
    else if (sub !== 'item_completed') return false;
    else {
      const item = ITEM_COMPLETED.exec(head);
      if (!item) return false;
      if (RAN_ITEM_TYPES.has(item[1]!)) {
        if (item[2] === undefined) return false;
        this._ran(item[2]);
      }
      key = 'event_msg:item_completed';
    }
    this._b.seeTimestamp(env[1]);
    this._b.count(key);
    return true;
  }

  /** A completed CommandExecution/FileChange item: its call ran. */
  private _ran(callId: string): void {
    const call = this._b.call(callId);
    if (call) {
      call.output_seen = true;
      call.fate = 'ran';
    }
  }

  add(record: unknown, lineNo: number, raw: string): void {
    // The envelope is checked by hand (three typeofs); zod checks the payloads that are used.
    if (!isObject(record) || typeof record['type'] !== 'string' || !('payload' in record)) {
      this._b.keepUnknown(isObject(record) && typeof record['type'] === 'string' ? record['type'] : '(untyped)', lineNo, raw);
      return;
    }
    const type = record['type'];
    const payload = record['payload'];
    const ts = typeof record['timestamp'] === 'string' ? record['timestamp'] : null;
    this._b.seeTimestamp(ts);
    if (!KNOWN_TOP.has(type)) {
      this._b.keepUnknown(type, lineNo, raw);
      return;
    }
    const sub = isObject(payload) ? str(payload['type']) : null;
    if (type === 'session_meta') this._sessionMeta(payload, lineNo);
    else if (type === 'response_item') this._responseItem(payload, sub, ts, lineNo, raw);
    else if (type === 'event_msg') this._eventMsg(payload, sub, ts, lineNo, raw);
    else if (type === 'turn_context') {
      this._b.count(type);
      if (isObject(payload)) {
        if (typeof payload['turn_id'] === 'string') this._turnId = payload['turn_id'];
        this._reviewer = typeof payload['approvals_reviewer'] === 'string' ? payload['approvals_reviewer'] : null;
        if (this._b.session.cwd === null && typeof payload['cwd'] === 'string') this._b.session.cwd = payload['cwd'];
      }
    } else this._b.count(type);
  }

  private _turn(id: string | null | undefined): TurnState {
    const key = id ?? this._turnId;
    if (!key) return this._noTurn;
    let t = this._turns.get(key);
    if (!t) {
      t = { aborted: [] };
      this._turns.set(key, t);
    }
    return t;
  }

  private _sessionMeta(payload: unknown, lineNo: number): void {
    this._b.count('session_meta');
    const m = SessionMeta.safeParse(payload);
    if (!m.success) {
      this._b.diag('warning', 'invalid_record', `session_meta: ${m.error.issues[0]?.message ?? 'invalid'}`, lineNo);
      return;
    }
    const s = this._b.session;
    // A resumed or forked rollout may carry several session_meta lines; the first one is this file's.
    if (s.session_id !== null) return;
    s.session_id = m.data.id;
    if (isSubagentThread(m.data)) {
      // The reviewer's thread: the session it reviews, and its own thread id as the subagent's.
      s.session_id = m.data.session_id ?? m.data.parent_thread_id ?? m.data.id;
      s.subagent = { agent_id: m.data.id, parent_call_id: null };
    }
    s.cwd = m.data.cwd ?? s.cwd;
    s.agent_version = m.data.cli_version ?? null;
    this._strings = codexStringsFor(m.data.cli_version);
    if (m.data.timestamp) this._b.seeTimestamp(m.data.timestamp);
    if (!this._versionChecked && s.agent_version !== null) {
      this._versionChecked = true;
      if (!isVerifiedVersion(CODEX_VERSIONS, s.agent_version)) {
        const as = newestVerified(CODEX_VERSIONS).version;
        this._b.diag('warning', 'unknown_version', `${unverifiedVersionText('codex', s.agent_version, CODEX_VERSIONS)}; read as ${as}`, lineNo);
      }
    }
  }

  private _responseItem(payload: unknown, sub: string | null, ts: string | null, lineNo: number, raw: string): void {
    const key = `response_item:${sub ?? '?'}`;
    if (sub === null || !KNOWN_ITEMS.has(sub)) {
      this._b.keepUnknown(key, lineNo, raw);
      return;
    }
    this._b.count(key);
    switch (sub) {
      case 'message': {
        const data = this._check<MessageData>(payload, isMessageData, MessageItem, key, lineNo);
        if (data === null) return;
        const text = joinTexts(data.content);
        const role = data.role === 'assistant' ? 'assistant' : data.role === 'user' ? 'user' : 'system';
        const synthetic = isHarnessMessage(data, text, this._strings);
        this._b.addMessage({ role, text, timestamp: ts, native_id: data.id ?? null, synthetic, line: lineNo });
        return;
      }
      case 'function_call':
      case 'custom_tool_call': {
        const data = this._check<FunctionCallData>(payload, isFunctionCallData, FunctionCallItem, key, lineNo);
        if (data === null) return;
        const input = toolInputOf(data);
        const turnId = data.internal_chat_message_metadata_passthrough?.turn_id;
        if (turnId) this._turnId = turnId;
        this._appendCall({ call_id: data.call_id, tool_name: toolNameOf(data), tool_input: input }, ts, lineNo);
        return;
      }
      case 'local_shell_call': {
        const m = LocalShellCallItem.safeParse(payload);
        if (!m.success) return this._invalid(key, m.error, lineNo);
        const command = m.data.action?.command ?? [];
        this._appendCall({ call_id: m.data.call_id, tool_name: 'local_shell', tool_input: { command } }, ts, lineNo);
        return;
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const data = this._check<FunctionOutputData>(payload, (p) => typeof p['call_id'] === 'string' && p['output'] !== undefined, FunctionOutputItem, key, lineNo);
        if (data !== null) this._output(data, ts, lineNo);
        return;
      }
      default:
        return; // reasoning and search items: counted above, nothing to normalise
    }
  }

  /** A call's output: it ran, or it was cut or refused (by the user, the reviewer, a hook). */
  private _output(data: FunctionOutputData, ts: string | null, lineNo: number): void {
    const output = outputText(data.output);
    const aborted = output !== null && isAbortedOutput(output, this._strings);
    const refusal = aborted || output === null ? undefined : harnessRefusalOf(output, this._strings);
    this._b.addMessage({
      role: 'tool',
      tool_results: [{ call_id: data.call_id, output, is_error: aborted || refusal !== undefined }],
      timestamp: ts,
      line: lineNo,
    });
    const call = this._b.call(data.call_id);
    const reviewed = this._reviewer === AUTO_REVIEWER ? { approvals_reviewer: this._reviewer } : {};
    if (aborted) {
      this._turn(null).aborted.push(data.call_id);
      this._b.addFinding({
        ...emptyFinding('unknown'),
        call_id: data.call_id,
        message_index: call?.message_index ?? null,
        possible: ['rejection', 'interruption', 'skipped'],
        ran: 'unknown',
        timestamp: ts,
        native: { output, ...reviewed },
        undetermined: ['type', 'kind', 'trigger', 'decided_by', 'ran'],
      });
    } else if (refusal !== undefined) {
      // Refused before its process started: the reviewer's or a hook's by their own words; a
      // message of a hook's own reads like a rule's, and only the screen told which (the sidecar).
      const by = refusal.review !== undefined ? 'reviewer' : refusal.hook !== undefined ? 'hook' : null;
      this._b.addFinding({
        ...emptyFinding('rejection'),
        call_id: data.call_id,
        message_index: call?.message_index ?? null,
        kind: toRejectionKind(CODEX_TOOLS, call?.tool_name ?? null),
        decided_by: by,
        reason: by === 'reviewer' ? refusal.rationale : by === 'hook' ? refusal.message : null,
        reason_source: by ?? 'none',
        ran: 'no',
        timestamp: ts,
        native: { output, ...(refusal.review !== undefined ? { review: refusal.review } : {}), ...(refusal.hook !== undefined ? { hook: refusal.hook } : {}), ...reviewed },
        undetermined: by !== null ? [] : ['decided_by'],
      });
    } else if (call) {
      call.output_seen = true;
      call.fate = 'ran';
    }
  }

  private _appendCall(call: { call_id: string; tool_name: string; tool_input: unknown }, ts: string | null, lineNo: number): void {
    // Parallel calls of one response arrive as consecutive lines: keep them in one assistant message.
    const last = this._b.lastMessage();
    if (last && last.role === 'assistant' && last.text === null && last.tool_calls.length > 0) {
      last.tool_calls.push(call);
      this._b.addCall(call, last.index);
      return;
    }
    this._b.addMessage({ role: 'assistant', tool_calls: [call], timestamp: ts, line: lineNo });
  }

  private _eventMsg(payload: unknown, sub: string | null, ts: string | null, lineNo: number, raw: string): void {
    const key = `event_msg:${sub ?? '?'}`;
    if (sub === null || !KNOWN_EVENTS.has(sub)) {
      this._b.keepUnknown(key, lineNo, raw);
      return;
    }
    this._b.count(key);
    if (sub === 'task_started' || sub === 'turn_started') {
      const m = TurnStarted.safeParse(payload);
      if (m.success && m.data.turn_id) this._turnId = m.data.turn_id;
    } else if (sub === 'item_completed') {
      const m = ItemCompleted.safeParse(payload);
      // A completed CommandExecution/FileChange item means the call ran; aborted calls have none.
      if (m.success && m.data.item.id && RAN_ITEM_TYPES.has(m.data.item.type)) this._ran(m.data.item.id);
    } else if (sub === 'turn_aborted') {
      const m = TurnAborted.safeParse(payload);
      if (!m.success) return this._invalid(key, m.error, lineNo);
      const turn = this._turn(m.data.turn_id);
      if (turn.aborted.length > 0) {
        // The aborted calls carry the turn's fate; note the turn's reason on them.
        for (const f of this._b.session.findings) {
          if (f.call_id !== null && turn.aborted.includes(f.call_id) && isObject(f.native)) {
            f.native = { ...f.native, turn_aborted: m.data.reason ?? null };
          }
        }
        return;
      }
      const last = this._b.lastMessage();
      const userCut = (m.data.reason ?? 'interrupted') === 'interrupted';
      this._b.addFinding({
        ...emptyFinding('interruption'),
        message_index: last ? last.index : null,
        kind: userCut ? 'response' : 'system',
        timestamp: ts,
        native: { turn_aborted: m.data.reason ?? null, turn_id: m.data.turn_id ?? null },
        // A streamed answer cut short and Ctrl+C at the prompt write the same record, and the
        // partial answer is not kept.
        undetermined: userCut ? ['kind', 'trigger', 'partial_output'] : ['trigger', 'partial_output'],
      });
    }
  }

  /** The payload as it is when the hand check passes, else zod's result; null (reported) when invalid. */
  private _check<T>(payload: unknown, quick: (p: Record<string, unknown>) => boolean, schema: z.ZodType<T>, key: string, lineNo: number): T | null {
    if (isObject(payload) && quick(payload)) return payload as T;
    const m = schema.safeParse(payload);
    if (m.success) return m.data;
    this._invalid(key, m.error, lineNo);
    return null;
  }

  private _invalid(key: string, error: z.ZodError, lineNo: number): void {
    this._b.diag('warning', 'invalid_record', `${key}: ${error.issues[0]?.path.join('.') ?? ''} ${error.issues[0]?.message ?? 'invalid'}`, lineNo);
  }

  finish(): NativeSession {
    return this._b.session;
  }
}
