// What the mock Chat Completions model answers. A scenario is the list of replies for one user turn:
// reply 0 answers the user's prompt, reply N answers after the Nth assistant message with tool calls.
// A prompt picks its scenario with `[[scenario:<name>]]` (../scenarioMarker.ts); a prompt without one
// gets `say`, which echoes it back. The tools an agent offers differ from agent to agent, so the
// scenarios that call them belong to the agent's lab and come in through the server's options.
import { withoutBracketedScenario } from '../scenarioMarker.js';

/** One function tool call; the server gives it an id and JSON-encodes `args` as `arguments`. */
export interface ChatToolCall {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
}

export type ChatReply =
  /** Assistant text; streamed in `chunkChars`-sized deltas, one per `delayMs`. */
  | { readonly type: 'text'; readonly text: string; readonly chunkChars?: number; readonly delayMs?: number }
  /** Tool calls in one message (several = parallel calls), optionally after some text. */
  | { readonly type: 'calls'; readonly calls: readonly ChatToolCall[]; readonly text?: string };

export interface ChatReplyContext {
  /** The text of the latest user message. */
  readonly userText: string;
  /** 0 for the reply to the prompt, N after the Nth assistant message with tool calls. */
  readonly step: number;
  /** The function names the request declares. */
  readonly toolNames: readonly string[];
}

export type ChatScenario = readonly ChatReply[] | ((ctx: ChatReplyContext) => ChatReply);

/** What a scenario says once its scripted replies are used up (after the tool results). */
export const FINAL_TEXT = 'MOCK FINAL: all done.';

/** The answer to a request that declares no tools (a title, a summary): never a tool call. */
export const SIDE_TEXT = 'Mock title';

export const CHAT_SCENARIOS: Readonly<Record<string, ChatScenario>> = {
  say: ({ userText }) => ({ type: 'text', text: `Noted: ${withoutBracketedScenario(userText)}` }),
};

export function pickChatReply(scenario: ChatScenario, ctx: ChatReplyContext): ChatReply {
  if (typeof scenario === 'function') return scenario(ctx);
  return scenario[ctx.step] ?? { type: 'text', text: FINAL_TEXT };
}
