// What a reader makes of one agent session file on its own, before any sidecar: the normalised
// conversation, the calls, and the native findings (rejections, interruptions, ...), each marked
// with what the file alone cannot tell.
import type { DecidedBy, EventKind, ReasonSource, Ran, Scope } from '../core/events.js';
import type { Diagnostic } from '../core/diagnostic.js';
import type { CallFate, MergeAgent, Message, SourceRef, ToolCall, ToolResult } from './conversation.js';

/** Unknown records kept verbatim per session; the rest are only counted, so output stays bounded. */
export const MAX_UNKNOWN_RECORDS_KEPT = 20;
/** Longest raw unknown record kept, in characters. */
export const MAX_UNKNOWN_RECORD_CHARS = 4000;

export type FindingType = 'rejection' | 'interruption' | 'skipped' | 'approval' | 'unknown';

export interface NativeFinding {
  type: FindingType;
  call_id: string | null;
  message_index: number | null;
  interrupted_message_index: number | null;
  kind: EventKind | null;
  decided_by: DecidedBy | null;
  scope: Scope | null;
  reason: string | null;
  reason_source: ReasonSource | null;
  ran: Ran | null;
  partial_output: string | null;
  related_call_id: string | null;
  possible: Array<'rejection' | 'interruption' | 'skipped' | 'ran'>;
  timestamp: string | null;
  native: unknown;
  undetermined: string[];
}

export interface NativeCall {
  call_id: string;
  tool_name: string;
  tool_input: unknown;
  message_index: number;
  fate: CallFate;
  /** The call got a result that is not an abort/denial marker: it ran. */
  output_seen: boolean;
}

export interface NativeSession {
  agent: MergeAgent;
  agent_version: string | null;
  session_id: string | null;
  cwd: string | null;
  started_at: string | null;
  ended_at: string | null;
  file: string;
  subagent: { agent_id: string | null; parent_call_id: string | null } | null;
  messages: Message[];
  calls: NativeCall[];
  findings: NativeFinding[];
  record_counts: Record<string, number>;
  unknown_records: Array<{ type: string; file: string; line: number; raw: string }>;
  diagnostics: Diagnostic[];
  /** True when at least one record could be read. */
  readable: boolean;
}

/** A reader consumes parsed records in file order and builds the session at the end. */
export interface SessionReader {
  add(record: unknown, lineNo: number, raw: string): void;
  /**
   * Takes a whole line without parsing it when its leading bytes say what it is and all the merge
   * needs from it is there (bookkeeping records: counted; Codex `item_completed`: the item's type
   * and id). Returns false to have the line parsed. Only called for lines that end in a newline,
   * so a line cut short is always parsed, and reported.
   */
  quickLine?(text: string, lineNo: number): boolean;
  finish(): NativeSession;
}

/** A finding with every optional field empty, to spread specific fields over. */
export function emptyFinding(type: FindingType): NativeFinding {
  return {
    type,
    call_id: null,
    message_index: null,
    interrupted_message_index: null,
    kind: null,
    decided_by: null,
    scope: null,
    reason: null,
    reason_source: null,
    ran: null,
    partial_output: null,
    related_call_id: null,
    possible: [],
    timestamp: null,
    native: null,
    undetermined: [],
  };
}

/** The shared bookkeeping of every reader: messages, calls, counts, kept unknown records. */
export class SessionBuilder {
  readonly session: NativeSession;
  private readonly _calls = new Map<string, NativeCall>();

  constructor(agent: MergeAgent, file: string) {
    this.session = {
      agent,
      agent_version: null,
      session_id: null,
      cwd: null,
      started_at: null,
      ended_at: null,
      file,
      subagent: null,
      messages: [],
      calls: [],
      findings: [],
      record_counts: {},
      unknown_records: [],
      diagnostics: [],
      readable: false,
    };
  }

  count(type: string): void {
    this.session.readable = true;
    const counts = this.session.record_counts;
    counts[type] = (counts[type] ?? 0) + 1;
  }

  keepUnknown(type: string, lineNo: number, raw: string): void {
    // Counted, but does not make the file readable: a file of only unknown records is no session.
    const counts = this.session.record_counts;
    counts[type] = (counts[type] ?? 0) + 1;
    if (this.session.unknown_records.length >= MAX_UNKNOWN_RECORDS_KEPT) return;
    this.session.unknown_records.push({
      type,
      file: this.session.file,
      line: lineNo,
      raw: raw.length > MAX_UNKNOWN_RECORD_CHARS ? raw.slice(0, MAX_UNKNOWN_RECORD_CHARS) : raw,
    });
  }

  diag(severity: Diagnostic['severity'], code: Diagnostic['code'], message: string, line: number | null): void {
    this.session.diagnostics.push({ severity, code, message, file: this.session.file, line });
  }

  seeTimestamp(ts: unknown): void {
    if (typeof ts !== 'string' || ts.length === 0) return;
    const s = this.session;
    if (s.started_at === null || ts < s.started_at) s.started_at = ts;
    if (s.ended_at === null || ts > s.ended_at) s.ended_at = ts;
  }

  addMessage(m: {
    role: Message['role'];
    text?: string | null;
    tool_calls?: ToolCall[];
    tool_results?: ToolResult[];
    timestamp?: string | null;
    native_id?: string | null;
    synthetic?: boolean;
    rewound?: boolean;
    line: number;
  }): Message {
    const source: SourceRef = { file: this.session.file, line: m.line };
    const message: Message = {
      index: this.session.messages.length,
      role: m.role,
      text: m.text ?? null,
      tool_calls: m.tool_calls ?? [],
      tool_results: m.tool_results ?? [],
      timestamp: m.timestamp ?? null,
      native_id: m.native_id ?? null,
      synthetic: m.synthetic ?? false,
      rewound: m.rewound ?? false,
      source,
    };
    this.session.messages.push(message);
    for (const call of message.tool_calls) this.addCall(call, message.index);
    return message;
  }

  lastMessage(): Message | undefined {
    return this.session.messages[this.session.messages.length - 1];
  }

  addCall(call: ToolCall, messageIndex: number): NativeCall {
    const existing = this._calls.get(call.call_id);
    if (existing) return existing;
    const c: NativeCall = {
      call_id: call.call_id,
      tool_name: call.tool_name,
      tool_input: call.tool_input,
      message_index: messageIndex,
      fate: 'unknown',
      output_seen: false,
    };
    this._calls.set(call.call_id, c);
    this.session.calls.push(c);
    return c;
  }

  call(callId: string): NativeCall | undefined {
    return this._calls.get(callId);
  }

  addFinding(f: NativeFinding): void {
    this.session.findings.push(f);
  }
}

/**
 * The non-empty texts of a message's parts, one per line. A plain loop: the same through
 * map/filter closures, inlined into a reader's hot method, threw that method's optimised code
 * away at each new shape of part (docs/merge.md, "Why the code is shaped this way").
 */
export function joinTexts(parts: ReadonlyArray<{ text?: string | undefined }>): string {
  let text = '';
  for (const p of parts) {
    const t = p.text;
    if (t !== undefined && t.length > 0) text = text.length === 0 ? t : `${text}\n${t}`;
  }
  return text;
}

/** Text of an unknown value when it is a string, else null: many fields are optional strings. */
export function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
