// Claude Code's transcript (~/.claude/projects/<slug>/<session>.jsonl and <session>/subagents/
// agent-<id>.jsonl), as seen in 2.1.328 and 2.1.330: one schema and one set of rules for every
// reader of it — the live recorder (profile.ts) and `rec merge`'s reader
// (sessionReader.ts) — so the two cannot drift apart. Only the fields used are declared.
//
// Each assistant content block is its own line (same message.id); each tool result is a user line
// carrying toolDenialKind / toolDenialBeforeRun / permissionDecision / userFeedback (2.1.x). What
// the file alone can tell (docs/claude.md, "Transcript"): No and Esc are identical, Esc
// and Ctrl+C are identical, a refused call and the siblings cancelled with it are identical, and an
// approved call interrupted while it ran is written as a rejection (without toolDenialBeforeRun).
import { z } from 'zod';
import type { DecidedBy, Scope } from '../../core/events.js';
import { isObject } from '../../readers/nativeSession.js';
import { LATEST_CLAUDE_STRINGS, type ClaudeStrings } from './strings/index.js';

export const PermissionDecision = z
  .object({ decision: z.string(), source: z.string().optional(), grantScope: z.string().optional(), reasonType: z.string().optional() })
  .loose(); // kept whole: it is shown verbatim as the native evidence
export type PermissionDecision = z.infer<typeof PermissionDecision>;

/** A `user` or `assistant` line. Unknown keys are stripped, not copied (merge reads millions of lines). */
export const ClaudeLine = z.object({
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
    .object({ id: z.string().optional(), role: z.string().optional(), content: z.union([z.string(), z.array(z.unknown())]), stop_reason: z.string().nullable().optional() }),
  toolDenialKind: z.string().optional(),
  toolDenialBeforeRun: z.boolean().optional(),
  permissionDecision: PermissionDecision.optional(),
  userFeedback: z.string().optional(),
  interruptedMessageId: z.string().optional(),
  isAbortedMidStream: z.boolean().optional(),
});
export type ClaudeLine = z.infer<typeof ClaudeLine>;

function optStr(v: unknown): boolean {
  return v === undefined || typeof v === 'string';
}
function optBool(v: unknown): boolean {
  return v === undefined || typeof v === 'boolean';
}

/**
 * The hand check of ClaudeLine, for merge's hot path: a record that passes may be used as parsed
 * (no copy, after canonicalDecision); one that fails goes through zod, which reports what is wrong.
 */
export function isClaudeLine(r: Record<string, unknown>): boolean {
  const m = r['message'];
  if (!isObject(m) || !optStr(m['id']) || !optStr(m['role'])) return false;
  const content = m['content'];
  if (typeof content !== 'string' && !Array.isArray(content)) return false;
  const stop = m['stop_reason'];
  if (stop !== undefined && stop !== null && typeof stop !== 'string') return false;
  const pd = r['permissionDecision'];
  if (pd !== undefined && !(isObject(pd) && typeof pd['decision'] === 'string' && optStr(pd['source']) && optStr(pd['grantScope']))) return false;
  return (
    optStr(r['uuid']) && optStr(r['timestamp']) && optStr(r['sessionId']) && optStr(r['version']) && optStr(r['cwd']) &&
    optStr(r['agentId']) && optBool(r['isSidechain']) && optStr(r['toolDenialKind']) && optBool(r['toolDenialBeforeRun']) &&
    optStr(r['userFeedback']) && optStr(r['interruptedMessageId']) && optBool(r['isAbortedMidStream'])
  );
}

/** permissionDecision with its keys in the order zod's loose object gives (schema keys first). */
export function canonicalDecision(pd: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { decision: pd['decision'] };
  if (pd['source'] !== undefined) out['source'] = pd['source'];
  if (pd['grantScope'] !== undefined) out['grantScope'] = pd['grantScope'];
  for (const k of Object.keys(pd)) if (k !== 'decision' && k !== 'source' && k !== 'grantScope') out[k] = pd[k];
  return out;
}

/** A parsed record, or the zod issue that made it unreadable. */
export type ParsedLine = { readonly ok: true; readonly line: ClaudeLine } | { readonly ok: false; readonly issue: string };

/** Reads a user/assistant record (already JSON-parsed); the hand check first, zod for the diagnosis. */
export function toClaudeLine(record: Record<string, unknown>): ParsedLine {
  if (isClaudeLine(record)) {
    if (record['permissionDecision'] !== undefined) record['permissionDecision'] = canonicalDecision(record['permissionDecision'] as Record<string, unknown>);
    return { ok: true, line: record as unknown as ClaudeLine };
  }
  const p = ClaudeLine.safeParse(record);
  if (p.success) return { ok: true, line: p.data };
  const issue = p.error.issues[0];
  return { ok: false, issue: `${issue?.path.join('.') ?? ''} ${issue?.message ?? 'invalid'}` };
}

/** Parses one transcript line of text: undefined for other line types, a torn line or one that is not JSON. */
export function parseTranscriptLine(text: string): ClaudeLine | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // A torn or foreign line: it is still copied to agent_records, it just carries no facts.
    return undefined;
  }
  if (!isObject(json) || (json['type'] !== 'user' && json['type'] !== 'assistant')) return undefined;
  const parsed = toClaudeLine(json);
  return parsed.ok ? parsed.line : undefined;
}

/** Bookkeeping line types of 2.1.x: counted, never normalised. */
export const KNOWN_OTHER_TYPES: ReadonlySet<string> = new Set([
  'system', 'summary', 'mode', 'permission-mode', 'atis-latch', 'file-history-snapshot', 'file-history-delta', 'attachment',
  'api-request-shape', 'api-request-blob', 'api-request', 'tools-used', 'last-prompt', 'cost-state', 'queue-operation',
  'custom-title', 'progress',
]);

/** Bookkeeping lines start with their type (`{"type":"api-request-blob",…`): counted unparsed. */
export const SKIPPED_LINE = /^\{"type":"(api-request-blob|api-request-shape|api-request|file-history-snapshot|file-history-delta|attachment|cost-state|tools-used|last-prompt|queue-operation|atis-latch|mode|permission-mode|progress)"/;

export interface ToolUseBlock {
  readonly id: string;
  readonly name: string | null;
  readonly input: unknown;
}
export interface ToolResultBlock {
  readonly toolUseId: string;
  readonly output: string | null;
  readonly isError: boolean;
}

/** The content of a line as blocks (a string content is one text block). */
export function contentBlocks(line: ClaudeLine): readonly unknown[] {
  return typeof line.message.content === 'string' ? [{ type: 'text', text: line.message.content }] : line.message.content;
}

export function textsOf(line: ClaudeLine): string[] {
  const out: string[] = [];
  for (const b of contentBlocks(line)) if (isObject(b) && b['type'] === 'text' && typeof b['text'] === 'string') out.push(b['text']);
  return out;
}

export function toolUsesOf(line: ClaudeLine): ToolUseBlock[] {
  const out: ToolUseBlock[] = [];
  for (const b of contentBlocks(line)) {
    if (isObject(b) && b['type'] === 'tool_use' && typeof b['id'] === 'string') {
      out.push({ id: b['id'], name: typeof b['name'] === 'string' ? b['name'] : null, input: b['input'] ?? null });
    }
  }
  return out;
}

export function toolResultsOf(line: ClaudeLine): ToolResultBlock[] {
  if (typeof line.message.content === 'string') return [];
  const out: ToolResultBlock[] = [];
  for (const b of line.message.content) {
    if (isObject(b) && b['type'] === 'tool_result' && typeof b['tool_use_id'] === 'string') {
      out.push({ toolUseId: b['tool_use_id'], output: resultText(b['content']), isError: b['is_error'] === true });
    }
  }
  return out;
}

export function resultText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((c) => (isObject(c) && typeof c['text'] === 'string' ? c['text'] : '')).join('');
  }
  return content === undefined || content === null ? null : JSON.stringify(content);
}

/** The marker line Claude writes when the user cut a turn: while a reply streamed, or at or during a tool call. */
export function interruptMarker(text: string, strings: ClaudeStrings = LATEST_CLAUDE_STRINGS): 'response' | 'tool' | undefined {
  const t = text.trim();
  if (t === strings.interruptedText) return 'response';
  if (t === strings.interruptedForToolText) return 'tool';
  return undefined;
}

/** What one tool_result says happened to its call, read from the record's own fields (text only as a fallback). */
export type ResultVerdict =
  /** The call was allowed (by the user, a rule or a mode) and ran. */
  | { readonly type: 'approved'; readonly decidedBy: DecidedBy; readonly scope: Scope | null }
  /** Refused, with a decision recorded: a reason typed after Tab, or a refusal no person made (`-p`). */
  | { readonly type: 'refused'; readonly decidedBy: DecidedBy; readonly reason: string | null }
  /**
   * Refused before it ran, with nothing more said: No or Esc at its prompt, or a sibling of the
   * same batch cancelled with it (identical lines). `textOnly`: an older transcript without toolDenialKind.
   */
  | { readonly type: 'refused_before_run'; readonly textOnly: boolean }
  /** A subagent's call refused (its own wording, no toolDenialBeforeRun). */
  | { readonly type: 'refused_in_subagent' }
  /** Written as a rejection after the call had started: the user interrupted it while it ran. */
  | { readonly type: 'interrupted_running' }
  /**
   * Refused by auto mode's classifier (a reviewer model): it blocked the call (`denied`, its
   * explanation the reason) or gave no usable verdict (`failed`). No person decided, no prompt was drawn.
   */
  | { readonly type: 'refused_by_reviewer'; readonly review: 'denied' | 'failed'; readonly reason: string | null }
  /** Denied by a permission rule or a PreToolUse hook: no person decided. */
  | { readonly type: 'denied_by_policy'; readonly decidedBy: 'hook' | 'rule' }
  /** No decision recorded (an older transcript, or a tool that needs none): it ran, or failed on its own. */
  | { readonly type: 'ran' };

/** The one rule, for the live recorder and merge alike, reading a tool_result line. */
export function judgeResult(line: ClaudeLine, result: ToolResultBlock, toolName: string | null, strings: ClaudeStrings = LATEST_CLAUDE_STRINGS): ResultVerdict {
  const pd = line.permissionDecision;
  // "Don't ask again" (WebFetch, MCP) writes a rule and no grantScope: source user_permanent.
  if (pd?.decision === 'accept') return { type: 'approved', decidedBy: decidedBy(pd), scope: toScope(pd.grantScope) ?? (pd.source === 'user_permanent' ? 'always' : null) };
  const kind = line.toolDenialKind;
  const out = result.output ?? '';
  if (kind === AUTO_MODE_BLOCKED) return { type: 'refused_by_reviewer', review: 'denied', reason: classifierReason(out, strings) };
  if (kind === AUTO_MODE_UNAVAILABLE) return { type: 'refused_by_reviewer', review: 'failed', reason: firstSentence(out) };
  if (kind === 'user-rejected' || (kind === undefined && result.isError && isRejectionText(out, toolName, strings))) {
    const reason = line.userFeedback ?? reasonFromText(out, strings);
    if (pd?.decision === 'reject' || reason !== null) return { type: 'refused', decidedBy: decidedBy(pd ?? { decision: 'reject', source: 'user_reject' }), reason };
    if (line.toolDenialBeforeRun === true || (kind === undefined && !out.startsWith(strings.subagentDeniedPrefix))) {
      return { type: 'refused_before_run', textOnly: kind === undefined };
    }
    return kind === 'user-rejected' ? { type: 'interrupted_running' } : { type: 'refused_in_subagent' };
  }
  if (kind === 'permission-rule') return { type: 'denied_by_policy', decidedBy: pd?.source === 'hook' ? 'hook' : 'rule' };
  if (kind === 'interrupted') return { type: 'interrupted_running' };
  return { type: 'ran' };
}

/** Text fallback for versions without toolDenialKind; never for MCP tools (a server can forge it). */
export function isRejectionText(text: string, toolName: string | null, strings: ClaudeStrings = LATEST_CLAUDE_STRINGS): boolean {
  if (toolName?.startsWith('mcp__')) return false;
  return text.startsWith(strings.rejectPrefix) || text.startsWith(strings.subagentDeniedPrefix);
}

export function reasonFromText(text: string, strings: ClaudeStrings = LATEST_CLAUDE_STRINGS): string | null {
  const at = text.indexOf(strings.userSaid);
  return at === -1 ? null : text.slice(at + strings.userSaid.length);
}

/** The toolDenialKind of a call auto mode's classifier blocked, and of one it gave no usable verdict on (2.1.332). */
const AUTO_MODE_BLOCKED = 'automode-blocked';
const AUTO_MODE_UNAVAILABLE = 'automode-unavailable';

/**
 * Who decided, from permissionDecision: its `source` (`user_temporary`, `user_reject`, `config`,
 * `hook`) and, for a `config` decision, its `reasonType` (`classifier`: auto mode's classifier, a
 * reviewer model; `mode`, a rule: the setting). A person's answer at the prompt auto mode's breaker
 * opens stays the user's, whatever its reasonCode says.
 */
export function decidedBy(pd: Pick<PermissionDecision, 'source' | 'reasonType'>): DecidedBy {
  const source = pd.source;
  if (source === undefined || source.startsWith('user')) return 'user';
  if (source === 'hook') return 'hook';
  if (source === 'classifier' || pd.reasonType === 'classifier') return 'reviewer';
  return 'config';
}

/** The classifier's explanation in a blocked call's result, or null where the text is not as measured. */
function classifierReason(text: string, strings: ClaudeStrings): string | null {
  const marks = strings.classifierReason;
  if (marks === undefined) return null;
  const at = text.indexOf(marks.start);
  if (at < 0) return null;
  const from = at + marks.start.length;
  const end = text.indexOf(marks.end, from);
  return text.slice(from, end < 0 ? undefined : end).trim() || null;
}

/** A text's first sentence (to its first `. `), or all of it. */
function firstSentence(text: string): string | null {
  const end = text.indexOf('. ');
  const s = (end < 0 ? text : text.slice(0, end + 1)).trim();
  return s === '' ? null : s;
}

export function toScope(grant: string | undefined): Scope | null {
  if (grant === 'once' || grant === 'session' || grant === 'always') return grant;
  if (grant === 'permanent' || grant === 'project') return 'always';
  return null;
}

/** Tools whose call runs a subagent: cutting one is a subagent interruption. */
export function isSubagentTool(toolName: string | null): boolean {
  return toolName === 'Agent' || toolName === 'Task';
}
