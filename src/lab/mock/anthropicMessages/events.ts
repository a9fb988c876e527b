// Server-sent events of the Anthropic Messages API, in the order Claude Code 2.1.330 parses them:
// message_start, ping, content_block_start / _delta / _stop per block, message_delta (stop_reason, and
// in auto mode the classifier's safeguard_results),
// message_stop. `event: <type>` + `data: <json>` as in ../sse.ts.
import type { SseEvent } from '../sse.js';

export type StopReason = 'end_turn' | 'tool_use';

export function messageStart(id: string, model: string): SseEvent {
  return {
    type: 'message_start',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    },
  };
}

export function ping(): SseEvent {
  return { type: 'ping' };
}

export function textBlockStart(index: number): SseEvent {
  return { type: 'content_block_start', index, content_block: { type: 'text', text: '' } };
}

export function textDelta(index: number, text: string): SseEvent {
  return { type: 'content_block_delta', index, delta: { type: 'text_delta', text } };
}

export function toolUseBlockStart(index: number, id: string, name: string): SseEvent {
  return { type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input: {} } };
}

export function inputJsonDelta(index: number, partialJson: string): SseEvent {
  return { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: partialJson } };
}

export function blockStop(index: number): SseEvent {
  return { type: 'content_block_stop', index };
}

/** With `safeguardResults`, the auto-mode classifier's verdicts ride in the delta (./safeguards.ts). */
export function messageDelta(stopReason: StopReason, outputTokens: number, safeguardResults?: readonly unknown[]): SseEvent {
  const delta = { stop_reason: stopReason, stop_sequence: null, ...(safeguardResults ? { safeguard_results: safeguardResults } : {}) };
  return { type: 'message_delta', delta, usage: { output_tokens: outputTokens } };
}

export function messageStop(): SseEvent {
  return { type: 'message_stop' };
}
