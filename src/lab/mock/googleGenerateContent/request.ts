// What a generateContent request tells the mock: its shape (zod), the user's latest typed text and
// the contents from it on, and the line it leaves in the request log.
import { z } from 'zod';

const Part = z
  .object({
    text: z.string().optional(),
    functionCall: z.object({ name: z.string(), args: z.unknown().optional(), id: z.string().optional() }).loose().optional(),
    functionResponse: z.object({ name: z.string(), response: z.unknown().optional(), id: z.string().optional() }).loose().optional(),
  })
  .loose();
const Content = z.object({ role: z.string().optional(), parts: z.array(Part).default([]) }).loose();
export type RequestContent = z.infer<typeof Content>;
const Tool = z.object({ functionDeclarations: z.array(z.object({ name: z.string() }).loose()).optional() }).loose();
export const GenerateRequest = z.object({ contents: z.array(Content).default([]), tools: z.array(Tool).optional() }).loose();
export type GenerateRequest = z.infer<typeof GenerateRequest>;

export interface ContentRequest {
  readonly ts: string;
  readonly method: string;
  readonly path: string;
  /** `turn`: a model turn; `guard`: a proxy/CONNECT attempt (refused); `denied`: wrong or no key; `other`. */
  readonly kind: 'turn' | 'guard' | 'denied' | 'other';
  readonly scenario?: string;
  readonly step?: number;
  readonly userText?: string;
  /** The contents from the latest user text on: what the model is told about this turn. */
  readonly contentsFromUser: readonly RequestContent[];
  readonly body: unknown;
}

/** The function names a request declares (MCP tools appear under the names Gemini gave them). */
export function declaredToolNames(body: GenerateRequest): string[] {
  return (body.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((f) => f.name));
}

/**
 * The user's latest typed text: the last text part of the latest user turn that has text. Gemini puts
 * its `<session_context>` and the first prompt in one turn, and after a fully rejected batch (rolled
 * back from history) appends the next prompt to that same turn, so the last part is the newest.
 */
export function latestUserText(contents: readonly RequestContent[]): { userText: string; fromUser: RequestContent[] } {
  for (let i = contents.length - 1; i >= 0; i -= 1) {
    const c = contents[i]!;
    if (c.role !== 'user') continue;
    const texts = c.parts.map((p) => p.text).filter((t): t is string => t !== undefined && !t.startsWith('<session_context>'));
    if (texts.length === 0) continue;
    return { userText: texts.at(-1)!, fromUser: contents.slice(i) };
  }
  return { userText: '', fromUser: [...contents] };
}

/** A request as one log line: the session context part cut short, no system instruction or tool specs. */
export function toLogLine(r: ContentRequest): unknown {
  return {
    ts: r.ts,
    method: r.method,
    path: r.path,
    kind: r.kind,
    scenario: r.scenario,
    step: r.step,
    user_text: r.userText,
    contents_from_user: r.contentsFromUser.map((c) => ({
      ...c,
      parts: c.parts.map((p) => (p.text?.startsWith('<session_context>') ? { text: '<session_context>…' } : p)),
    })),
  };
}
