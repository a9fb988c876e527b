// The shapes of GitHub Copilot CLI's events.jsonl lines that need no schema: the type names, the
// head and tail of the lines the reader only counts, and whether a record is Copilot's. Zod-free,
// so that the registry row (module.ts), which `rec hook` loads, loads no package.

/** The types whose data the reader parses (sessionRecords.ts READ_TYPES holds their schemas). */
export const READ_TYPE_NAMES: ReadonlySet<string> = new Set([
  'session.start',
  'session.resume',
  'user.message',
  'assistant.message',
  'assistant.turn_start',
  'tool.execution_start',
  'tool.execution_complete',
  'permission.requested',
  'permission.completed',
  'abort',
]);

function isPlainObject(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The other types 1.0.102 wrote in the recordings (docs/copilot.md):
 * bookkeeping, counted and never normalised. `system.message` is Copilot's own instructions to the
 * model, not a turn of the conversation.
 */
export const COUNTED_TYPES: ReadonlySet<string> = new Set([
  'session.model_change', 'session.usage_record', 'session.shutdown', 'system.message', 'assistant.turn_end', 'hook.start', 'hook.end',
  'human_response.recorded',
]);

/**
 * Counted lines recognised by their head (`{"type":"session.usage_record",…`) and their tail
 * (`…,"id":"…","timestamp":"…","parentId":…}`): big or frequent, only counted, their timestamp
 * still seen. A line of another layout (an `ephemeral` or `agentId` key at the end) is parsed.
 */
export const COUNTED_HEAD = /^\{"type":"(session\.usage_record|session\.model_change|session\.shutdown|system\.message|assistant\.turn_end|hook\.start|hook\.end)","data":\{/;
export const ENVELOPE_TAIL = /\},"id":"[^"\\]*","timestamp":"([^"\\]*)","parentId":(?:null|"[^"\\]*")\}$/;

/** Whether a record's shape says Copilot wrote it (AgentModule.recordSaysAgent). */
export function recordSaysCopilot(record: Readonly<Record<string, unknown>>): 'sure' | 'likely' | null {
  const type = record['type'];
  if (typeof type !== 'string' || !isPlainObject(record['data'])) return null;
  // Sure: a type of its own with the linked-chain envelope; a dotted type with `data` alone is a
  // shape another format could have.
  if ('parentId' in record && (READ_TYPE_NAMES.has(type) || COUNTED_TYPES.has(type))) return 'sure';
  return type.includes('.') ? 'likely' : null;
}
