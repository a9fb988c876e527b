// What a Chat Completions request tells the mock: its shape (zod), the turn it is part of (the latest
// user message, how many tool-call rounds followed it, the tool results since the model's last
// message) and the line it leaves in the request log.
import { z } from 'zod';

const ContentPart = z.object({ type: z.string(), text: z.string().optional() }).loose();
const Content = z.union([z.string(), z.array(ContentPart), z.null()]).optional();
const ChatMessage = z
  .object({
    role: z.string(),
    content: Content,
    tool_calls: z.array(z.unknown()).optional(),
    tool_call_id: z.string().optional(),
  })
  .loose();
type ChatMessage = z.infer<typeof ChatMessage>;
const Tool = z.object({ type: z.string().optional(), function: z.object({ name: z.string() }).loose().optional() }).loose();

export const ChatRequest = z
  .object({
    model: z.string().default('mock-model'),
    messages: z.array(ChatMessage).default([]),
    tools: z.array(Tool).optional(),
    stream: z.boolean().optional(),
    stream_options: z.object({ include_usage: z.boolean().optional() }).loose().nullish(),
  })
  .loose();
export type ChatRequest = z.infer<typeof ChatRequest>;

export interface ToolResultSeen {
  readonly tool_call_id: string;
  readonly content: string;
}

export interface ChatRecordedRequest {
  readonly ts: string;
  readonly method: string;
  readonly path: string;
  /**
   * `turn`: a model call with tools; `side`: one without (titles and such); `models`: the model list;
   * `unauthorized`: a wrong or missing token; `escape`: a proxy request (CONNECT or absolute URI) the
   * guard refused; `other`: anything else.
   */
  readonly kind: 'turn' | 'side' | 'models' | 'unauthorized' | 'escape' | 'other';
  readonly scenario?: string;
  readonly step?: number;
  readonly userText?: string;
  /** The tool messages after the model's last message: what the model is told about its calls. */
  readonly toolResults?: readonly ToolResultSeen[];
  readonly body: unknown;
}

export interface ChatTurn {
  readonly userText: string;
  readonly step: number;
  readonly toolResults: ToolResultSeen[];
  readonly toolNames: string[];
}

function contentText(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p) => (p.type === 'text' && p.text !== undefined ? p.text : '')).join('');
}

/** The latest user message, the assistant messages with tool calls after it, and the tool results since the last one. */
export function readTurn(body: ChatRequest): ChatTurn {
  const roles = body.messages.map((m) => m.role);
  const at = roles.lastIndexOf('user');
  const userText = at < 0 ? '' : contentText(body.messages[at]!.content);
  const step = body.messages.slice(at + 1).filter((m) => m.role === 'assistant' && (m.tool_calls?.length ?? 0) > 0).length;
  const toolResults = body.messages
    .slice(roles.lastIndexOf('assistant') + 1)
    .flatMap((m) => (m.role === 'tool' && m.tool_call_id ? [{ tool_call_id: m.tool_call_id, content: contentText(m.content) }] : []));
  const toolNames = (body.tools ?? []).flatMap((t) => (t.function ? [t.function.name] : []));
  return { userText, step, toolResults, toolNames };
}

/** A request as one log line: the system prompt and tool specs left out, the last messages kept. */
export function toLogLine(r: ChatRecordedRequest): unknown {
  const body = r.body as { messages?: unknown[]; model?: unknown; stream?: unknown } | null;
  const isObject = typeof body === 'object' && body !== null;
  return {
    ts: r.ts,
    method: r.method,
    path: r.path,
    kind: r.kind,
    scenario: r.scenario,
    step: r.step,
    model: isObject ? body.model : undefined,
    stream: isObject ? body.stream : undefined,
    user_text: r.userText,
    tool_results: r.toolResults,
    messages_tail: isObject && Array.isArray(body.messages) ? body.messages.slice(-2) : undefined,
  };
}
