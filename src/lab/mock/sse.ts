// Server-sent events as the Responses and Messages APIs frame them: `event: <type>` + `data: <json>`,
// the type repeated inside the JSON. (generateContent and Chat Completions send bare `data:` lines.)
import { randomBytes } from 'node:crypto';

export type SseEvent = { readonly type: string } & Record<string, unknown>;

export function formatSse(event: SseEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** An id in the shape the APIs use (`resp_…`, `call_…`, `toolu_…`): a prefix and 16 hex digits. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}
