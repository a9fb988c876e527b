// Gemini CLI sessions (~/.gemini/tmp/<slug>/chats/session-*.jsonl, and the older single-JSON
// `.json` form). The JSONL is append-only: a metadata line, message records re-appended under the
// same `id` whenever they change (the last one wins, at the place of the first), `{"$set": {...}}`
// updates (a `messages` list replaces the conversation) and `{"$rewindTo": id}`. Messages rolled
// back are kept and marked `rewound`: a turn the user rejected is exactly what gets rolled back.
// What the file alone can tell (docs/gemini.md, "Cancel reasons"): the cancel reason strings.
import { toRejectionKind } from '../../readers/action.js';
import { GEMINI_TOOLS } from './tools.js';
import type { ToolCall, ToolResult } from '../../readers/conversation.js';
import {
  emptyFinding,
  isObject,
  joinTexts,
  SessionBuilder,
  str,
  type NativeFinding,
  type NativeSession,
  type SessionReader,
} from '../../readers/nativeSession.js';
import { callError, GeminiLegacyDocument, GeminiMetadata, toGeminiMessage, type GeminiMessage } from './sessionRecords.js';
import { LATEST_GEMINI_STRINGS } from './strings/index.js';

// The file's schema is sessionRecords.ts (shared with the live recorder); the reason strings are the
// newest measured version's (strings/).
const S = LATEST_GEMINI_STRINGS;
const CANCELLED_PREFIX = S.cancelledPrefix;
const REASON_DENIED = S.reasonDenied;
const REASON_SIBLING = S.reasonSibling;
const REASON_ABORTED = S.reasonAborted;
const REASON_ABORTED_EARLY = S.reasonAbortedEarly;
const POLICY_DENIED = S.policyDenied;
const REQUEST_CANCELLED = S.requestCancelled;
const SESSION_CONTEXT = S.sessionContext;
/** The line Gemini appends after every change: only a new `lastUpdated` (a third of its lines). */
const LAST_UPDATED_ONLY = /^\{"\$set":\{"lastUpdated":"([^"\\]*)"\}\}$/;

interface Slot {
  msg: GeminiMessage;
  line: number;
  rewound: boolean;
}

export class GeminiSessionReader implements SessionReader {
  private readonly _b: SessionBuilder;
  private readonly _slots = new Map<string, Slot>();

  constructor(file: string) {
    this._b = new SessionBuilder('gemini', file);
  }

  /** `{"$set":{"lastUpdated":…}}` taken whole by its text: the same count and timestamp as parsed. */
  quickLine(text: string): boolean {
    if (text.charCodeAt(2) !== 0x24 /* {"$ */) return false;
    const m = LAST_UPDATED_ONLY.exec(text);
    if (m === null) return false;
    this._b.count('$set');
    this._b.seeTimestamp(m[1]);
    return true;
  }

  add(record: unknown, lineNo: number, raw: string): void {
    if (!isObject(record)) {
      this._b.keepUnknown('(not an object)', lineNo, raw);
      return;
    }
    if ('$set' in record) return this._set(record['$set'], lineNo);
    if ('$rewindTo' in record) return this._rewindTo(record['$rewindTo'], lineNo);
    if (typeof record['sessionId'] === 'string' && !('type' in record)) {
      if (Array.isArray(record['messages'])) return this._legacy(record, lineNo);
      return this._metadata(record, lineNo);
    }
    if (typeof record['id'] === 'string' && typeof record['type'] === 'string') {
      const m = toGeminiMessage(record);
      if (!m.success) {
        this._b.diag('warning', 'invalid_record', `message ${String(record['id'])}: ${m.error.issues[0]?.message ?? 'invalid'}`, lineNo);
        return;
      }
      this._b.count(`message:${m.data.type}`);
      this._upsert(m.data, lineNo);
      return;
    }
    this._b.keepUnknown(typeof record['type'] === 'string' ? record['type'] : '(untyped)', lineNo, raw);
  }

  private _metadata(record: Record<string, unknown>, lineNo: number): void {
    this._b.count('metadata');
    const m = GeminiMetadata.safeParse(record);
    if (!m.success) return;
    const s = this._b.session;
    s.session_id ??= m.data.sessionId;
    if (m.data.startTime) this._b.seeTimestamp(m.data.startTime);
    if (m.data.lastUpdated) this._b.seeTimestamp(m.data.lastUpdated);
    void lineNo;
  }

  private _legacy(record: Record<string, unknown>, lineNo: number): void {
    const doc = GeminiLegacyDocument.safeParse(record);
    if (!doc.success) {
      this._b.diag('error', 'invalid_record', `session document: ${doc.error.issues[0]?.message ?? 'invalid'}`, lineNo);
      return;
    }
    this._metadata(record, lineNo);
    for (const raw of doc.data.messages) {
      const m = toGeminiMessage(raw);
      if (!m.success) {
        this._b.diag('warning', 'invalid_record', `message: ${m.error.issues[0]?.message ?? 'invalid'}`, lineNo);
        continue;
      }
      this._b.count(`message:${m.data.type}`);
      this._upsert(m.data, lineNo);
    }
  }

  private _upsert(msg: GeminiMessage, lineNo: number): void {
    const slot = this._slots.get(msg.id);
    if (slot) {
      slot.msg = msg;
      slot.line = lineNo;
      slot.rewound = false;
    } else this._slots.set(msg.id, { msg, line: lineNo, rewound: false });
    if (msg.timestamp) this._b.seeTimestamp(msg.timestamp);
  }

  private _set(value: unknown, lineNo: number): void {
    this._b.count('$set');
    if (!isObject(value)) return;
    if (typeof value['lastUpdated'] === 'string') this._b.seeTimestamp(value['lastUpdated']);
    if (!Array.isArray(value['messages'])) return;
    // The conversation is replaced: what is not in the new list was rolled back.
    const keep = new Set<string>();
    for (const raw of value['messages']) {
      const m = toGeminiMessage(raw);
      if (!m.success) continue;
      keep.add(m.data.id);
      this._upsert(m.data, lineNo);
    }
    for (const [id, slot] of this._slots) if (!keep.has(id)) slot.rewound = true;
  }

  private _rewindTo(value: unknown, lineNo: number): void {
    this._b.count('$rewindTo');
    const id = str(value);
    if (id === null || !this._slots.has(id)) {
      this._b.diag('warning', 'invalid_record', `$rewindTo names an unknown message ${String(value)}`, lineNo);
      return;
    }
    // The conversation goes back to just before `id`: that message and everything after it.
    let after = false;
    for (const [key, slot] of this._slots) {
      if (key === id) after = true;
      if (after) slot.rewound = true;
    }
  }

  finish(): NativeSession {
    const b = this._b;
    let turnCancelledCalls = 0;
    let pendingCancelInfo: { index: number; ts: string | null } | null = null;
    const closeTurn = (): void => {
      if (pendingCancelInfo && turnCancelledCalls === 0) {
        b.addFinding({
          ...emptyFinding('interruption'),
          message_index: pendingCancelInfo.index,
          kind: 'response',
          timestamp: pendingCancelInfo.ts,
          native: { info: REQUEST_CANCELLED },
          // Gemini does not keep the partial answer, and Esc and Ctrl+C write the same record.
          undetermined: ['trigger', 'partial_output'],
        });
      }
      pendingCancelInfo = null;
      turnCancelledCalls = 0;
    };
    for (const slot of this._slots.values()) {
      const { msg, line, rewound } = slot;
      const ts = msg.timestamp ?? null;
      const { text, responses } = contentOf(msg.content);
      if (msg.type === 'user') {
        if (responses.length > 0 && text.length === 0) {
          b.addMessage({ role: 'tool', tool_results: responses, timestamp: ts, native_id: msg.id, rewound, line });
          continue;
        }
        const synthetic = SESSION_CONTEXT.test(text);
        if (!synthetic) closeTurn();
        b.addMessage({ role: 'user', text, timestamp: ts, native_id: msg.id, synthetic, rewound, line });
        continue;
      }
      if (msg.type === 'gemini') {
        // A loop, not map: map's result can be a holey array, which JSON.stringify walks the slow way.
        const calls: ToolCall[] = [];
        for (const c of msg.toolCalls ?? []) calls.push({ call_id: c.id, tool_name: c.name, tool_input: c.args ?? null });
        const m = b.addMessage({
          role: 'assistant',
          text: text.length > 0 ? text : null,
          tool_calls: calls,
          timestamp: ts,
          native_id: msg.id,
          rewound,
          line,
        });
        const results: ToolResult[] = [];
        for (const c of msg.toolCalls ?? []) {
          for (const r of c.result ?? []) results.push(toResult(isObject(r) ? r['functionResponse'] : undefined, c.id));
        }
        if (results.length > 0) b.addMessage({ role: 'tool', tool_results: results, timestamp: ts, rewound, line });
        turnCancelledCalls += this._judgeCalls(msg, m.index);
        continue;
      }
      const m = b.addMessage({ role: 'info', text, timestamp: ts, native_id: msg.id, synthetic: true, rewound, line });
      if (msg.type === 'info' && text === REQUEST_CANCELLED) pendingCancelInfo = { index: m.index, ts };
    }
    closeTurn();
    return b.session;
  }

  /** Native findings for each call of one gemini message; returns how many were cancelled. */
  private _judgeCalls(msg: GeminiMessage, messageIndex: number): number {
    const b = this._b;
    let cancelled = 0;
    const calls = msg.toolCalls ?? [];
    const denied = calls.find((c) => c.status === 'cancelled' && callError(c)?.includes(REASON_DENIED));
    for (const c of calls) {
      const call = b.call(c.id);
      const error = callError(c);
      const base: NativeFinding = {
        ...emptyFinding('unknown'),
        call_id: c.id,
        message_index: messageIndex,
        timestamp: c.timestamp ?? msg.timestamp ?? null,
        native: { status: c.status ?? null, error },
      };
      if (c.status === 'success' || (c.status === 'error' && !error?.includes(POLICY_DENIED))) {
        if (call) {
          call.fate = 'ran';
          call.output_seen = true;
        }
        continue;
      }
      if (c.status === 'error') {
        b.addFinding({ ...base, type: 'rejection', kind: 'permission', decided_by: 'rule', ran: 'no', undetermined: [] });
        continue;
      }
      if (c.status !== 'cancelled') continue;
      cancelled++;
      const reason = error?.startsWith(CANCELLED_PREFIX) ? error.slice(CANCELLED_PREFIX.length).trim() : error;
      if (reason === REASON_DENIED) {
        // Esc, the "No" option and its digit write the same record.
        b.addFinding({ ...base, type: 'rejection', kind: toRejectionKind(GEMINI_TOOLS, c.name), decided_by: 'user', ran: 'no', undetermined: ['trigger'] });
      } else if (reason === REASON_SIBLING) {
        b.addFinding({ ...base, type: 'skipped', related_call_id: denied?.id ?? null, ran: 'no', undetermined: denied ? [] : ['related_call_id'] });
      } else if (reason === REASON_ABORTED) {
        // Ctrl+C at the dialog and Esc/Ctrl+C while the tool runs write the same record.
        b.addFinding({ ...base, type: 'interruption', kind: null, ran: 'unknown', undetermined: ['kind', 'trigger', 'ran'] });
      } else {
        const early = reason === REASON_ABORTED_EARLY;
        b.addFinding({ ...base, possible: early ? ['skipped', 'interruption'] : ['rejection', 'interruption', 'skipped'], ran: early ? 'no' : 'unknown', undetermined: ['type'] });
      }
    }
    return cancelled;
  }
}

/** A message's text (its parts' texts, one per line) and the tool results among its parts. */
function contentOf(content: GeminiMessage['content']): { text: string; responses: ToolResult[] } {
  const responses: ToolResult[] = [];
  if (typeof content === 'string') return { text: content, responses };
  const parts = content ?? [];
  for (const p of parts) if (p.functionResponse !== undefined) responses.push(toResult(p.functionResponse));
  return { text: joinTexts(parts), responses };
}

function toResult(fr: unknown, fallbackId = ''): ToolResult {
  const o = isObject(fr) ? fr : {};
  const resp = isObject(o['response']) ? o['response'] : {};
  const error = str(resp['error']);
  const output = error ?? str(resp['output']) ?? (Object.keys(resp).length > 0 ? JSON.stringify(resp) : null);
  return { call_id: str(o['id']) ?? fallbackId, output, is_error: error !== null };
}
