// Claude's hook payloads translated into session facts: the transcript's path and the session id,
// user messages, calls and whether they ran, reasons typed after Tab, the classifier's denials, and
// which call the permission dialog on screen asks about.
import type { HookMessage } from '../../core/hookMessage.js';
import type { SessionFact } from '../common/agentProfile.js';
import type { ClaudeFactContext } from './factContext.js';
import { ClaudeHookPayload } from './hookPayloads.js';
import { reasonFromText, resultText } from './sessionRecords.js';

export interface HookCall {
  readonly callId: string;
  readonly toolName: string;
  readonly toolInput: unknown;
  readonly promptId?: string;
  /** The subagent that made the call (hooks from a subagent carry agent_id); undefined for the main thread. */
  readonly agentId?: string;
}

export class HookFacts {
  /** PreToolUse calls, latest last: what a PermissionRequest (which names no call) is matched to. */
  private readonly _preToolUse: HookCall[] = [];
  /** The call of the latest PermissionRequest: the one whose prompt shows now. */
  private _requested: HookCall | undefined;

  constructor(private readonly _shared: ClaudeFactContext) {}

  /** The call of the latest PermissionRequest: the one whose prompt shows now. */
  get requested(): HookCall | undefined {
    return this._requested;
  }

  translate(message: HookMessage): SessionFact[] {
    const parsed = ClaudeHookPayload.safeParse(message.payload);
    if (!parsed.success) return [];
    const p = parsed.data;
    const facts: SessionFact[] = [];
    // A subagent's events name the main transcript too; only the main thread's are taken for it.
    const main = p.agent_id === undefined;
    if (main && p.transcript_path) facts.push({ type: 'session_file', file: p.transcript_path });
    if (main && p.session_id && !this._shared.sessionSaid) {
      this._shared.sessionSaid = true;
      facts.push({ type: 'session', sessionId: p.session_id });
    }
    switch (message.event) {
      // No turn facts from UserPromptSubmit and Stop: Claude fires no Stop for a turn cut by Esc,
      // and its screen says when a turn works (the spinner, `esc to interrupt`), which is what
      // decides whether Esc or Ctrl+C interrupts.
      case 'UserPromptSubmit':
        if (main && p.prompt !== undefined) facts.push({ type: 'user_message', text: p.prompt, source: 'hook' });
        break;
      case 'PreToolUse':
        if (p.tool_use_id && p.tool_name) {
          const call: HookCall = {
            callId: p.tool_use_id,
            toolName: p.tool_name,
            toolInput: p.tool_input ?? null,
            ...(p.prompt_id ? { promptId: p.prompt_id } : {}),
            ...(p.agent_id ? { agentId: p.agent_id } : {}),
          };
          this._preToolUse.push(call);
          if (p.agent_id) this._shared.subagents.addCall(call.callId, p.agent_id);
          const native = p.agent_id ? this._shared.subagents.native(p.agent_id) : undefined;
          facts.push({ type: 'call', callId: call.callId, toolName: call.toolName, toolInput: call.toolInput, source: 'hook', ...(native ? { native } : {}) });
        }
        break;
      case 'PermissionRequest':
        this._requested = this._matchRequest(p) ?? this._requested;
        break;
      case 'PostToolUse':
        if (p.tool_use_id) facts.push({ type: 'ran', callId: p.tool_use_id, source: 'hook' });
        break;
      case 'PostToolUseFailure':
        // It ran and failed; an interrupt (`is_interrupt`) is the recorder's to see on the keys.
        if (p.tool_use_id && p.is_interrupt !== true) facts.push({ type: 'ran', callId: p.tool_use_id, source: 'hook' });
        break;
      case 'PostToolBatch':
        // The only hook that carries a reason typed after Tab (docs/claude.md): a second channel beside the transcript.
        for (const c of p.tool_calls ?? []) {
          const text = resultText(c.tool_response);
          const reason = text === null ? null : reasonFromText(text, this._shared.strings());
          if (text !== null && reason !== null) facts.push({ type: 'output', callId: c.tool_use_id, text, aborted: true, reason });
        }
        break;
      case 'PermissionDenied':
        // Fired only when auto mode's classifier refuses a call (blocked, or no usable verdict): a
        // reviewer model's decision, with no trigger; its reason is the classifier's explanation.
        if (p.tool_use_id) facts.push({ type: 'refused', callId: p.tool_use_id, decidedBy: 'reviewer', ...(p.reason ? { reason: p.reason } : {}), source: 'hook' });
        break;
      default:
        break;
    }
    return facts;
  }

  private _matchRequest(p: ClaudeHookPayload): HookCall | undefined {
    const input = JSON.stringify(p.tool_input ?? null);
    for (let i = this._preToolUse.length - 1; i >= 0; i--) {
      const c = this._preToolUse[i]!;
      // A subagent shares the main thread's prompt_id: its agent_id tells its calls apart.
      if (c.toolName === p.tool_name && c.agentId === p.agent_id && (p.prompt_id === undefined || c.promptId === p.prompt_id) && JSON.stringify(c.toolInput) === input) return c;
    }
    return undefined;
  }
}
