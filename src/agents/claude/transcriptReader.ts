// Claude Code transcripts (~/.claude/projects/<slug>/<session>.jsonl and <session>/subagents/
// agent-<id>.jsonl). Each assistant content block is its own line (same message.id); each tool
// result is a user line carrying toolDenialKind / toolDenialBeforeRun / permissionDecision /
// userFeedback (2.1.x). What the file alone can tell (../shared/agents/claude/README.md §2, §5):
// No and Esc are identical, Esc and Ctrl+C are identical, and a rejected call and the siblings
// cancelled with it are identical (told apart here by batch order, marked undetermined).
import { z } from 'zod';
import { toRejectionKind } from '../../readers/action.js';
import { CLAUDE_TOOLS } from './tools.js';
import type { DecidedBy, Scope } from '../../core/events.js';
import type { ToolCall, ToolResult } from '../../readers/conversation.js';
import { isKnownClaudeVersion } from './module.js';
import {
  emptyFinding,
  isObject,
  SessionBuilder,
  str,
  type NativeFinding,
  type NativeSession,
  type SessionReader,
} from '../../readers/nativeSession.js';

const ClaudeLine = z
  .object({
    type: z.enum(['user', 'assistant']),
    uuid: z.string().optional(),
    timestamp: z.string().optional(),
    sessionId: z.string().optional(),
    version: z.string().optional(),
    cwd: z.string().optional(),
    agentId: z.string().optional(),
    isSidechain: z.boolean().optional(),
    message: z
      // Blocks are checked one by one where they are used (a typeof per field is all they need).
      .object({ id: z.string().optional(), role: z.string().optional(), content: z.union([z.string(), z.array(z.unknown())]) }),
    toolDenialKind: z.string().optional(),
    toolDenialBeforeRun: z.boolean().optional(),
    permissionDecision: z
      .object({ decision: z.string(), source: z.string().optional(), grantScope: z.string().optional() })
      .loose() // kept whole: it is shown verbatim as the native evidence
      .optional(),
    userFeedback: z.string().optional(),
    interruptedMessageId: z.string().optional(),
    isAbortedMidStream: z.boolean().optional(),
  });
// Unknown keys are stripped, not copied: only these fields are used, and copying every line's
// other fields was a measurable part of the merge's time.
type ClaudeLine = z.infer<typeof ClaudeLine>;

function optStr(v: unknown): boolean {
  return v === undefined || typeof v === 'string';
}
function optBool(v: unknown): boolean {
  return v === undefined || typeof v === 'boolean';
}

/**
 * The hand check of ClaudeLine, for the hot path: a line that passes is used as parsed (no copy);
 * one that fails goes through zod, which reports what is wrong.
 */
function isClaudeLine(r: Record<string, unknown>): boolean {
  const m = r['message'];
  if (!isObject(m) || !optStr(m['id']) || !optStr(m['role'])) return false;
  const content = m['content'];
  if (typeof content !== 'string' && !Array.isArray(content)) return false;
  const pd = r['permissionDecision'];
  if (pd !== undefined && !(isObject(pd) && typeof pd['decision'] === 'string' && optStr(pd['source']) && optStr(pd['grantScope']))) return false;
  return (
    optStr(r['uuid']) && optStr(r['timestamp']) && optStr(r['sessionId']) && optStr(r['version']) && optStr(r['cwd']) &&
    optStr(r['agentId']) && optBool(r['isSidechain']) && optStr(r['toolDenialKind']) && optBool(r['toolDenialBeforeRun']) &&
    optStr(r['userFeedback']) && optStr(r['interruptedMessageId']) && optBool(r['isAbortedMidStream'])
  );
}

/** permissionDecision with its keys in the order zod's loose object gives (schema keys first). */
function canonicalDecision(pd: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { decision: pd['decision'] };
  if (pd['source'] !== undefined) out['source'] = pd['source'];
  if (pd['grantScope'] !== undefined) out['grantScope'] = pd['grantScope'];
  for (const k of Object.keys(pd)) if (k !== 'decision' && k !== 'source' && k !== 'grantScope') out[k] = pd[k];
  return out;
}

/** Bookkeeping line types of 2.1.x: counted, never normalised. */
const KNOWN_OTHER = new Set([
  'system', 'summary', 'mode', 'permission-mode', 'atis-latch', 'file-history-snapshot', 'file-history-delta', 'attachment',
  'api-request-shape', 'api-request-blob', 'api-request', 'tools-used', 'last-prompt', 'cost-state', 'queue-operation',
  'custom-title', 'progress',
]);

/** Bookkeeping lines start with their type (`{"type":"api-request-blob",…`): counted unparsed. */
const SKIPPED = /^\{"type":"(api-request-blob|api-request-shape|api-request|file-history-snapshot|file-history-delta|attachment|cost-state|tools-used|last-prompt|queue-operation|atis-latch|mode|permission-mode|progress)"/;

const INTERRUPTED = '[Request interrupted by user]';
const INTERRUPTED_FOR_TOOL = '[Request interrupted by user for tool use]';
const REJECT_PREFIX = "The user doesn't want to proceed with this tool use.";
const SUBAGENT_DENIED_PREFIX = 'Permission for this tool use was denied.';
const USER_SAID = 'To tell you how to proceed, the user said:\n';

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
    const key = SKIPPED.exec(text.slice(0, 40))?.[1];
    if (key === undefined) return false;
    this._b.count(key);
    return true;
  }

  add(record: unknown, lineNo: number, raw: string): void {
    const type = isObject(record) ? str(record['type']) : null;
    if (type !== 'user' && type !== 'assistant') {
      if (type !== null && KNOWN_OTHER.has(type)) this._b.count(type);
      else this._b.keepUnknown(type ?? '(untyped)', lineNo, raw);
      return;
    }
    let line: ClaudeLine;
    const r = record as Record<string, unknown>;
    if (isClaudeLine(r)) {
      if (r['permissionDecision'] !== undefined) r['permissionDecision'] = canonicalDecision(r['permissionDecision'] as Record<string, unknown>);
      line = r as unknown as ClaudeLine;
    } else {
      const p = ClaudeLine.safeParse(record);
      if (!p.success) {
        const issue = p.error.issues[0];
        this._b.diag('warning', 'invalid_record', `${type}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'invalid'}`, lineNo);
        return;
      }
      line = p.data;
    }
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
      if (!isKnownClaudeVersion(line.version)) {
        this._b.diag('warning', 'unknown_version', `claude ${line.version} is not a version rec was measured against; read as 2.1`, lineNo);
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
    const synthetic = marker === INTERRUPTED || marker === INTERRUPTED_FOR_TOOL || marker.startsWith('<task-notification>');
    const m = this._b.addMessage({ role: 'user', text, timestamp: ts, native_id: line.uuid ?? null, synthetic, line: lineNo });
    if (marker === INTERRUPTED) {
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
    const ran = (): void => {
      if (call) {
        call.fate = 'ran';
        call.output_seen = true;
      }
    };
    if (pd?.decision === 'accept') {
      // The evidence of an approval is the decision; the tool's output (already in the message's
      // tool_results) would only repeat every approved call's output in the merged session.
      const native = { permissionDecision: pd };
      b.addFinding({ ...base, type: 'approval', native, decided_by: decidedBy(pd.source), scope: toScope(pd.grantScope), ran: 'yes', undetermined: ['trigger'] });
      ran();
      return;
    }
    const kind = line.toolDenialKind;
    const out = result.output ?? '';
    if (kind === 'user-rejected' || (kind === undefined && result.is_error && isRejectionText(out, toolName))) {
      const reason = line.userFeedback ?? reasonFromText(out);
      if (pd?.decision === 'reject' || reason !== null) {
        b.addFinding({
          ...base,
          kind: toRejectionKind(CLAUDE_TOOLS, toolName),
          decided_by: decidedBy(pd?.source ?? 'user_reject'),
          reason,
          reason_source: reason !== null ? 'inline' : 'none',
          ran: 'no',
          undetermined: ['trigger'],
        });
      } else if (line.toolDenialBeforeRun === true || (kind === undefined && !out.startsWith(SUBAGENT_DENIED_PREFIX))) {
        const f: NativeFinding = {
          ...base,
          kind: toRejectionKind(CLAUDE_TOOLS, toolName),
          decided_by: 'user',
          reason_source: 'none',
          ran: 'no',
          undetermined: kind === undefined ? ['type', 'trigger'] : ['trigger'],
        };
        b.addFinding(f);
        this._beforeRun.push(f);
      } else if (kind === 'user-rejected') {
        // Rejected after it started: the user interrupted a running call (Esc or Ctrl+C).
        b.addFinding({
          ...base,
          type: 'interruption',
          kind: toolName === 'Agent' || toolName === 'Task' ? 'subagent' : 'tool',
          ran: 'yes',
          undetermined: ['trigger', 'partial_output'],
        });
      } else {
        b.addFinding({ ...base, kind: toRejectionKind(CLAUDE_TOOLS, toolName), decided_by: 'user', reason_source: 'none', ran: 'no', undetermined: ['trigger'] });
      }
      return;
    }
    if (kind === 'permission-rule') {
      b.addFinding({ ...base, kind: 'permission', decided_by: pd?.source === 'hook' ? 'hook' : 'rule', reason_source: 'none', ran: 'no' });
      return;
    }
    if (kind === 'interrupted') {
      b.addFinding({ ...base, type: 'interruption', kind: 'tool', ran: 'yes', undetermined: ['trigger', 'partial_output'] });
      return;
    }
    ran();
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

function resultText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((c) => (isObject(c) && typeof c['text'] === 'string' ? c['text'] : '')).join('');
  }
  return content === undefined || content === null ? null : JSON.stringify(content);
}

/** Text fallback for versions without toolDenialKind; never for MCP tools (a server can forge it). */
function isRejectionText(text: string, toolName: string | null): boolean {
  if (toolName?.startsWith('mcp__')) return false;
  return text.startsWith(REJECT_PREFIX) || text.startsWith(SUBAGENT_DENIED_PREFIX);
}

function reasonFromText(text: string): string | null {
  const at = text.indexOf(USER_SAID);
  return at === -1 ? null : text.slice(at + USER_SAID.length);
}

function decidedBy(source: string | undefined): DecidedBy {
  if (source === undefined || source.startsWith('user')) return 'user';
  if (source === 'hook') return 'hook';
  if (source === 'classifier') return 'reviewer';
  return 'config';
}

function toScope(grant: string | undefined): Scope | null {
  if (grant === 'once' || grant === 'session' || grant === 'always') return grant;
  if (grant === 'permanent' || grant === 'project') return 'always';
  return null;
}

function compact(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out;
}
