// One generateContent reply: a whole response, or a stream of them as bare `data:` SSE lines
// (`\r\n\r\n` between them, as the real API sends). A text stream is cut short when the client closes
// it, and every stream's end is reported, so a test can tell what Gemini saw before it hung up.
import type { ServerResponse } from 'node:http';
import { sleep } from '../http.js';
import { slowWord, type MockFunctionCall, type ContentReply } from './scenarios.js';

/** The model the mock answers as, in every response and in the model list, unless the agent's bench names the one its client asks for. */
export const DEFAULT_MODEL_NAME = 'mock-model';

/** A bound on the endless stream, in case a client never closes (2 minutes at the default delay). */
const MAX_ENDLESS_CHUNKS = 480;

export interface StreamEnd {
  readonly scenario: string;
  /** Chunks written before the reply ended or the client closed. */
  readonly chunks: number;
  /** The text sent, in full. */
  readonly text: string;
  /** False when the client closed the stream first (Esc / Ctrl+C in Gemini). */
  readonly completed: boolean;
}

function candidate(parts: readonly unknown[], last: boolean, model: string): unknown {
  return {
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
    usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 },
    modelVersion: model,
  };
}

export function textChunk(text: string, last: boolean, model: string): unknown {
  return candidate([{ text }], last, model);
}

export function callsChunk(list: readonly MockFunctionCall[], model: string): unknown {
  const parts = list.map((c) => ({ functionCall: { name: c.name, args: c.args, ...(c.id ? { id: c.id } : {}) } }));
  return candidate(parts, true, model);
}

/** Streams `reply`; `onCalls` sees the calls of a calls reply as they go out, `onEnd` how the stream ended. */
export async function streamReply(
  res: ServerResponse,
  reply: ContentReply,
  scenario: string,
  model: string,
  hooks: { onCalls(calls: readonly MockFunctionCall[]): void; onEnd(end: StreamEnd): void },
): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  const send = (chunk: unknown): void => {
    if (!closed) res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
  };
  if (reply.type === 'calls') {
    hooks.onCalls(reply.calls);
    send(callsChunk(reply.calls, model));
    hooks.onEnd({ scenario, chunks: 1, text: '', completed: true });
    res.end();
    return;
  }
  const pieces: string[] = [];
  const step = reply.chunkChars ?? reply.text.length;
  for (let at = 0; at < reply.text.length; at += step) pieces.push(reply.text.slice(at, at + step));
  let sent = '';
  let chunks = 0;
  const total = reply.endless ? MAX_ENDLESS_CHUNKS : pieces.length;
  for (let i = 0; i < total && !closed; i += 1) {
    const piece = i < pieces.length ? pieces[i]! : slowWord(i - pieces.length + 1);
    const last = i === total - 1;
    send(textChunk(piece, last, model));
    sent += piece;
    chunks += 1;
    if (!last && reply.delayMs) await sleep(reply.delayMs);
  }
  hooks.onEnd({ scenario, chunks, text: sent, completed: !closed });
  res.end();
}
