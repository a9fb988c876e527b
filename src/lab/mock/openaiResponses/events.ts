// Server-sent events of the OpenAI Responses API, in the shape Codex 0.169.0 parses
// (`event: <type>` + `data: <json>`, ../sse.ts).
import { newId, type SseEvent } from '../sse.js';

export function responseCreated(responseId: string): SseEvent {
  return { type: 'response.created', response: { id: responseId } };
}

export function responseCompleted(responseId: string): SseEvent {
  return {
    type: 'response.completed',
    response: {
      id: responseId,
      usage: {
        input_tokens: 0,
        input_tokens_details: null,
        output_tokens: 0,
        output_tokens_details: null,
        total_tokens: 0,
      },
    },
  };
}

export function messageAdded(itemId: string, outputIndex: number): SseEvent {
  return {
    type: 'response.output_item.added',
    output_index: outputIndex,
    item: { type: 'message', id: itemId, role: 'assistant', content: [] },
  };
}

export function textDelta(itemId: string, outputIndex: number, delta: string): SseEvent {
  return { type: 'response.output_text.delta', item_id: itemId, output_index: outputIndex, content_index: 0, delta };
}

export function messageDone(itemId: string, outputIndex: number, text: string): SseEvent {
  return {
    type: 'response.output_item.done',
    output_index: outputIndex,
    item: { type: 'message', id: itemId, role: 'assistant', content: [{ type: 'output_text', text }] },
  };
}

export function functionCallDone(
  outputIndex: number,
  call: { readonly callId: string; readonly name: string; readonly namespace?: string; readonly arguments: string },
): SseEvent {
  return {
    type: 'response.output_item.done',
    output_index: outputIndex,
    item: {
      type: 'function_call',
      id: newId('fc'),
      call_id: call.callId,
      name: call.name,
      ...(call.namespace ? { namespace: call.namespace } : {}),
      arguments: call.arguments,
      status: 'completed',
    },
  };
}
