// One Chat Completions reply: a whole `chat.completion`, or a stream of `chat.completion.chunk`
// objects, each on a bare `data:` line, ended by `data: [DONE]`. Text goes out in content deltas;
// each tool call opens with a delta carrying its index, id and function name (arguments empty), and
// its arguments follow in pieces under the same index, as the real API streams them, so a client must
// join them. The last chunk carries finish_reason, and a usage chunk (no choices) comes before [DONE]
// when the request asked for it (stream_options.include_usage).
import type { ServerResponse } from 'node:http';
import { sendJson, sleep } from '../http.js';
import { newId } from '../sse.js';
import type { ChatReply } from './scenarios.js';

/** How many characters of a call's arguments go in one delta: small, so a client must join pieces. */
const ARGUMENT_CHUNK_CHARS = 16;

const USAGE = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };

/** A tool call as the mock issued it: the id is the mock's, the arguments JSON text. */
export interface IssuedToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

export interface ReplyTarget {
  readonly res: ServerResponse;
  readonly model: string;
  readonly stream: boolean;
  readonly includeUsage: boolean;
}

export function issueCalls(reply: ChatReply): IssuedToolCall[] {
  if (reply.type !== 'calls') return [];
  return reply.calls.map((c) => ({ id: newId('call'), name: c.name, arguments: JSON.stringify(c.args) }));
}

export function sendReply(t: ReplyTarget, reply: ChatReply, calls: readonly IssuedToolCall[]): Promise<void> {
  if (!t.stream) {
    sendWhole(t, reply, calls);
    return Promise.resolve();
  }
  return streamReply(t, reply, calls);
}

function finishReason(calls: readonly IssuedToolCall[]): 'stop' | 'tool_calls' {
  return calls.length > 0 ? 'tool_calls' : 'stop';
}

function sendWhole(t: ReplyTarget, reply: ChatReply, calls: readonly IssuedToolCall[]): void {
  const toolCalls = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  const message = { role: 'assistant', content: reply.text ?? null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) };
  sendJson(t.res, 200, {
    id: newId('chatcmpl'),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: t.model,
    choices: [{ index: 0, message, finish_reason: finishReason(calls) }],
    usage: USAGE,
  });
}

async function streamReply(t: ReplyTarget, reply: ChatReply, calls: readonly IssuedToolCall[]): Promise<void> {
  const { res } = t;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  const head = { id: newId('chatcmpl'), object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: t.model };
  const send = (body: unknown): void => {
    if (!closed) res.write(`data: ${JSON.stringify(body)}\n\n`);
  };
  const delta = (d: unknown, finish: string | null = null): void => send({ ...head, choices: [{ index: 0, delta: d, finish_reason: finish }] });
  delta({ role: 'assistant', content: '' });
  const text = reply.text ?? '';
  const chunk = reply.type === 'text' ? (reply.chunkChars ?? text.length) : text.length;
  const delayMs = reply.type === 'text' ? (reply.delayMs ?? 0) : 0;
  for (let at = 0; at < text.length && !closed; at += chunk) {
    delta({ content: text.slice(at, at + chunk) });
    if (delayMs > 0) await sleep(delayMs);
  }
  for (const [index, call] of calls.entries()) {
    delta({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
    for (let at = 0; at < call.arguments.length; at += ARGUMENT_CHUNK_CHARS) {
      delta({ tool_calls: [{ index, function: { arguments: call.arguments.slice(at, at + ARGUMENT_CHUNK_CHARS) } }] });
    }
  }
  delta({}, finishReason(calls));
  if (t.includeUsage) send({ ...head, choices: [], usage: USAGE });
  if (!closed) res.write('data: [DONE]\n\n');
  res.end();
}
