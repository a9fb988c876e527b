// What one merged session contributes to `rec rules`: every call the user approved or refused at
// a prompt, and every other call that ran, each with what it did (the command, the edited paths,
// the fetched address, the tool). Small enough to send from a worker; the rules are built from
// these alone.
import type { Action, MergedSession } from './mergedSession.js';
import { toAction } from '../readers/action.js';
import { toolsOf } from './readSession.js';

/**
 * `approved` / `refused`: decided by the person at a prompt (or by a source that cannot say who);
 * `auto`: approved by a rule, the config or a hook; `ran`: ran with no recorded decision.
 */
export type DecisionOutcome = 'approved' | 'refused' | 'auto' | 'ran';

export interface DecidedCall {
  outcome: DecisionOutcome;
  tool: string;
  call_id: string | null;
  command: string | null;
  /** Edited paths, as the agent wrote them (absolute or relative to the session's folder). */
  paths: string[];
  url: string | null;
  decided_by: string | null;
  trigger: string | null;
  scope: string | null;
  reason: string | null;
  timestamp: string | null;
}

export interface SessionDecisions {
  agent: string;
  session_id: string | null;
  file: string | null;
  cwd: string | null;
  /** Whether a rec run saw the session: without one, approvals at prompts cannot be told from calls that ran unasked. */
  recorded: boolean;
  calls: DecidedCall[];
}

function urlOf(input: unknown): string | null {
  if (typeof input !== 'object' || input === null) return null;
  const o = input as Record<string, unknown>;
  for (const k of ['url', 'uri']) if (typeof o[k] === 'string') return o[k] as string;
  // Gemini's web_fetch takes one `prompt` naming the address inside it.
  if (typeof o.prompt === 'string') return /https?:\/\/[^\s"'<>]+/.exec(o.prompt)?.[0] ?? null;
  return null;
}

function call(outcome: DecisionOutcome, tool: string | null, input: unknown, action: Action | null, rest: Partial<DecidedCall>): DecidedCall {
  return {
    outcome,
    tool: tool ?? '(unknown)',
    call_id: rest.call_id ?? null,
    command: action?.type === 'command' ? action.command : null,
    paths: action?.type === 'edit' ? action.edits.map((e) => e.path) : [],
    url: urlOf(input),
    decided_by: rest.decided_by ?? null,
    trigger: rest.trigger ?? null,
    scope: rest.scope ?? null,
    reason: rest.reason ?? null,
    timestamp: rest.timestamp ?? null,
  };
}

const BY_PERSON = new Set(['user', null]);

export function toSessionDecisions(s: MergedSession): SessionDecisions {
  const calls: DecidedCall[] = [];
  const decided = new Set<string>();
  for (const a of s.approvals) {
    if (a.call_id) decided.add(a.call_id);
    calls.push(call(BY_PERSON.has(a.decided_by) ? 'approved' : 'auto', a.tool_name, a.tool_input, a.action, a));
  }
  for (const r of s.rejections) {
    if (r.call_id) decided.add(r.call_id);
    calls.push(call('refused', r.tool_name, r.tool_input, r.action, r));
  }
  const ran = new Set(s.calls.filter((c) => c.fate === 'ran' && !decided.has(c.call_id)).map((c) => c.call_id));
  if (ran.size > 0) {
    const tools = toolsOf(s.session.agent);
    for (const m of s.messages) {
      for (const c of m.tool_calls) {
        if (!ran.has(c.call_id)) continue;
        calls.push(call('ran', c.tool_name, c.tool_input, toAction(tools, c.tool_name, c.tool_input), { call_id: c.call_id, timestamp: m.timestamp }));
      }
    }
  }
  return {
    agent: s.session.agent,
    session_id: s.session.agent_session_id,
    file: s.session.files[0] ?? null,
    cwd: s.session.cwd,
    recorded: s.session.run_ids.length > 0,
    calls,
  };
}
