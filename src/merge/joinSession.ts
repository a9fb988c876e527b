// The join: native findings from the agent's file and the sidecar's events, matched by call_id
// (turn-level events by time). The sidecar decides what the file cannot tell; where both speak and
// differ, the entry keeps both (`disagreements`). Pure: no I/O.
import { agentModule } from '../agents/registry.js';
import type { RecEvent } from '../core/events.js';
import { NextMessageReasons } from '../core/nextMessageReason.js';
import type { FindingType, NativeSession } from '../readers/nativeSession.js';
import { toolsOf } from './readSession.js';
import { applySidecar, fromNative, fromSidecar, toApproval, toInterruption, toRejection, toSkipped, toUnknown, type Draft, type PromptsById } from './draftEntry.js';
import { MERGED_SCHEMA_VERSION, type CallSummary, type Diagnostic, type MergedSession, type Message } from './mergedSession.js';

/** A sidecar turn-level event (no call_id) and a native one match when this close in time. */
export const TURN_MATCH_WINDOW_MS = 30_000;

const NO_PROMPTS: PromptsById = new Map();

export interface JoinContext {
  events: readonly RecEvent[];
  /** The prompts the events answered (their prompt_event_id); none without a sidecar. */
  prompts?: PromptsById;
  runIds: readonly string[];
  source: 'file' | 'agent_records';
  files: readonly string[];
  extraDiagnostics?: readonly Diagnostic[];
}

/** `earlier`: answers to the same call that did not stand (a prompt asked again after them), named by the entry too. */
type Verdict = { type: FindingType; main: RecEvent; approval: RecEvent | null; earlier?: readonly RecEvent[] };

/**
 * What the sidecar says happened to one call, from all its events for that call (in time order). A
 * call asked about again (Gemini's "Modify with external editor") has several approvals: the last
 * one is the decision that stood.
 */
function verdictFor(events: RecEvent[]): Verdict | null {
  let approval: RecEvent | null = null;
  for (const e of events) if (e.type === 'approval') approval = e;
  const rejection = events.find((e) => e.type === 'rejection');
  const interruption = events.find((e) => e.type === 'interruption');
  const skipped = events.find((e) => e.type === 'skipped');
  // Let through at one prompt, then refused at another about the same call (Copilot asks about a URL,
  // then about the shell command it is part of): the refusal stood, and nothing ran. A cut of a
  // running tool is an interruption, or a refusal on the prompt that was approved.
  if (approval && rejection && !interruption && rejection.ts >= approval.ts && rejection.prompt_event_id !== null && rejection.prompt_event_id !== approval.prompt_event_id) {
    return { type: 'rejection', main: rejection, approval: null, earlier: events.filter((e) => e.type === 'approval') };
  }
  // Approved, then cut while running: an interruption of the running tool, never a rejection.
  if (approval && (interruption || (rejection && rejection.ts >= approval.ts))) {
    const main = interruption ?? rejection!;
    return { type: 'interruption', main, approval };
  }
  if (rejection) return { type: 'rejection', main: rejection, approval: null };
  if (interruption) return { type: 'interruption', main: interruption, approval: null };
  if (skipped) return { type: 'skipped', main: skipped, approval: null };
  if (approval) return { type: 'approval', main: approval, approval: null };
  return null;
}

export function joinSession(native: NativeSession, ctx: JoinContext): MergedSession {
  const messages = native.messages;
  const calls = new Map(native.calls.map((c) => [c.call_id, c]));
  const diagnostics: Diagnostic[] = [...native.diagnostics, ...(ctx.extraDiagnostics ?? [])];
  const drafts: Draft[] = native.findings.map((f) => fromNative(f, f.call_id ? calls.get(f.call_id) : undefined));

  const byCall = new Map<string, RecEvent[]>();
  const turnEvents: RecEvent[] = [];
  for (const e of ctx.events) {
    if (e.type === 'prompt') continue;
    if (e.type === 'miss') {
      // A diagnostic, not a decision: in the session whose file holds the call.
      if (e.call_id && calls.has(e.call_id)) diagnostics.push(missDiagnostic(e, native.file));
      continue;
    }
    if (e.call_id) {
      // A subagent transcript only owns the events of its own calls.
      if (native.subagent && !calls.has(e.call_id)) continue;
      const list = byCall.get(e.call_id);
      if (list) list.push(e);
      else byCall.set(e.call_id, [e]);
    } else turnEvents.push(e);
  }

  for (const [callId, events] of byCall) {
    const v = verdictFor(events);
    if (!v) continue;
    const call = calls.get(callId);
    const mine = drafts.filter((d) => d.f.call_id === callId);
    const nativeApproval = mine.find((d) => d.type === 'approval');
    const decisive = mine.find((d) => d.type !== 'approval');
    if (v.approval || v.type === 'approval') {
      const a = v.approval ?? v.main;
      let entry = nativeApproval;
      if (entry) applySidecar(entry, a, 'approval');
      else drafts.push((entry = fromSidecar(a, 'approval', call?.message_index ?? null, call)));
      // The earlier answers to the same call (prompts asked again) are named by the entry too.
      const earlier = events.filter((e) => e.type === 'approval' && e !== a).map((e) => e.id);
      if (earlier.length > 0) entry.sidecar_event_ids.unshift(...earlier);
    }
    if (v.type === 'approval') {
      // Approved and not cut: a native "aborted" (a Codex batch sibling's abort) does not undo that it ran.
      if (decisive && decisive.type === 'unknown') {
        const approval = drafts.find((d) => d.f.call_id === callId && d.type === 'approval');
        if (approval) approval.native = decisive.native;
        drafts.splice(drafts.indexOf(decisive), 1);
        if (call) call.fate = 'ran';
      } else if (decisive) {
        decisive.disagreements.push({ field: 'type', native: decisive.type, sidecar: 'approval' });
      }
      continue;
    }
    // Refused after it was let through at an earlier prompt: the file's approval is that earlier answer.
    const target = decisive ?? (v.earlier ? nativeApproval : undefined);
    if (target) {
      applySidecar(target, v.main, v.type);
      if (v.earlier) target.sidecar_event_ids.unshift(...v.earlier.map((e) => e.id));
    } else {
      const d = fromSidecar(v.main, v.type, call?.message_index ?? null, call);
      if (v.earlier) d.sidecar_event_ids.unshift(...v.earlier.map((e) => e.id));
      if (call?.output_seen && v.type === 'rejection') d.disagreements.push({ field: 'ran', native: 'yes', sidecar: d.f.ran });
      if (!call) {
        diagnostics.push({
          severity: 'info',
          code: 'sidecar_unmatched',
          message: `sidecar ${v.type} ${v.main.id} names call ${callId}, which the session file does not hold`,
          file: native.file,
          line: null,
        });
      }
      drafts.push(d);
    }
  }

  matchTurnEvents(drafts, turnEvents, messages, new Set(byCall.keys()));
  inferNextMessageReasons(native, drafts, messages);
  placeInterruptions(drafts, messages);
  return assemble(native, ctx, drafts, diagnostics);
}

function matchTurnEvents(drafts: Draft[], events: RecEvent[], messages: Message[], namedCalls: ReadonlySet<string>): void {
  const used = new Set<Draft>();
  for (const e of events) {
    const type: FindingType = e.type === 'approval' ? 'approval' : (e.type as FindingType);
    const t = Date.parse(e.ts);
    let best: Draft | undefined;
    let bestGap = TURN_MATCH_WINDOW_MS;
    for (const d of drafts) {
      if (d.f.call_id !== null || used.has(d) || d.type !== type || d.sources.includes('sidecar')) continue;
      const gap = d.f.timestamp ? Math.abs(Date.parse(d.f.timestamp) - t) : Number.POSITIVE_INFINITY;
      if (gap <= bestGap) {
        best = d;
        bestGap = gap;
      }
    }
    best ??= type === 'rejection' ? onlyUnclaimedRejection(drafts, e, used, namedCalls) : undefined;
    if (best) {
      used.add(best);
      applySidecar(best, e, type);
      continue;
    }
    let index: number | null = null;
    for (const m of messages) if (m.timestamp !== null && m.timestamp <= e.ts) index = m.index;
    drafts.push(fromSidecar(e, type, index, undefined));
  }
}

/**
 * A rejection the recorder saw at a prompt but could not tie to a call is the file's rejection of a call
 * when exactly one fits: a rejection of a call no sidecar event names, not claimed yet, within the
 * turn window, with no field both sides know (kind, tool, who decided) differing. The file holds
 * a user's refusal only because of a key, so that one is this key's. Two that fit: neither.
 */
function onlyUnclaimedRejection(drafts: readonly Draft[], e: RecEvent, used: ReadonlySet<Draft>, namedCalls: ReadonlySet<string>): Draft | undefined {
  const t = Date.parse(e.ts);
  const differ = <T>(a: T | null, b: T | null) => a !== null && b !== null && a !== b;
  const fits = drafts.filter(
    (d) =>
      d.type === 'rejection' &&
      d.f.call_id !== null &&
      !namedCalls.has(d.f.call_id) &&
      !used.has(d) &&
      !d.sources.includes('sidecar') &&
      d.f.timestamp !== null &&
      Math.abs(Date.parse(d.f.timestamp) - t) <= TURN_MATCH_WINDOW_MS &&
      !differ(d.f.kind, e.kind) &&
      !differ(d.tool_name, e.tool_name) &&
      !differ(d.f.decided_by, e.decided_by),
  );
  return fits.length === 1 ? fits[0] : undefined;
}

/**
 * Agents with no place to type a reason at the prompt (the agent module's reason policy): the user's
 * next message, before the agent's next tool call, is the reason — the rule the live recorder
 * applies (core/nextMessageReason.ts), fed the conversation in order. The file is complete and in
 * order, so a rejection is armed at its call's message and a message explains it from the next one on.
 */
function inferNextMessageReasons(native: NativeSession, drafts: Draft[], messages: Message[]): void {
  if (agentModule(native.agent).reasonPolicy !== 'next_message') return;
  const atMessage = new Map<number, Draft[]>();
  for (const d of drafts) {
    if (d.type !== 'rejection' || d.f.reason !== null || d.f.decided_by !== 'user' || d.f.message_index === null) continue;
    const list = atMessage.get(d.f.message_index);
    if (list) list.push(d);
    else atMessage.set(d.f.message_index, [d]);
  }
  if (atMessage.size === 0) return;
  const reasons = new NextMessageReasons<Draft>();
  for (const m of messages) {
    if (m.role === 'assistant' && m.tool_calls.length > 0) reasons.toolCall();
    if (m.role === 'user' && !m.synthetic && m.text) {
      for (const d of reasons.userMessage()) {
        d.f.reason = m.text;
        d.f.reason_source = 'next_message';
      }
    }
    for (const d of atMessage.get(m.index) ?? []) reasons.rejected(d, true);
  }
  for (const list of atMessage.values()) for (const d of list) if (d.f.reason === null && d.f.reason_source === null) d.f.reason_source = 'none';
}

/** Call-level interruptions point at the call's result (where the cut is recorded) and the call. */
function placeInterruptions(drafts: Draft[], messages: Message[]): void {
  for (const d of drafts) {
    if (d.type !== 'interruption' || d.f.call_id === null || d.f.message_index === null) continue;
    const callIndex = d.f.message_index;
    d.f.interrupted_message_index ??= callIndex;
    const result = messages.find((m) => m.index > callIndex && m.tool_results.some((r) => r.call_id === d.f.call_id));
    if (result) d.f.message_index = result.index;
  }
}

function assemble(native: NativeSession, ctx: JoinContext, drafts: Draft[], diagnostics: Diagnostic[]): MergedSession {
  const tools = toolsOf(native.agent);
  const prompts = ctx.prompts ?? NO_PROMPTS;
  const fate = new Map<string, CallSummary['fate']>();
  for (const c of native.calls) fate.set(c.call_id, c.fate);
  for (const d of drafts) {
    const id = d.f.call_id;
    if (id === null) continue;
    if (d.type === 'rejection') fate.set(id, 'rejected');
    else if (d.type === 'skipped') fate.set(id, 'skipped');
    else if (d.type === 'interruption') fate.set(id, 'interrupted');
    else if (d.type === 'unknown') fate.set(id, 'unknown');
    else if (d.type === 'approval' && fate.get(id) === 'unknown' && d.f.ran === 'yes') fate.set(id, 'ran');
  }
  return {
    schema_version: MERGED_SCHEMA_VERSION,
    session: {
      agent: native.agent,
      agent_version: native.agent_version,
      agent_session_id: native.session_id,
      cwd: native.cwd,
      started_at: native.started_at,
      ended_at: native.ended_at,
      files: [...ctx.files],
      source: ctx.source,
      run_ids: [...ctx.runIds],
      subagent: native.subagent,
    },
    messages: native.messages,
    calls: callSummaries(native, fate),
    rejections: entries(drafts, 'rejection', (d) => toRejection(d, tools, prompts)),
    interruptions: entries(drafts, 'interruption', (d) => toInterruption(d, tools, prompts)),
    skipped: entries(drafts, 'skipped', (d) => toSkipped(d, tools)),
    approvals: entries(drafts, 'approval', (d) => toApproval(d, tools, prompts)),
    unknown: entries(drafts, 'unknown', (d) => toUnknown(d, tools)),
    record_counts: native.record_counts,
    unknown_records: native.unknown_records,
    diagnostics,
  };
}

/*
 * The merged session's arrays are built by pushing into array literals, not by filter/map: an
 * array that map or filter returns empty has another hidden class than a filled one, and each
 * session whose array was empty where earlier ones were not (or the reverse) threw away the
 * optimised code that reads it (assemble, toSessionStats; a TurboFan compile each time).
 * A literal's allocation site remembers that it holds objects, so empty and filled ones match.
 */

function callSummaries(native: NativeSession, fate: Map<string, CallSummary['fate']>): CallSummary[] {
  const out: CallSummary[] = [];
  for (const c of native.calls) out.push({ call_id: c.call_id, tool_name: c.tool_name, message_index: c.message_index, fate: fate.get(c.call_id) ?? 'unknown' });
  return out;
}

/** The drafts of one type, in the conversation's order, as merged entries. */
function entries<T>(drafts: readonly Draft[], type: FindingType, toEntry: (d: Draft) => T): T[] {
  const picked: Draft[] = [];
  for (const d of drafts) if (d.type === type) picked.push(d);
  picked.sort(byPosition);
  const out: T[] = [];
  for (const d of picked) out.push(toEntry(d));
  return out;
}

function byPosition(a: Draft, b: Draft): number {
  const ai = a.f.message_index ?? Number.MAX_SAFE_INTEGER;
  const bi = b.f.message_index ?? Number.MAX_SAFE_INTEGER;
  if (ai !== bi) return ai - bi;
  const at = a.f.timestamp ?? '';
  const bt = b.f.timestamp ?? '';
  return at < bt ? -1 : at > bt ? 1 : 0;
}

/** A decision rec missed while it recorded (a sidecar `miss` event), as the session's diagnostic. */
function missDiagnostic(e: RecEvent, file: string): Diagnostic {
  const decision = (e.native as { decision?: unknown } | null)?.decision;
  const says = typeof decision === 'string' ? decision : 'decided';
  return {
    severity: 'warning',
    code: 'miss',
    message: `rec saw no prompt or key for call ${e.call_id ?? '?'} (${e.tool_name ?? 'unknown tool'}), which the session file says was ${says}; the screen as last seen is in sidecar event ${e.id}`,
    file,
    line: null,
  };
}
