// The Gemini CLI chat file (~/.gemini/tmp/<slug>/chats/session-*.jsonl), one schema for the live
// recorder (profile.ts, sessionLocator.ts) and for `rec merge` (sessionReader.ts), so the two
// cannot drift apart. The file is append-only JSONL:
//   - a metadata line (`sessionId`, `projectHash`, `startTime`, …);
//   - message records (`user` / `gemini` / `info` / …), re-appended under the same `id` whenever one
//     changes (tokens, toolCalls): the last one with an id wins, at the place of the first;
//   - `{"$set": {...}}` updates (a `messages` list replaces the conversation: a rejected turn is
//     rolled back this way) and `{"$rewindTo": id}`.
// A gemini message's `toolCalls` arrive only when their batch resolves, each with a terminal status.
// The older single-JSON `.json` form is the metadata with the whole `messages` array.
import { z } from 'zod';
import type { GeminiStrings } from './strings/index.js';

export const GeminiPart = z.object({ text: z.string().optional(), functionResponse: z.unknown().optional() });
export const GeminiToolCall = z.object({
  id: z.string(),
  name: z.string(),
  args: z.unknown().optional(),
  status: z.string().optional(),
  timestamp: z.string().optional(),
  result: z.array(z.unknown()).nullable().optional(),
  resultDisplay: z.unknown().optional(),
});
export type GeminiToolCall = z.infer<typeof GeminiToolCall>;
export const GeminiMessage = z.object({
  id: z.string(),
  timestamp: z.string().optional(),
  type: z.string(),
  content: z.union([z.string(), z.array(GeminiPart)]).optional(),
  toolCalls: z.array(GeminiToolCall).optional(),
});
export type GeminiMessage = z.infer<typeof GeminiMessage>;
export const GeminiMetadata = z.object({
  sessionId: z.string(),
  projectHash: z.string().optional(),
  startTime: z.string().optional(),
  lastUpdated: z.string().optional(),
});
export type GeminiMetadata = z.infer<typeof GeminiMetadata>;
/** The older single-JSON form: the metadata and the whole `messages` array in one document. */
export const GeminiLegacyDocument = GeminiMetadata.extend({ messages: z.array(z.unknown()) });

/** One line of the chat file, by what it is. */
export type GeminiRecord =
  | { readonly type: 'metadata'; readonly metadata: GeminiMetadata }
  | { readonly type: 'message'; readonly message: GeminiMessage }
  /** `$set`; `messages` holds the replaced conversation's valid messages when the update has one. */
  | { readonly type: 'set'; readonly lastUpdated?: string; readonly messages?: GeminiMessage[] }
  | { readonly type: 'rewind'; readonly to: unknown };

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function optStr(v: unknown): boolean {
  return v === undefined || typeof v === 'string';
}

/**
 * The hand check of GeminiMessage, for merge's hot path: a record that passes is used as parsed (no
 * copy); one that fails goes through zod, which reports what is wrong.
 */
function isGeminiMessage(r: Record<string, unknown>): boolean {
  if (typeof r['id'] !== 'string' || typeof r['type'] !== 'string' || !optStr(r['timestamp'])) return false;
  const content = r['content'];
  if (content !== undefined && typeof content !== 'string') {
    if (!Array.isArray(content)) return false;
    for (const p of content) if (!isObject(p) || !optStr(p['text'])) return false;
  }
  const calls = r['toolCalls'];
  if (calls === undefined) return true;
  if (!Array.isArray(calls)) return false;
  for (const c of calls) {
    if (!isObject(c) || typeof c['id'] !== 'string' || typeof c['name'] !== 'string' || !optStr(c['status']) || !optStr(c['timestamp'])) return false;
    const result = c['result'];
    if (result !== undefined && result !== null && !Array.isArray(result)) return false;
  }
  return true;
}

export function toGeminiMessage(raw: unknown): { success: true; data: GeminiMessage } | { success: false; error: z.ZodError } {
  if (isObject(raw) && isGeminiMessage(raw)) return { success: true, data: raw as unknown as GeminiMessage };
  return GeminiMessage.safeParse(raw);
}

/** One line of the chat file, or undefined for a line that is none of its records. */
export function parseGeminiLine(text: string): GeminiRecord | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    // A torn or foreign line: the follower hands out only complete lines, so this is not Gemini's.
    return undefined;
  }
  if (!isObject(raw)) return undefined;
  if ('$set' in raw) {
    const set = raw['$set'];
    if (!isObject(set)) return { type: 'set' };
    const messages = Array.isArray(set['messages'])
      ? set['messages'].map(toGeminiMessage).flatMap((m) => (m.success ? [m.data] : []))
      : undefined;
    return { type: 'set', ...(typeof set['lastUpdated'] === 'string' ? { lastUpdated: set['lastUpdated'] } : {}), ...(messages ? { messages } : {}) };
  }
  if ('$rewindTo' in raw) return { type: 'rewind', to: raw['$rewindTo'] };
  if (typeof raw['sessionId'] === 'string' && !('type' in raw)) {
    const m = GeminiMetadata.safeParse(raw);
    return m.success ? { type: 'metadata', metadata: m.data } : undefined;
  }
  const m = toGeminiMessage(raw);
  return m.success ? { type: 'message', message: m.data } : undefined;
}

/** A message's text parts, one per line (a string content as it is). */
export function messageText(content: GeminiMessage['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).flatMap((p) => (p.text !== undefined ? [p.text] : [])).join('\n');
}

/** Whether a user record carries only function responses (Gemini's record of a tool result). */
export function isFunctionResponseOnly(message: GeminiMessage): boolean {
  return Array.isArray(message.content) && message.content.length > 0 && message.content.every((p) => p.functionResponse !== undefined && p.text === undefined);
}

/** The user's own words: a user record that is neither the session context nor a tool result. */
export function userWords(message: GeminiMessage, s: GeminiStrings): string | undefined {
  if (message.type !== 'user' || isFunctionResponseOnly(message)) return undefined;
  const text = messageText(message.content);
  return s.sessionContext.test(text) ? undefined : text;
}

/** The `response` object of a call's first function response. */
function responseOf(call: GeminiToolCall): Record<string, unknown> | undefined {
  for (const r of call.result ?? []) {
    const fr = isObject(r) ? r['functionResponse'] : undefined;
    const resp = isObject(fr) ? fr['response'] : undefined;
    if (isObject(resp)) return resp;
  }
  return undefined;
}

/** The error a call's result carries (a cancelled or failed call), or null. */
export function callError(call: GeminiToolCall): string | null {
  const error = responseOf(call)?.['error'];
  return typeof error === 'string' ? error : null;
}

/** The text a call's result carries: its error, its output, or the response as JSON. */
export function callOutput(call: GeminiToolCall): string {
  const resp = responseOf(call);
  if (!resp) return '';
  if (typeof resp['error'] === 'string') return resp['error'];
  if (typeof resp['output'] === 'string') return resp['output'];
  return JSON.stringify(resp);
}

/** Why Gemini cancelled a call: the reason after `[Operation Cancelled] Reason: `, or undefined. */
export function cancelReason(call: GeminiToolCall, s: GeminiStrings): string | undefined {
  if (call.status !== 'cancelled') return undefined;
  const error = callError(call);
  if (error === null) return undefined;
  return error.startsWith(s.cancelledPrefix) ? error.slice(s.cancelledPrefix.length).trim() : error;
}

/**
 * The id the model saw: Gemini's call id is `<name>__<rawId>` and the model gets `rawId` in its
 * functionCall and functionResponse (docs/gemini.md, "Call ids").
 */
export function modelSideCallId(call: Pick<GeminiToolCall, 'id' | 'name'>, s: GeminiStrings): string {
  const prefix = call.name + s.callIdSeparator;
  return call.id.startsWith(prefix) ? call.id.slice(prefix.length) : call.id;
}

/** What a write_file or replace call's result display says the file held and would hold. */
export function fileChangeOf(call: GeminiToolCall): { fileName?: string; filePath?: string; originalContent?: string | null; newContent?: string } {
  const d = call.resultDisplay;
  if (!isObject(d)) return {};
  return {
    ...(typeof d['fileName'] === 'string' ? { fileName: d['fileName'] } : {}),
    ...(typeof d['filePath'] === 'string' ? { filePath: d['filePath'] } : {}),
    ...(typeof d['originalContent'] === 'string' || d['originalContent'] === null ? { originalContent: d['originalContent'] as string | null } : {}),
    ...(typeof d['newContent'] === 'string' ? { newContent: d['newContent'] } : {}),
  };
}
