// @ts-check
// Writes a Codex 0.169.0 rollout ($CODEX_HOME/sessions/YYYY/MM/DD/rollout-<ts>-<uuid>.jsonl) in the
// shapes of /work/shared/agents/codex/samples/*.rollout.jsonl, one line appended per record as the
// real app-server daemon does. Long instruction texts are trimmed; field sets are kept.
import { join } from 'node:path';
import { hex, uuidV7 } from './ids.mjs';
import { appendJsonLine } from './jsonl.mjs';
import { AGENT_VERSION, rollout as R } from './codexStrings.mjs';

const pad = (n, w = 2) => String(n).padStart(w, '0');

/** The rollout file name Codex uses: local time, `rollout-YYYY-MM-DDTHH-MM-SS-<uuid>.jsonl`. */
export function rolloutPath(codexHome, sessionId, date = new Date()) {
  const y = date.getFullYear();
  const m = pad(date.getMonth() + 1);
  const d = pad(date.getDate());
  const ts = `${y}-${m}-${d}T${pad(date.getHours())}-${pad(date.getMinutes())}-${pad(date.getSeconds())}`;
  return join(codexHome, 'sessions', String(y), m, d, `rollout-${ts}-${sessionId}.jsonl`);
}

const USAGE = { input_tokens: 100, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 20, reasoning_output_tokens: 0, total_tokens: 120 };
const RATE_LIMITS = { limit_id: 'codex', limit_name: null, primary: null, secondary: null, credits: null, individual_limit: null, spend_control_reached: null, plan_type: null, rate_limit_reached_type: null };
const PERMISSION_PROFILE = { type: 'managed', file_system: { type: 'restricted', entries: [{ path: { type: 'special', value: { kind: 'root' } }, access: 'read' }] }, network: 'restricted' };
const COLLAB_INSTRUCTIONS = '# Collaboration Mode: Default\n\n(fake-codex: trimmed)';

const sumUsage = (n) => Object.fromEntries(Object.entries(USAGE).map(([k, v]) => [k, v * n]));

/**
 * What a rollout writer is between processes (toState, then the background finisher).
 * @typedef {{ sessionId: string, cwd?: string, model?: string, path: string, ordinal: number, historySequence: number, userInputOrder: number, responses: number, started: boolean }} RolloutState
 */

export class CodexRollout {
  /**
   * `state` is what toState() returned (used by the background finisher), else a fresh session.
   * @param {{ codexHome?: string, cwd?: string, model?: string, sessionId?: string, state?: RolloutState }} [opts]
   */
  constructor({ codexHome, cwd, model, sessionId = uuidV7(), state } = {}) {
    const s = state ?? { sessionId, cwd, model, path: rolloutPath(codexHome, sessionId), ordinal: 0, historySequence: 0, userInputOrder: 0, responses: 0, started: false };
    this.sessionId = s.sessionId;
    this.cwd = s.cwd;
    this.model = s.model;
    this.path = s.path;
    this.ordinal = s.ordinal;
    this.historySequence = s.historySequence;
    this.userInputOrder = s.userInputOrder;
    this.responses = s.responses;
    this.started = s.started;
  }

  /** @returns {RolloutState} */
  toState() {
    const { sessionId, cwd, model, path, ordinal, historySequence, userInputOrder, responses, started } = this;
    return { sessionId, cwd, model, path, ordinal, historySequence, userInputOrder, responses, started };
  }

  _write(type, payload, extra = {}) {
    appendJsonLine(this.path, { timestamp: new Date().toISOString(), ordinal: this.ordinal++, type, payload, ...extra });
  }

  _meta(extra = {}) {
    return { history_sequence: ++this.historySequence, sampled_through_sequence: 0, client_authored: false, ...extra };
  }

  _settings() {
    return {
      model: this.model, model_provider_id: 'mock', approval_policy: 'on-request', approvals_reviewer: 'user',
      requested_approvals_reviewer: 'user', permission_profile: PERMISSION_PROFILE, cwd: this.cwd,
      runtime_workspace_roots: [this.cwd],
      collaboration_mode: { mode: 'default', settings: { model: this.model, reasoning_effort: null, developer_instructions: COLLAB_INSTRUCTIONS } },
      disabled_plugin_ids: [],
    };
  }

  /** Starts a turn for the user's message; the first turn also writes the session header. */
  startTurn(userText) {
    const now = Date.now();
    const turn = { turnId: uuidV7(now), startedAt: now, responses: 0 };
    const attribution = { turn_id: turn.turnId, turn_trigger: 'user', parent_turn_id: null, initiating_agent_path: null, root_turn_id: turn.turnId };
    const taskStarted = { type: 'task_started', turn_attribution: attribution, turn_id: turn.turnId, root_turn_id: turn.turnId, started_at: Math.floor(now / 1000), model_context_window: R.modelContextWindow, collaboration_mode_kind: 'default' };
    const turnContext = {
      turn_id: turn.turnId, root_turn_id: turn.turnId, disabled_plugin_ids: [], cwd: this.cwd, approval_policy: 'on-request',
      approvals_reviewer: 'user', permission_profile: PERMISSION_PROFILE, model: this.model,
      collaboration_mode: { mode: 'default', settings: { model: this.model, reasoning_effort: null, developer_instructions: COLLAB_INSTRUCTIONS } },
      multi_agent_version: 'v1', realtime_active: false, summary: 'none', sandbox_policy: { type: 'read-only' },
    };
    const settingsApplied = { type: 'thread_settings_applied', thread_id: this.sessionId, thread_settings: this._settings() };
    if (!this.started) {
      this.started = true;
      this._write('session_meta', {
        account_scoped: true, session_id: this.sessionId, id: this.sessionId, timestamp: new Date(now).toISOString(),
        cwd: this.cwd, runtime_workspace_roots: [this.cwd], originator: R.originator, cli_version: AGENT_VERSION,
        source: R.source, thread_source: 'user', model_provider: 'mock',
        base_instructions: { text: R.baseInstructions, provenance: { type: 'model', model: this.model } },
        history_mode: 'paginated', context_window: { window_id: uuidV7(now) }, git: {},
      });
      this._write('event_msg', taskStarted);
      this._write('response_item', {
        type: 'message', id: `msg_${uuidV7(now)}`, role: 'developer',
        content: [{ type: 'input_text', text: '<permissions instructions>\n(fake-codex: trimmed)' }],
        internal_chat_message_metadata_passthrough: { turn_id: turn.turnId, create_time: now / 1000, content_item_kinds: ['permissions.instructions'], content_item_metadata: [{ provenance: { type: 'harness', hook: false } }] },
      }, { metadata: this._meta() });
      this._write('response_item', {
        type: 'message', id: `msg_${uuidV7(now)}`, role: 'user',
        content: [{ type: 'input_text', text: `<environment_context>\n  <cwd>${this.cwd}</cwd>\n  <shell>bash</shell>\n</environment_context>` }],
        internal_chat_message_metadata_passthrough: { turn_id: turn.turnId, create_time: now / 1000, content_item_kinds: ['environments.environment_context'], content_item_metadata: [{ provenance: { type: 'harness', hook: false } }] },
      }, { metadata: this._meta() });
      this._write('world_state', { full: true, state: { model: this.model, environments: { environments: { local: { cwd: this.cwd, status: 'available', shell: 'bash' } } } } });
      this._write('turn_context', turnContext);
      this._write('event_msg', settingsApplied);
    } else {
      this._write('event_msg', settingsApplied);
      this._write('event_msg', taskStarted);
      this._write('turn_context', turnContext);
    }
    const msgId = `msg_${uuidV7()}`;
    this._write('response_item', {
      type: 'message', id: msgId, role: 'user', content: [{ type: 'input_text', text: userText }],
      internal_chat_message_metadata_passthrough: { turn_id: turn.turnId, create_time: Date.now() / 1000, content_item_kinds: ['user.text'], content_item_metadata: [{ provenance: { type: 'user' } }] },
    }, { metadata: this._meta({ user_input_order: this.userInputOrder++ }) });
    const t = Date.now();
    this._write('event_msg', {
      type: 'item_completed', thread_id: this.sessionId, turn_id: turn.turnId,
      item: { type: 'UserMessage', id: uuidV7(), client_id: crypto.randomUUID(), content: [{ type: 'text', text: userText, text_elements: [] }] },
      started_at_ms: t, completed_at_ms: t,
    });
    return turn;
  }

  /** The model proposed a call: `args` is the JSON object put in `arguments`. Returns the call_id. */
  functionCall(turn, args, callId = `call_${hex(16)}`) {
    this._write('response_item', {
      type: 'function_call', status: 'completed', id: `fc_${hex(16)}`, name: R.toolName,
      arguments: JSON.stringify(args), call_id: callId,
      internal_chat_message_metadata_passthrough: { turn_id: turn.turnId },
    }, { metadata: this._meta({ sampled_through_sequence: 3, user_input_order: this.userInputOrder++ }) });
    return callId;
  }

  tokenUsage(turn) {
    this.responses++;
    turn.responses++;
    this._write('token_usage_record', {
      thread_id: this.sessionId, turn_id: turn.turnId, session_id: this.sessionId, root_turn_id: turn.turnId,
      response_id: `resp_${hex(16)}`, usage: USAGE, turn_token_usage: sumUsage(turn.responses), thread_token_usage: sumUsage(this.responses),
    });
  }

  /** `withInfo` false writes `info: null`, as after a stream cut before any usage arrived. */
  tokenCount(withInfo = true) {
    this._write('event_msg', {
      type: 'token_count',
      info: withInfo ? { total_token_usage: sumUsage(this.responses), last_token_usage: USAGE, last_usage_includes_reasoning: false, model_context_window: R.modelContextWindow } : null,
      rate_limits: RATE_LIMITS,
    });
  }

  commandCompleted(turn, { callId, cmd, pid, output, exitCode, startedAtMs, durationMs }) {
    this._write('event_msg', {
      type: 'item_completed', thread_id: this.sessionId, turn_id: turn.turnId,
      item: {
        type: 'CommandExecution', id: callId, process_id: String(pid ?? 0), command: ['/bin/bash', '-lc', cmd],
        cwd: `file://${this.cwd}`, parsed_cmd: [{ type: 'unknown', cmd }], source: 'unified_exec_startup',
        status: 'completed', aggregated_output: output, exit_code: exitCode,
        duration: { secs: Math.floor(durationMs / 1000), nanos: (durationMs % 1000) * 1e6 },
      },
      started_at_ms: startedAtMs, completed_at_ms: Date.now(),
    });
  }

  fileChangeCompleted(turn, { callId, path, content, startedAtMs }) {
    this._write('event_msg', {
      type: 'item_completed', thread_id: this.sessionId, turn_id: turn.turnId,
      item: { type: 'FileChange', id: callId, changes: { [path]: { type: 'add', content } }, status: 'completed', stdout: R.patchStdout(path), stderr: '' },
      started_at_ms: startedAtMs, completed_at_ms: Date.now(),
    });
  }

  functionCallOutput(turn, callId, output) {
    this._write('response_item', {
      type: 'function_call_output', id: `fco_${uuidV7()}`, call_id: callId, output,
      internal_chat_message_metadata_passthrough: { turn_id: turn.turnId, create_time: Date.now() / 1000 },
    }, { metadata: this._meta({ sampled_through_sequence: 3, fallback_token_limit_override: 3000 }) });
  }

  /** The user's abort: the `<turn_aborted>` user message, then the `turn_aborted` event. */
  turnAborted(turn) {
    this._write('response_item', {
      type: 'message', id: `msg_${uuidV7()}`, role: 'user', content: [{ type: 'input_text', text: R.turnAbortedText }],
      internal_chat_message_metadata_passthrough: { turn_id: turn.turnId, create_time: Date.now() / 1000, content_item_kinds: ['generic.turn_aborted'], content_item_metadata: [{ provenance: { type: 'harness', hook: false } }] },
    }, { metadata: this._meta() });
    const now = Date.now();
    this._write('event_msg', {
      type: 'turn_aborted', root_turn_id: turn.turnId, turn_id: turn.turnId, reason: 'interrupted',
      started_at: Math.floor(turn.startedAt / 1000), completed_at: Math.floor(now / 1000), duration_ms: now - turn.startedAt,
    });
  }

  agentMessage(turn, text) {
    const id = `msg_${hex(16)}`;
    const t = Date.now();
    this._write('event_msg', {
      type: 'item_completed', thread_id: this.sessionId, turn_id: turn.turnId,
      item: { type: 'AgentMessage', id, content: [{ type: 'Text', text }] }, started_at_ms: t, completed_at_ms: t,
    });
    this._write('response_item', {
      type: 'message', status: 'completed', id, role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }],
      internal_chat_message_metadata_passthrough: { turn_id: turn.turnId, content_item_kinds: ['unknown'] },
    }, { metadata: this._meta({ user_input_order: this.userInputOrder++ }) });
  }

  taskComplete(turn, lastMessage) {
    const now = Date.now();
    this._write('event_msg', {
      type: 'task_complete', root_turn_id: turn.turnId, turn_id: turn.turnId, last_agent_message: lastMessage,
      started_at: Math.floor(turn.startedAt / 1000), completed_at: Math.floor(now / 1000), duration_ms: now - turn.startedAt, time_to_first_token_ms: 50,
    });
  }
}
