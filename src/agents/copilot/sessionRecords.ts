// GitHub Copilot CLI's session file (~/.copilot/session-state/<sessionId>/events.jsonl), as seen in
// 1.0.102 (docs/copilot.md §3–§7): one `{type, data, id, timestamp, parentId}` object per line. One
// schema and one set of rules for every reader of it (today `rec merge`'s reader, sessionReader.ts;
// later the live recorder), so that the two cannot read one record two ways. Only the fields used
// are declared; everything else passes through untouched.
import { z } from 'zod';
import type { DecidedBy, EventKind, Scope } from '../../core/events.js';
import { isObject } from '../../readers/nativeSession.js';

export { COUNTED_HEAD, COUNTED_TYPES, ENVELOPE_TAIL } from './recordTypes.js';

const Context = z.looseObject({ cwd: z.string().optional() });

export const SessionStart = z.looseObject({
  sessionId: z.string(),
  copilotVersion: z.string().optional(),
  startTime: z.string().optional(),
  context: Context.optional(),
});

/** `copilot --continue` / `--resume`: the same file, appended (§7). */
export const SessionResume = z.looseObject({ resumeTime: z.string().optional(), context: Context.optional() });

/** `content` is what the person typed; `transformedContent` adds Copilot's own date block. */
export const UserMessage = z.looseObject({ content: z.string(), messageId: z.string().optional() });

export const ToolRequest = z.looseObject({ toolCallId: z.string(), name: z.string(), arguments: z.unknown().optional() });

export const AssistantMessage = z.looseObject({
  messageId: z.string().optional(),
  content: z.string().optional(),
  toolRequests: z.array(ToolRequest).optional(),
});

/** One model call inside a user turn (§5, "What identifies a turn"). */
export const AssistantTurnStart = z.looseObject({ turnId: z.string().optional() });

/** Written before the prompt (§3): a start alone does not mean the call ran. */
export const ToolExecutionStart = z.looseObject({
  toolCallId: z.string(),
  toolName: z.string().optional(),
  mcpServerName: z.string().optional(),
});

export const ToolExecutionComplete = z.looseObject({
  toolCallId: z.string(),
  success: z.boolean().optional(),
  result: z.looseObject({ content: z.string().optional() }).optional(),
  error: z.looseObject({ code: z.string().optional(), message: z.string().optional() }).optional(),
});
export type ToolExecutionComplete = z.infer<typeof ToolExecutionComplete>;

/** A prompt put to the user: `permissionRequest.kind` is shell, write, read, url or mcp (§3). */
export const PermissionRequested = z.looseObject({
  requestId: z.string(),
  permissionRequest: z.looseObject({ kind: z.string(), toolCallId: z.string().optional() }),
});

/** The decision: `result.kind` is Copilot's own word for it (§3, §6 "PermissionResult kinds"). */
export const PermissionResult = z.looseObject({ kind: z.string(), feedback: z.string().optional(), reason: z.string().optional() });
export type PermissionResult = z.infer<typeof PermissionResult>;

export const PermissionCompleted = z.looseObject({
  requestId: z.string(),
  toolCallId: z.string().optional(),
  result: PermissionResult,
  decisionSource: z.string().optional(),
});
export type PermissionCompleted = z.infer<typeof PermissionCompleted>;

/** A user turn cut short: `user_abort` (Esc Esc while it runs) or `user_initiated` (Ctrl+C, or Esc at a prompt) (§5). */
export const Abort = z.looseObject({ reason: z.string().optional() });

/** The envelope of every line; `data` is parsed with the schema of its type. */
export const EventEnvelope = z.looseObject({ type: z.string(), data: z.unknown(), id: z.string().optional(), timestamp: z.string().optional() });
export type EventEnvelope = z.infer<typeof EventEnvelope>;

/** One line of events.jsonl as its envelope; undefined for a blank line, a line cut short (still being written) or another shape. */
export function parseEventLine(line: string): EventEnvelope | undefined {
  if (line.trim() === '') return undefined;
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    // The last line, still being written: it is read again whole.
    return undefined;
  }
  const parsed = EventEnvelope.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

/** The types whose data the reader uses; each is parsed with its schema. */
export const READ_TYPES = {
  'session.start': SessionStart,
  'session.resume': SessionResume,
  'user.message': UserMessage,
  'assistant.message': AssistantMessage,
  'assistant.turn_start': AssistantTurnStart,
  'tool.execution_start': ToolExecutionStart,
  'tool.execution_complete': ToolExecutionComplete,
  'permission.requested': PermissionRequested,
  'permission.completed': PermissionCompleted,
  abort: Abort,
} as const;
export type ReadType = keyof typeof READ_TYPES;

/**
 * Copilot's words in events.jsonl that rec reads meaning out of (1.0.102, docs/copilot.md §3, §6).
 * They are file texts, not screen texts: the same for Esc and Ctrl+C, for every prompt.
 */
export const EVENT_TEXTS = {
  /** `permission.completed` `{kind: "cancelled", reason}` of every call pending when the user stopped the turn at a prompt. */
  sessionAborted: 'Session aborted',
  /** `tool.execution_complete` `error.message` of a call a `--deny-tool` rule refused, then the rules in backquotes. */
  ruleDenialPrefix: 'Permission to run this tool was denied due to the following rules: ',
  /** `error.code` of a refusal by a rule, and of a person's refusal with a reason. */
  deniedCode: 'denied',
  /** `error.code` of a person's refusal without one (the path and URL prompts' "No (Esc)"). */
  rejectedCode: 'rejected',
} as const;

/** The `abort.reason` a person's Ctrl+C (and Esc at a prompt) writes. */
export const ABORT_USER_INITIATED = 'user_initiated';
/** The `abort.reason` Esc Esc while a turn runs writes (§5; not what the schema's description says). */
export const ABORT_USER_ABORT = 'user_abort';

/** The rules a rule's refusal names (`shell(rm)`), or undefined when the message is not a rule's refusal. */
export function ruleDenialOf(error: ToolExecutionComplete['error']): string[] | undefined {
  if (error?.code !== EVENT_TEXTS.deniedCode || error.message === undefined) return undefined;
  if (!error.message.startsWith(EVENT_TEXTS.ruleDenialPrefix)) return undefined;
  const rules = error.message.slice(EVENT_TEXTS.ruleDenialPrefix.length).match(/`[^`]*`/g) ?? [];
  return rules.map((r) => r.slice(1, -1));
}

/** What a refusal of each prompt kind refuses (docs/copilot.md §3, the last column). */
const KIND_OF_REQUEST: Readonly<Record<string, EventKind>> = {
  shell: 'command',
  write: 'edit',
  mcp: 'mcp',
  url: 'network',
  // "Allow path access": a tool blocked as such, not a file change.
  read: 'permission',
};

export function rejectionKindOfRequest(requestKind: string | null): EventKind | null {
  return requestKind !== null && Object.hasOwn(KIND_OF_REQUEST, requestKind) ? KIND_OF_REQUEST[requestKind]! : null;
}

/** What one `permission.completed` says was decided, read from Copilot's own words only. */
export type Decision =
  /** Approved. `scope` null where the prompt's options write the same result (§3: the path and URL prompts). */
  | { readonly type: 'approval'; readonly scope: Scope | null; readonly decidedBy: DecidedBy | null }
  /** Refused before it ran; `reason` the feedback typed into the prompt. */
  | { readonly type: 'rejection'; readonly decidedBy: DecidedBy | null; readonly reason: string | null }
  /** "Session aborted": the user stopped the turn at a prompt; which call was on screen is told by the queue (§4). */
  | { readonly type: 'cancelled' }
  /** A result kind not measured: kept as it is. */
  | { readonly type: 'unknown' };

/** Prompts whose "Yes" options all write `{kind: "approved"}`, whatever scope was chosen (§3). */
const APPROVED_SCOPE_UNTOLD: ReadonlySet<string> = new Set(['read', 'url']);

/** The one rule reading a `permission.completed`, for the live recorder and merge alike. */
export function judgeDecision(d: Pick<PermissionCompleted, 'result' | 'decisionSource'>, requestKind: string | null): Decision {
  // Only `human_response` was measured; the other sources (an LLM reviewer, a host policy…) are
  // named in the schema but their deciders were never seen.
  const byPerson: DecidedBy | null = d.decisionSource === 'human_response' ? 'user' : null;
  switch (d.result.kind) {
    case 'approved':
      return { type: 'approval', scope: requestKind === null || APPROVED_SCOPE_UNTOLD.has(requestKind) ? null : 'once', decidedBy: byPerson };
    case 'approved-for-location':
      // "Don't ask again … in this repo" saves the approval in permissions-config.json, which the
      // CLI reads at every start (§6): it outlives the session.
      return { type: 'approval', scope: 'always', decidedBy: byPerson };
    case 'approved-for-session':
    case 'approved-read-only-for-session':
      // In the schema, never written by a measured prompt (§11): what it covers is not known.
      return { type: 'approval', scope: null, decidedBy: byPerson };
    case 'denied-interactively-by-user': {
      const feedback = d.result.feedback;
      return { type: 'rejection', decidedBy: 'user', reason: feedback !== undefined && feedback.length > 0 ? feedback : null };
    }
    // The schema's refusals no measured run wrote (§6): who refused is the kind's own word, where it says.
    case 'denied-by-rules':
      return { type: 'rejection', decidedBy: 'rule', reason: null };
    case 'denied-by-permission-request-hook':
      return { type: 'rejection', decidedBy: 'hook', reason: typeof d.result['message'] === 'string' ? d.result['message'] : null };
    case 'denied-by-content-exclusion-policy':
    case 'denied-no-approval-rule-and-could-not-request-from-user':
      return { type: 'rejection', decidedBy: null, reason: null };
    case 'cancelled':
      return d.result.reason === EVENT_TEXTS.sessionAborted ? { type: 'cancelled' } : { type: 'unknown' };
    default:
      return { type: 'unknown' };
  }
}

/** The output of a finished call as the model was told it: its result, else its error's message. */
export function completionText(c: Pick<ToolExecutionComplete, 'result' | 'error'>): string | null {
  return c.result?.content ?? c.error?.message ?? null;
}
