// One Messages API reply, whole (a JSON message) or streamed as SSE in the order Claude Code parses
// (./events.ts). A streamed reply notes each slow chunk and a stream the client dropped, so a test
// can tell when the agent cut it.
import type { ServerResponse } from 'node:http';
import { sendJson, sleep } from '../http.js';
import { formatSse, newId, type SseEvent } from '../sse.js';
import { blockStop, inputJsonDelta, messageDelta, messageStart, messageStop, ping, textBlockStart, textDelta, toolUseBlockStart } from './events.js';
import type { MessagesRequest } from './request.js';
import { slowWord, type MessagesReply } from './scenarios.js';

/** What happened to a streamed reply: each slow chunk sent, and a stream the client dropped. */
export interface StreamNote {
  readonly ts: string;
  readonly scenario: string;
  readonly event: 'chunk' | 'client_aborted_stream' | 'completed';
  /** How many slow chunks went out so far. */
  readonly chunks: number;
  /** The tool_use ids this reply issued (for a slow tool call: the id Claude Code never records). */
  readonly toolUseIds: readonly string[];
}

export interface ReplyTarget {
  readonly res: ServerResponse;
  readonly body: MessagesRequest;
  readonly scenario: string;
  readonly workDir: string;
  /** Called with the tool_use ids before the reply goes out. */
  issued(ids: readonly string[]): void;
  /**
   * Set when the request asked for the auto-mode classifier's verdicts: the `safeguard_results` for
   * the reply's calls (undefined: none sent).
   */
  readonly classify?: (calls: readonly { id: string; name: string; input: Record<string, unknown> }[]) => readonly unknown[] | undefined;
  note(n: StreamNote): void;
}

/** Answers with `r`: a whole message unless the request asked for a stream. */
export async function sendReply(t: ReplyTarget, r: MessagesReply): Promise<void> {
  const ids = r.type === 'tools' ? r.calls.map(() => newId('toolu_mock')) : [];
  t.issued(ids);
  const inputs = r.type === 'tools' ? r.calls.map((c) => JSON.stringify(c.input({ workDir: t.workDir, step: 0 }))) : [];
  if (t.body.stream !== true) return sendWhole(t, r, ids, inputs);
  // Only a reply that issues calls carries verdicts (as measured: the final text needs none).
  const verdicts = r.type === 'tools' && t.classify ? t.classify(r.calls.map((c, i) => ({ id: ids[i]!, name: c.name, input: JSON.parse(inputs[i]!) as Record<string, unknown> }))) : undefined;
  const stream = openStream(t, ids);
  stream.send(messageStart(newId('msg_mock'), t.body.model));
  stream.send(ping());
  let index = 0;
  if (r.type === 'text' && r.delayMs !== undefined) {
    await streamSlowText(stream, index, r);
    index += 1;
  } else if (r.text) {
    stream.send(textBlockStart(index));
    stream.send(textDelta(index, r.text));
    stream.send(blockStop(index));
    index += 1;
  }
  if (r.type === 'tools') {
    for (const [i, call] of r.calls.entries()) {
      const slowMs = i === r.calls.length - 1 ? r.slowInputMs : undefined;
      await streamToolUse(stream, index, { id: ids[i]!, name: call.name, input: inputs[i]! }, slowMs);
      index += 1;
    }
  }
  stream.send(messageDelta(r.type === 'tools' ? 'tool_use' : 'end_turn', 10, verdicts));
  stream.send(messageStop());
  stream.finish();
}

function sendWhole(t: ReplyTarget, r: MessagesReply, ids: readonly string[], inputs: readonly string[]): void {
  const content: unknown[] = [];
  if (r.text) content.push({ type: 'text', text: r.text });
  if (r.type === 'tools') r.calls.forEach((c, i) => content.push({ type: 'tool_use', id: ids[i], name: c.name, input: JSON.parse(inputs[i]!) }));
  sendJson(t.res, 200, {
    id: newId('msg_mock'),
    type: 'message',
    role: 'assistant',
    model: t.body.model,
    content,
    stop_reason: r.type === 'tools' ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 10 },
  });
}

interface OpenStream {
  readonly closed: () => boolean;
  send(e: SseEvent): void;
  /** Sends `e` as a noted slow chunk, then waits `delayMs`. */
  slowChunk(e: SseEvent, delayMs: number): Promise<void>;
  finish(): void;
}

function openStream(t: ReplyTarget, ids: readonly string[]): OpenStream {
  const { res, scenario } = t;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  let closed = false;
  let chunks = 0;
  const now = (): string => new Date().toISOString();
  res.on('close', () => {
    if (!res.writableFinished) {
      closed = true;
      t.note({ ts: now(), scenario, event: 'client_aborted_stream', chunks, toolUseIds: ids });
    }
  });
  const send = (e: SseEvent): void => {
    if (!closed) res.write(formatSse(e));
  };
  return {
    closed: () => closed,
    send,
    async slowChunk(e, delayMs) {
      send(e);
      chunks += 1;
      t.note({ ts: now(), scenario, event: 'chunk', chunks, toolUseIds: ids });
      await sleep(delayMs);
    },
    finish() {
      if (!closed) t.note({ ts: now(), scenario, event: 'completed', chunks, toolUseIds: ids });
      res.end();
    },
  };
}

/** The words one per delay, until Claude Code hangs up (the Esc scenario) or the words run out. */
async function streamSlowText(stream: OpenStream, index: number, r: MessagesReply & { type: 'text' }): Promise<void> {
  stream.send(textBlockStart(index));
  const words = r.endless ? Number.POSITIVE_INFINITY : r.text.split(' ').length;
  for (let i = 0; i < words && !stream.closed(); i += 1) await stream.slowChunk(textDelta(index, r.endless ? slowWord(i) : `${r.text.split(' ')[i]} `), r.delayMs!);
  stream.send(blockStop(index));
}

async function streamToolUse(stream: OpenStream, index: number, call: { id: string; name: string; input: string }, slowMs: number | undefined): Promise<void> {
  stream.send(toolUseBlockStart(index, call.id, call.name));
  const input = call.input;
  if (slowMs !== undefined) {
    // One character per delay and never the last one: the call is still streaming when Esc comes.
    // After all but the closing brace, JSON whitespace keeps the stream alive until Claude Code hangs up.
    for (let at = 0; !stream.closed(); at += 1) await stream.slowChunk(inputJsonDelta(index, at < input.length - 1 ? input[at]! : ' '), slowMs);
  } else {
    stream.send(inputJsonDelta(index, input));
  }
  stream.send(blockStop(index));
}
