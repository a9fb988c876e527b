// The working form of one entry of a merged session while native findings and sidecar events are
// joined, and its conversion to the published arrays.
import type { PromptInfo, RecEvent } from '../core/events.js';
import { emptyFinding, type FindingType, type NativeCall, type NativeFinding } from '../readers/nativeSession.js';
import { toAction, type ToolTable } from '../readers/action.js';
import type { Approval, Disagreement, EntrySource, Interruption, PromptShown, Rejection, Skipped, Unknown } from './mergedSession.js';

/** The prompts a session's decisions answered, by prompt event id (the sidecar's `prompt` events). */
export type PromptsById = ReadonlyMap<string, PromptInfo>;

export interface Draft {
  type: FindingType;
  f: NativeFinding; // field values (native first, sidecar laid over)
  tool_name: string | null;
  tool_input: unknown;
  trigger: RecEvent['trigger'];
  option_label: string | null;
  /** The sidecar's prompt event this decision answered. */
  prompt_event_id: string | null;
  sources: EntrySource[];
  sidecar_event_ids: string[];
  disagreements: Disagreement[];
  native: unknown;
}

export function fromNative(f: NativeFinding, call: NativeCall | undefined): Draft {
  return {
    type: f.type,
    f: { ...f },
    tool_name: call?.tool_name ?? null,
    tool_input: call?.tool_input ?? null,
    trigger: null,
    option_label: null,
    prompt_event_id: null,
    sources: ['native'],
    sidecar_event_ids: [],
    disagreements: [],
    native: f.native,
  };
}

/** The fields `undetermined` may name for each entry type. */
const RELEVANT: Record<FindingType, readonly string[]> = {
  rejection: ['kind', 'trigger', 'decided_by', 'reason', 'ran'],
  interruption: ['kind', 'trigger', 'partial_output', 'ran'],
  skipped: ['related_call_id'],
  approval: ['trigger', 'decided_by', 'scope'],
  unknown: ['type', 'kind', 'trigger', 'decided_by', 'ran'],
};

/** Lays a sidecar event over a draft: the sidecar decides, differences are kept as disagreements. */
export function applySidecar(d: Draft, e: RecEvent, type: FindingType): void {
  const hadNative = d.sources.includes('native');
  if (hadNative && d.type !== 'unknown' && d.type !== type) d.disagreements.push({ field: 'type', native: d.type, sidecar: type });
  d.type = type;
  const f = d.f;
  const over = <K extends keyof NativeFinding>(key: K, value: NativeFinding[K] | null | undefined): void => {
    if (value === null || value === undefined) return;
    const current = f[key];
    // 'unknown' is the file saying it cannot tell, not a claim the sidecar could contradict.
    if (hadNative && current !== null && current !== 'unknown' && current !== value) {
      d.disagreements.push({ field: key, native: current, sidecar: value });
    }
    f[key] = value;
    f.undetermined = f.undetermined.filter((u) => u !== key);
  };
  over('kind', e.kind);
  over('decided_by', e.decided_by);
  over('scope', e.scope);
  // The sidecar knows where a reason came from even when there is none: 'none' (the user gave
  // none), or 'inline' with no text (typed, then thrown away with Esc).
  over('reason', e.reason);
  over('reason_source', e.reason_source);
  over('ran', e.ran);
  over('partial_output', e.partial_output);
  over('related_call_id', e.related_call_id);
  if (e.trigger !== null) {
    d.trigger = e.trigger;
    f.undetermined = f.undetermined.filter((u) => u !== 'trigger');
  }
  d.option_label = e.option_label ?? d.option_label;
  d.prompt_event_id = e.prompt_event_id ?? d.prompt_event_id;
  f.timestamp = e.ts;
  f.undetermined = f.undetermined.filter((u) => u !== 'type' && RELEVANT[type].includes(u));
  if (d.tool_name === null) d.tool_name = e.tool_name;
  if (d.tool_input === null || d.tool_input === undefined) d.tool_input = e.tool_input;
  if (!d.sources.includes('sidecar')) d.sources.push('sidecar');
  d.sidecar_event_ids.push(e.id);
}

/** A draft for a sidecar event the agent's file says nothing about. */
export function fromSidecar(e: RecEvent, type: FindingType, messageIndex: number | null, call: NativeCall | undefined): Draft {
  const f = emptyFinding(type);
  f.call_id = e.call_id;
  f.message_index = messageIndex;
  f.timestamp = e.ts;
  f.native = e.native ?? null;
  const d: Draft = {
    type,
    f,
    tool_name: call?.tool_name ?? null,
    tool_input: call?.tool_input ?? null,
    trigger: null,
    option_label: null,
    prompt_event_id: null,
    sources: [],
    sidecar_event_ids: [],
    disagreements: [],
    native: null,
  };
  applySidecar(d, e, type);
  return d;
}

/**
 * The prompt the draft's decision answered, its options with the one taken marked: the option
 * whose text is the decision's option label (the recorder copies the label from the same screen).
 * None is marked when the key chose no option (Claude's Esc, Ctrl+C).
 */
function promptOf(d: Draft, prompts: PromptsById): PromptShown | null {
  const id = d.prompt_event_id;
  const shown = id === null ? undefined : prompts.get(id);
  if (id === null || shown === undefined) return null;
  const chosen = d.option_label === null ? -1 : shown.options.findIndex((o) => o.label === d.option_label);
  const options: PromptShown['options'] = [];
  shown.options.forEach((o, i) => options.push({ label: o.label, key: o.key ?? null, chosen: i === chosen }));
  return { event_id: id, title: shown.title, options };
}

// The entries are built as whole literals (no spread of a shared base): thousands per session, and
// one object shape per entry type serialises faster.

export function toRejection(d: Draft, tools: ToolTable, prompts: PromptsById): Rejection {
  return {
    message_index: d.f.message_index,
    call_id: d.f.call_id,
    tool_name: d.tool_name,
    tool_input: d.tool_input ?? null,
    action: toAction(tools, d.tool_name, d.tool_input),
    timestamp: d.f.timestamp,
    sources: d.sources,
    native: d.native ?? null,
    sidecar_event_ids: d.sidecar_event_ids,
    disagreements: d.disagreements,
    undetermined: d.f.undetermined,
    rejection_type: d.f.kind,
    decided_by: d.f.decided_by,
    trigger: d.trigger,
    option_label: d.option_label,
    reason: d.f.reason,
    reason_source: d.f.reason_source,
    ran: d.f.ran,
    prompt: promptOf(d, prompts),
  };
}

export function toInterruption(d: Draft, tools: ToolTable, prompts: PromptsById): Interruption {
  return {
    message_index: d.f.message_index,
    call_id: d.f.call_id,
    tool_name: d.tool_name,
    tool_input: d.tool_input ?? null,
    action: toAction(tools, d.tool_name, d.tool_input),
    timestamp: d.f.timestamp,
    sources: d.sources,
    native: d.native ?? null,
    sidecar_event_ids: d.sidecar_event_ids,
    disagreements: d.disagreements,
    undetermined: d.f.undetermined,
    interrupted_message_index: d.f.interrupted_message_index,
    kind: d.f.kind,
    trigger: d.trigger,
    partial_output: d.f.partial_output,
    related_call_id: d.f.related_call_id,
    prompt: promptOf(d, prompts),
  };
}

export function toSkipped(d: Draft, tools: ToolTable): Skipped {
  return {
    message_index: d.f.message_index,
    call_id: d.f.call_id,
    tool_name: d.tool_name,
    tool_input: d.tool_input ?? null,
    action: toAction(tools, d.tool_name, d.tool_input),
    timestamp: d.f.timestamp,
    sources: d.sources,
    native: d.native ?? null,
    sidecar_event_ids: d.sidecar_event_ids,
    disagreements: d.disagreements,
    undetermined: d.f.undetermined,
    related_call_id: d.f.related_call_id,
  };
}

export function toApproval(d: Draft, tools: ToolTable, prompts: PromptsById): Approval {
  return {
    message_index: d.f.message_index,
    call_id: d.f.call_id,
    tool_name: d.tool_name,
    tool_input: d.tool_input ?? null,
    action: toAction(tools, d.tool_name, d.tool_input),
    timestamp: d.f.timestamp,
    sources: d.sources,
    native: d.native ?? null,
    sidecar_event_ids: d.sidecar_event_ids,
    disagreements: d.disagreements,
    undetermined: d.f.undetermined,
    decided_by: d.f.decided_by,
    trigger: d.trigger,
    option_label: d.option_label,
    scope: d.f.scope,
    prompt: promptOf(d, prompts),
  };
}

export function toUnknown(d: Draft, tools: ToolTable): Unknown {
  return {
    message_index: d.f.message_index,
    call_id: d.f.call_id,
    tool_name: d.tool_name,
    tool_input: d.tool_input ?? null,
    action: toAction(tools, d.tool_name, d.tool_input),
    timestamp: d.f.timestamp,
    sources: d.sources,
    native: d.native ?? null,
    sidecar_event_ids: d.sidecar_event_ids,
    disagreements: d.disagreements,
    undetermined: d.f.undetermined,
    possible: d.f.possible,
  };
}
