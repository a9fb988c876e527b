// What a Messages API request tells the mock: the request's shape (zod), the turn it is part of
// (scenario, step, tool results) and the line it leaves in the request log.
import { z } from 'zod';
import { FINAL_PREFIX, scenarioMarker } from './scenarios.js';

const ContentBlock = z
  .object({ type: z.string(), text: z.string().optional(), tool_use_id: z.string().optional(), content: z.unknown().optional(), is_error: z.boolean().optional() })
  .loose();
const Message = z.object({ role: z.string(), content: z.union([z.string(), z.array(ContentBlock)]) }).loose();
type Message = z.infer<typeof Message>;

export const MessagesRequest = z
  .object({
    model: z.string().default('mock-model'),
    messages: z.array(Message).default([]),
    system: z.union([z.string(), z.array(ContentBlock)]).optional(),
    tools: z.array(z.unknown()).optional(),
    stream: z.boolean().optional(),
    /** Auto mode: `[{type: "dangerous_tool_use", classifier_context}]` asks for the classifier's verdicts (./safeguards.ts). */
    safeguards: z.array(z.object({ type: z.string() }).loose()).optional(),
  })
  .loose();
export type MessagesRequest = z.infer<typeof MessagesRequest>;

export interface ToolResultSeen {
  readonly tool_use_id: string;
  readonly is_error: boolean;
  readonly content: string;
}

export interface RecordedRequest {
  readonly ts: string;
  readonly method: string;
  readonly path: string;
  /**
   * `turn`: a main-thread or subagent call with tools; `side`: a call without tools (titles and
   * such); `count_tokens`, `models`; `unauthorized`: a wrong key; `escape`: a proxy request (CONNECT
   * or absolute URI) the guard refused; `other`: anything else.
   */
  readonly kind: 'turn' | 'side' | 'count_tokens' | 'models' | 'unauthorized' | 'escape' | 'other';
  readonly scenario?: string;
  readonly step?: number;
  /** The latest user prompt's text (the one with the scenario marker). */
  readonly userText?: string;
  /** The tool results after the model's last message: what the model is told about its calls. */
  readonly toolResults?: readonly ToolResultSeen[];
  /** Every text block of the last user message (e.g. `[Request interrupted by user]`). */
  readonly lastUserTexts?: readonly string[];
  /** The request asked for the auto-mode classifier's verdicts (`safeguards`). */
  readonly safeguards?: boolean;
  readonly body: unknown;
}

export interface Turn {
  readonly scenario: string | undefined;
  readonly step: number;
  readonly userText: string;
  readonly workDir: string;
  readonly toolResults: ToolResultSeen[];
  readonly lastUserTexts: string[];
}

const texts = (m: Message): string[] => (typeof m.content === 'string' ? [m.content] : m.content.flatMap((b) => (b.type === 'text' && b.text !== undefined ? [b.text] : [])));

/**
 * The user's latest prompt is the last user message with a text block holding a marker (Claude Code
 * puts harness text — `<system-reminder>`, `[Request interrupted by user]` — into user messages too);
 * the step is how many assistant messages came after it.
 */
export function readTurn(body: MessagesRequest, raw: string): Turn {
  let at = -1;
  let scenario: string | undefined;
  let userText = '';
  for (let i = body.messages.length - 1; i >= 0 && at < 0; i -= 1) {
    const m = body.messages[i]!;
    if (m.role !== 'user') continue;
    for (const t of texts(m)) {
      const s = scenarioMarker(t);
      if (s !== undefined) {
        at = i;
        scenario = s;
        userText = t;
      }
    }
  }
  const step = at < 0 ? 0 : body.messages.slice(at + 1).filter((m) => m.role === 'assistant').length;
  const last = body.messages.at(-1);
  return { scenario, step, userText, workDir: workDirOf(raw), toolResults: toolResultsSeen(body), lastUserTexts: last && last.role === 'user' ? texts(last) : [] };
}

/** Everything after the model's last message: Claude Code may follow the tool results with more user messages. */
function toolResultsSeen(body: MessagesRequest): ToolResultSeen[] {
  const lastAssistant = body.messages.map((m) => m.role).lastIndexOf('assistant');
  return body.messages
    .slice(lastAssistant + 1)
    .flatMap((m) => (typeof m.content === 'string' ? [] : m.content))
    .flatMap((b) => (b.type === 'tool_result' && b.tool_use_id ? [{ tool_use_id: b.tool_use_id, is_error: b.is_error === true, content: resultText(b.content) }] : []));
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((c: unknown) => (typeof c === 'object' && c !== null && 'text' in c && typeof c.text === 'string' ? c.text : '')).join('');
}

/**
 * The agent names its working directory in the request (system prompt or a context block); the file
 * tools need it absolute. Claude Code writes `Primary working directory: …`; another client of this
 * wire API (an agent in BYOK mode) writes `Current working directory: …`.
 */
function workDirOf(raw: string): string {
  return (/Primary working directory: *([^\s"\\]+)/.exec(raw) ?? /Current working directory: *([^\s"\\]+)/.exec(raw))?.[1] ?? '';
}

/** The reply once a scenario's script is used up: which tool results came back, so a screen shows it. */
export function finalText(results: readonly ToolResultSeen[]): string {
  if (results.length === 0) return `${FINAL_PREFIX} nothing to report.`;
  return `${FINAL_PREFIX} ${results.length} tool result(s): ${results.map((r) => `${r.tool_use_id} ${r.is_error ? 'ERROR' : 'ok'}`).join(', ')}`;
}

export function toLogLine(r: RecordedRequest): unknown {
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
    n_messages: isObject && Array.isArray(body.messages) ? body.messages.length : undefined,
    user_text: r.userText,
    last_user_texts: r.lastUserTexts,
    tool_results: r.toolResults,
    safeguards: r.safeguards,
    // The system prompt and tool specs are long and the same every time; the last messages are what the model is told.
    messages_tail: isObject && Array.isArray(body.messages) ? body.messages.slice(-2) : undefined,
  };
}
