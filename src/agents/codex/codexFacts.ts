// The facts side of the Codex recorder: what this run's rollout and hooks say about calls and
// turns, turned into call_ids, tool inputs, `ran`, `native`, skipped siblings and reasons on the
// events the screen-and-keys side (codexRecorder.ts) wrote.
import type { EventKind, NewEvent, Ran } from '../../core/events.js';
import { nowIso } from '../../core/events.js';
import { NextMessageReasons } from '../../core/nextMessageReason.js';
import type { HookMessage } from '../../core/hookMessage.js';
import type { EventSink } from '../../core/sink.js';
import { EventBook } from '../common/eventBook.js';
import { JsonlFollower, type JsonlLine } from '../common/jsonlFollower.js';
import { callCommand, matchPromptToCall, type KnownCall } from './callMatcher.js';
import { CodexHookPayload } from './hookPayloads.js';
import type { CodexPrompt } from './promptParser.js';
import { isAbortedOutput, isHarnessMessage, messageText, outputText, parseRolloutLine, ranCallOf, type RolloutRecord, toolInputOf } from './rolloutRecords.js';
import { codexStringsFor, type CodexPromptKind, type CodexStrings } from './strings/index.js';

/** `native` keeps the rollout's own words; long tool output is cut to this many characters. */
const NATIVE_OUTPUT_MAX_CHARS = 2_000;

export interface CallState extends KnownCall {
  output?: string;
  aborted?: boolean;
  ran?: Ran;
  fate?: 'approved' | 'rejected' | 'skipped' | 'interrupted' | 'prompt_open';
  native: Record<string, unknown>;
  /** True once the rollout (not only a hook) described the call. */
  fromRollout: boolean;
}

export interface PromptInstance {
  /** The latest drawing of the prompt (the highlight moves, a resize re-wraps it). */
  parsed: CodexPrompt;
  readonly eventId: string;
  callId?: string;
  decision?: { readonly eventId: string; readonly type: 'approval' | 'rejection'; readonly endsTurn: boolean };
  /** Where arrows moved the highlight, until the screen shows it. */
  expectedHighlight?: number;
  /**
   * An interruption written while this approved prompt's call was not in the rollout yet (the
   * rollout trails the screen): it gets the call, and the call its fate, once the call is read.
   */
  interruptionEventId?: string;
  /** The rollout's turn-end count when the prompt was decided (a turn ended since: nothing of it runs). */
  turnEndsAtDecision?: number;
}

export const PROMPT_EVENT_KIND: Record<CodexPromptKind, EventKind> = {
  exec: 'command',
  patch: 'edit',
  permissions: 'permission',
  network: 'network',
  mcp: 'mcp',
};

export abstract class CodexFacts {
  protected readonly _book: EventBook;
  protected _strings: CodexStrings = codexStringsFor(undefined);
  protected readonly _calls = new Map<string, CallState>();
  protected readonly _prompts: PromptInstance[] = [];
  protected _turnOpenInRollout = false;
  /** How many turn ends (task_complete, turn_aborted) the rollout has shown so far. */
  protected _turnEnds = 0;
  protected _turnOpenByHook = false;
  protected _currentTurnId: string | undefined;
  /** Per turn: the call whose rejection or interruption ended it (for skipped siblings). */
  protected readonly _turnCause = new Map<string, string>();
  /** Interruption events not tied to a call, per turn, to confirm with turn_aborted. */
  protected readonly _turnEvents = new Map<string, string[]>();
  /** Rejection events waiting for the user's next message as their reason (the rule merge uses too). */
  protected readonly _reasons = new NextMessageReasons<string>();
  private _follower: JsonlFollower | undefined;
  private _rolloutFromHook = false;
  private _callOrder = 0;

  constructor(protected readonly _sink: EventSink) {
    this._book = new EventBook(_sink);
  }

  protected get _rolloutFile(): string | undefined {
    return this._follower?.file;
  }

  /** Starts following a rollout; a path a hook reported replaces one found by scanning. */
  protected _followRollout(file: string, fromHook: boolean): void {
    if (this._follower?.file === file) return;
    if (this._follower && (this._rolloutFromHook || !fromHook)) return;
    this._rolloutFromHook = fromHook;
    this._follower = new JsonlFollower(file, (line) => this._onRolloutLine(line));
    this._follower.poll();
  }

  protected _pollRollout(): void {
    this._follower?.poll();
  }

  protected _event(event: Omit<NewEvent, 'ts'>): string {
    return this._book.insert({ decided_by: 'user', ...event, ts: nowIso() }).id;
  }

  protected _callFields(call: CallState | undefined): Partial<NewEvent> {
    if (!call) return {};
    return { call_id: call.callId, tool_name: call.toolName, tool_input: call.toolInput as NewEvent['tool_input'] };
  }

  protected _pendingCalls(): CallState[] {
    const claimed = new Set(this._prompts.map((p) => p.callId).filter((id): id is string => id !== undefined));
    return [...this._calls.values()].filter((c) => c.fate === undefined && c.output === undefined && !claimed.has(c.callId));
  }

  /** Ties prompts still without a call to the calls now known. */
  protected _matchPrompts(): void {
    for (const prompt of this._prompts) {
      if (prompt.callId !== undefined) continue;
      const call = matchPromptToCall(prompt.parsed, this._pendingCalls(), this._strings);
      if (call) this._bindPrompt(prompt, call as CallState);
    }
  }

  protected _bindPrompt(prompt: PromptInstance, call: CallState): void {
    prompt.callId = call.callId;
    if (prompt.decision) {
      call.fate = prompt.decision.type === 'approval' ? 'approved' : 'rejected';
      if (prompt.interruptionEventId !== undefined && call.output === undefined) {
        call.fate = 'interrupted';
        this._book.update(prompt.interruptionEventId, { ...this._callFields(call), related_call_id: call.callId });
        if (call.turnId) this._turnCause.set(call.turnId, call.callId);
      }
      if (prompt.decision.type === 'rejection' && prompt.decision.endsTurn && call.turnId) {
        this._turnCause.set(call.turnId, call.callId);
      }
    }
    for (const id of [prompt.eventId, prompt.decision?.eventId]) {
      if (!id) continue;
      this._book.update(id, this._callFields(call));
      this._book.addEvidence(id, call.fromRollout ? 'session_file' : 'hook');
    }
    this._refreshCallEvents(call);
  }

  /** Writes what is known about a call's outcome onto every event about it. */
  protected _refreshCallEvents(call: CallState): void {
    for (const event of this._book.forCall(call.callId)) {
      const patch: Record<string, unknown> = {};
      if (Object.keys(call.native).length) patch.native = { ...call.native };
      if (call.ran === 'yes' && event.type !== 'interruption') patch.ran = 'yes';
      if (call.fromRollout) {
        patch.tool_name = call.toolName;
        patch.tool_input = call.toolInput;
      }
      this._book.update(event.id, patch);
      if (call.output !== undefined || call.native.turn_aborted !== undefined) this._book.addEvidence(event.id, 'session_file');
    }
  }

  private _onRolloutLine(line: JsonlLine): void {
    this._sink.insertAgentRecord({ source_file: line.file, line_no: line.lineNo, byte_offset: line.byteOffset, record: line.text });
    const record = parseRolloutLine(line.text);
    if (record) this._onRecord(record, line.file);
  }

  private _onRecord(record: RolloutRecord, file: string): void {
    if (record.type === 'session_meta') {
      const version = record.payload.cli_version;
      this._strings = codexStringsFor(version);
      this._sink.updateRun({ agent_session_id: record.payload.id, agent_session_file: file, ...(version ? { agent_version: version } : {}) });
      return;
    }
    if (record.type === 'event_msg') {
      const p = record.payload;
      if (p.type === 'task_started' || p.type === 'turn_started') {
        this._turnOpenInRollout = true;
        this._currentTurnId = p.turn_id ?? this._currentTurnId;
      } else if (p.type === 'task_complete' || p.type === 'turn_complete') {
        this._turnEnds++;
        // The hooks have no event for an aborted turn; the rollout's end of turn closes both views.
        this._turnOpenInRollout = false;
        this._turnOpenByHook = false;
        this._reasons.turnCompleted();
      } else if (p.type === 'turn_aborted') {
        this._turnEnds++;
        this._turnOpenInRollout = false;
        this._turnOpenByHook = false;
        this._reasons.armAll();
        this._onTurnAborted(p.turn_id ?? this._currentTurnId ?? '', p.reason ?? 'interrupted');
      } else if (p.type === 'item_completed') {
        const ran = ranCallOf(p.item);
        const call = ran === undefined ? undefined : this._calls.get(ran);
        if (call) {
          call.ran = 'yes';
          this._refreshCallEvents(call);
        }
      }
      return;
    }
    const item = record.payload;
    if (item.type === 'function_call' || item.type === 'custom_tool_call') {
      const toolInput = toolInputOf(item);
      const turnId = item.internal_chat_message_metadata_passthrough?.turn_id ?? this._currentTurnId;
      // A new call means the user's reason, if any, came before it; rejections whose effects the
      // rollout has not reached yet are about this batch (a sibling call) and keep waiting.
      this._reasons.toolCall();
      this._learnCall(item.call_id, item.name, toolInput, turnId, true);
    } else if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') {
      const call = this._calls.get(item.call_id);
      if (!call) return;
      const text = outputText(item.output) ?? '';
      call.output = text;
      call.aborted = isAbortedOutput(text, this._strings);
      this._armReasonsOf(call.callId);
      call.native.output = text.length > NATIVE_OUTPUT_MAX_CHARS ? text.slice(0, NATIVE_OUTPUT_MAX_CHARS) + '…' : text;
      if (!call.aborted) call.ran = 'yes';
      this._refreshCallEvents(call);
    } else if (item.type === 'message' && item.role === 'user') {
      const text = messageText(item);
      if (!isHarnessMessage(item, text, this._strings)) this._onUserMessage(text);
    }
  }

  protected _learnCall(callId: string, toolName: string, toolInput: unknown, turnId: string | undefined, fromRollout: boolean): void {
    const known = this._calls.get(callId);
    if (known) {
      if (fromRollout && !known.fromRollout) {
        Object.assign(known, { toolName, toolInput, fromRollout: true, ...(turnId ? { turnId } : {}) });
        this._refreshCallEvents(known);
      }
      return;
    }
    const call: CallState = { callId, toolName, toolInput, order: ++this._callOrder, native: {}, fromRollout, ...(turnId ? { turnId } : {}) };
    this._calls.set(callId, call);
    this._matchPrompts();
  }

  private _onUserMessage(text: string): void {
    for (const eventId of this._reasons.userMessage()) this._book.update(eventId, { reason: text, reason_source: 'next_message' });
  }

  /** The rollout reached the outcome of `callId`: its rejection now waits for the next message. */
  private _armReasonsOf(callId: string): void {
    const eventIds = new Set(this._prompts.filter((p) => p.callId === callId && p.decision?.type === 'rejection').map((p) => p.decision!.eventId));
    this._reasons.arm(eventIds);
  }

  private _onTurnAborted(turnId: string, reason: string): void {
    const turnCalls = [...this._calls.values()].filter((c) => c.turnId === turnId);
    const cause = this._turnCause.get(turnId);
    for (const call of turnCalls) {
      call.native.turn_aborted = reason;
      if (call.fate === undefined && cause !== undefined && cause !== call.callId) {
        call.fate = 'skipped';
        this._event({
          type: 'skipped',
          kind: this._strings.patchFileRow.test(callCommand(call, this._strings) ?? '') ? PROMPT_EVENT_KIND.patch : PROMPT_EVENT_KIND.exec,
          ...this._callFields(call),
          decided_by: null,
          related_call_id: cause,
          ran: call.ran === 'yes' ? 'yes' : 'no',
          evidence: ['session_file'],
        });
      }
      this._refreshCallEvents(call);
    }
    for (const id of this._turnEvents.get(turnId) ?? []) {
      const event = this._book.get(id);
      this._book.update(id, { native: { ...((event?.native as object | null) ?? {}), turn_aborted: reason } });
      this._book.addEvidence(id, 'session_file');
    }
  }

  protected _onHook(message: HookMessage): void {
    if (message.agent !== 'codex') return;
    const parsed = CodexHookPayload.safeParse(message.payload);
    if (!parsed.success) return;
    const p = parsed.data;
    if (p.transcript_path) this._followRollout(p.transcript_path, true);
    if (p.session_id) this._sink.updateRun({ agent_session_id: p.session_id });
    switch (message.event) {
      case 'UserPromptSubmit':
        this._turnOpenByHook = true;
        // Read the rollout first: the end of the rejected turn there arms the rejection for this message.
        this._pollRollout();
        if (p.prompt !== undefined) this._onUserMessage(p.prompt);
        break;
      case 'Stop':
        this._turnOpenByHook = false;
        break;
      case 'PreToolUse':
        if (p.tool_use_id) this._learnCall(p.tool_use_id, p.tool_name ?? 'unknown', { command: p.tool_input?.command }, p.turn_id, false);
        break;
      case 'PostToolUse': {
        const call = p.tool_use_id ? this._calls.get(p.tool_use_id) : undefined;
        if (call) {
          call.ran = 'yes';
          this._refreshCallEvents(call);
          for (const e of this._book.forCall(call.callId)) this._book.addEvidence(e.id, 'hook');
        }
        break;
      }
      default:
        break;
    }
    this._pollRollout();
  }
}
