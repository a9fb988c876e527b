// What is GitHub Copilot CLI's own in recording it, for the shared recorder
// (agents/common/agentRecorder.ts): its screen (screenParser.ts), its option texts (optionRules.ts),
// its events.jsonl translated into session facts (docs/copilot.md §3-§5), its hook payloads, and
// which session folder is this run's (sessionLocator.ts).
//
// A call's decision is in the file before its outcome: `permission.completed` (Copilot's own word,
// judged by sessionRecords.ts judgeDecision, the rule merge uses too), then
// `tool.execution_complete`. A prompt cancelled by Esc or Ctrl+C gets no completion at all: every
// call pending then is written `cancelled` / "Session aborted" at once, and the first of them in the
// order of the requests is the one that was on screen (§12). A call cut while it ran gets no
// completion either, only the turn's `abort`.
import { z } from 'zod';
import type { EventKind } from '../../core/events.js';
import type { HookMessage } from '../../core/hookMessage.js';
import { toRejectionKind } from '../../readers/action.js';
import { isObject } from '../../readers/nativeSession.js';
import { agentProcessTree } from '../common/agentsBeside.js';
import type { AgentProfile, OptionRules, ProfileContext, ScreenReading, SessionChoice, SessionFact, SessionWitness } from '../common/agentProfile.js';
import type { KnownCall } from '../common/callLedger.js';
import type { RunStart } from '../common/runPart.js';
import { copilotOptionRules } from './optionRules.js';
import type { CopilotPrompt } from './promptBox.js';
import { parseCopilotScreen } from './screenParser.js';
import { CopilotSessionChooser, promptShowsRequest } from './sessionLocator.js';
import {
  Abort,
  AssistantMessage,
  completionText,
  EVENT_TEXTS,
  judgeDecision,
  PermissionCompleted,
  parseEventLine,
  PermissionRequested,
  rejectionKindOfRequest,
  ruleDenialOf,
  SessionStart,
  ToolExecutionComplete,
  ToolExecutionStart,
  UserMessage,
  type Decision,
} from './sessionRecords.js';
import { copilotStringsFor, type CopilotStrings } from './strings/index.js';
import { COPILOT_TOOLS } from './tools.js';

type PermissionRequest = z.infer<typeof PermissionRequested>['permissionRequest'];


/** What the file said of a call so far. */
interface CallState {
  /** The prompt Copilot put for it (a URL prompt, then the shell prompt, for one call: the last). */
  request?: PermissionRequest;
  /** The last decision of a person (or a rule) on it. */
  decision?: Decision;
  /** Copilot's own word for that decision (`result.kind`), kept as the file's word. */
  resultKind?: string;
  /** `tool.execution_start` was written (before any prompt: not a sign that it ran). */
  started: boolean;
  /** `tool.execution_complete`, or a cancel that ends it, was read. */
  finished: boolean;
}

export class CopilotProfile implements AgentProfile<CopilotPrompt> {
  readonly agent = 'copilot';
  /** The reason is typed into the prompt ("No, and tell Copilot what to do differently"). */
  readonly reasonPolicy = 'inline';
  /** Every refused call gets its `permission.completed` before the turn's end. */
  readonly writesRefusedCalls = true;
  /** `permission.completed` is per toolCallId: a decision word names that call's own prompt. */
  readonly decisionsNameTheirCall = true;
  /** Copilot redraws only the cells that changed: a frame read between two writes may show half a box. */
  readonly redrawsInPlace = true;
  /** No dropped key was seen in 1.0.102. */
  readonly dropsKeys = false;
  private _strings: CopilotStrings;
  private readonly _chooser: CopilotSessionChooser;
  /** The envelope id of the user message that opened the current turn: the turn id. */
  private _turnId: string | undefined;
  private readonly _calls = new Map<string, CallState>();
  /** Calls whose prompt was requested and not decided yet, in the order of the requests. */
  private readonly _awaiting: string[] = [];
  /**
   * The call on screen when the turn was cut at a prompt (the first of the queue then): the one
   * refused, whichever Copilot writes first, its "Session aborted" or the `abort` (both orders were
   * seen on the real 1.0.102); the others only follow it. Reset by the next user message.
   */
  private _cutOnScreen: string | undefined;

  constructor(private readonly _ctx: ProfileContext) {
    this._strings = copilotStringsFor(undefined);
    const agentPid = _ctx.agentPid;
    this._chooser = new CopilotSessionChooser(_ctx.env, _ctx.cwd, _ctx.startedAt, agentPid === undefined ? {} : { runPids: () => agentProcessTree(agentPid) });
  }

  get optionRules(): OptionRules {
    return copilotOptionRules(this._strings);
  }

  setVersion(version: string | undefined): void {
    this._strings = copilotStringsFor(version);
  }

  readScreen(snapshot: Parameters<AgentProfile['readScreen']>[0]): ScreenReading<CopilotPrompt> {
    const s = parseCopilotScreen(snapshot, this._strings);
    return {
      ...(s.prompt ? { prompt: s.prompt } : {}),
      // The folder trust dialog and ask_user's form answer keys of their own: none cuts a turn.
      ...(s.unreadOptionList || s.dialog !== undefined ? { unreadOptionList: true } : {}),
      // A cut turn winding down ("◉ Cancelling") takes no further cut.
      working: s.working && !s.cancelling,
      ...(s.interruptArmed ? { interruptArmed: true } : {}),
      ...(s.answerText !== undefined ? { answerText: s.answerText } : {}),
      userMessages: s.userMessages,
      decisionRows: s.decisionRows,
      ...(s.sessionId !== undefined ? { sessionId: s.sessionId } : {}),
      ...(s.bannerVersion !== undefined ? { bannerVersion: s.bannerVersion } : {}),
    };
  }

  /** Copilot sends no state the screen could be checked against. */
  promptMayBeOpen(): boolean {
    return true;
  }

  promptShowsCall(prompt: CopilotPrompt, call: KnownCall): boolean {
    // The request read last, else the call's own input: the box is often drawn before the recorder's
    // next read of its request (a URL prompt's call asked again about its command has the URL's
    // request still), and reading the request later tells the shared recorder no fact that would
    // match the prompt again, so a prompt unmatched here kept no call (recorder.test.ts replays it with the request held back).
    const request = this._calls.get(call.callId)?.request;
    if (request !== undefined && promptShowsRequest(prompt, request)) return true;
    const asked = requestOfInput(prompt, call);
    return asked !== undefined && promptShowsRequest(prompt, asked);
  }

  callKind(call: KnownCall): EventKind {
    const request = this._calls.get(call.callId)?.request;
    return rejectionKindOfRequest(request?.kind ?? null) ?? toRejectionKind(COPILOT_TOOLS, call.toolName) ?? 'command';
  }

  translateRecord(text: string): SessionFact[] {
    const envelope = parseEventLine(text);
    if (!envelope) return [];
    const { type, data, id } = envelope;
    switch (type) {
      case 'session.start': {
        const d = SessionStart.safeParse(data);
        return d.success ? [{ type: 'session', sessionId: d.data.sessionId, ...(d.data.copilotVersion !== undefined ? { version: d.data.copilotVersion } : {}) }] : [];
      }
      case 'user.message': {
        const d = UserMessage.safeParse(data);
        if (!d.success) return [];
        this._turnId = id;
        // A new user turn: what waited for an answer in the last one was answered or cut with it.
        this._awaiting.length = 0;
        this._cutOnScreen = undefined;
        // A user turn ends with its last assistant.turn_end, which only the next message shows to be the last: the screen tells.
        return [{ type: 'turn_started', ...(id !== undefined ? { turnId: id } : {}), source: 'session_file', endMarked: false }, { type: 'user_message', text: d.data.content, source: 'session_file' }];
      }
      case 'assistant.message':
        return this._requestedCalls(AssistantMessage.safeParse(data).data?.toolRequests ?? []);
      case 'tool.execution_start': {
        const d = ToolExecutionStart.safeParse(data);
        if (d.success) this._call(d.data.toolCallId).started = true;
        return [];
      }
      case 'permission.requested': {
        const d = PermissionRequested.safeParse(data);
        const callId = d.data?.permissionRequest.toolCallId;
        if (!d.success || callId === undefined) return [];
        this._call(callId).request = d.data.permissionRequest;
        if (!this._awaiting.includes(callId)) this._awaiting.push(callId);
        return [];
      }
      case 'permission.completed':
        return this._completed(PermissionCompleted.safeParse(data).data);
      case 'tool.execution_complete':
        return this._finished(ToolExecutionComplete.safeParse(data).data);
      case 'abort':
        return this._aborted(Abort.safeParse(data).data?.reason ?? 'abort');
      default:
        return [];
    }
  }

  /**
   * rec installs no hooks for Copilot: its hooks are read only from the user's own folders, and no
   * payload carries the call's toolCallId (docs/copilot.md §8). Any message is another agent's.
   */
  translateHook(_message: HookMessage): SessionFact[] {
    return [];
  }

  chooseSessionFile(witness: SessionWitness<CopilotPrompt>): SessionChoice {
    return this._chooser.choose(witness);
  }

  runStartsAt(file: string): RunStart {
    return this._chooser.runStartsAt(file);
  }

  dispose(): void {
    // Nothing held: Copilot deletes no session file, so no candidate is kept open.
  }

  private _call(callId: string): CallState {
    let state = this._calls.get(callId);
    if (!state) this._calls.set(callId, (state = { started: false, finished: false }));
    return state;
  }

  private _requestedCalls(requests: ReadonlyArray<{ toolCallId: string; name: string; arguments?: unknown }>): SessionFact[] {
    return requests.map((r) => {
      this._call(r.toolCallId);
      return { type: 'call', callId: r.toolCallId, toolName: r.name, toolInput: r.arguments ?? null, ...(this._turnId ? { turnId: this._turnId } : {}), source: 'session_file' } as const;
    });
  }

  /** A prompt answered: a person's or a rule's decision; a queue cancelled by Esc or Ctrl+C ends its calls here. */
  private _completed(d: z.infer<typeof PermissionCompleted> | undefined): SessionFact[] {
    const callId = d?.toolCallId;
    if (d === undefined || callId === undefined) return [];
    const state = this._call(callId);
    const decision = judgeDecision(d, state.request?.kind ?? null);
    const onScreen = this._awaiting[0];
    const at = this._awaiting.indexOf(callId);
    if (at >= 0) this._awaiting.splice(at, 1);
    if (decision.type !== 'cancelled') {
      state.decision = decision;
      state.resultKind = d.result.kind;
      return [];
    }
    // "Session aborted": no completion follows. The call first in the queue was on screen and refused; its siblings only follow.
    state.finished = true;
    this._cutOnScreen ??= onScreen;
    const refused = callId === this._cutOnScreen;
    return [{ type: 'output', callId, text: '', aborted: true, ...(refused ? { decision: `cancelled: ${EVENT_TEXTS.sessionAborted}` } : {}), native: { permission_result: d.result.kind, reason: EVENT_TEXTS.sessionAborted } }];
  }

  private _finished(d: z.infer<typeof ToolExecutionComplete> | undefined): SessionFact[] {
    if (d === undefined) return [];
    const state = this._call(d.toolCallId);
    state.finished = true;
    const text = completionText(d) ?? '';
    const rules = ruleDenialOf(d.error);
    if (rules !== undefined) {
      // A `--deny-tool` rule refused it: no prompt, no permission event, the turn goes on.
      return [
        { type: 'refused', callId: d.toolCallId, decidedBy: 'rule', trigger: 'rule', native: { permission_rule: rules.join(', '), message: d.error?.message ?? '' }, source: 'session_file' },
        { type: 'output', callId: d.toolCallId, text, aborted: true },
      ];
    }
    const decision = state.decision;
    const byPerson = decision !== undefined && decision.type !== 'unknown' && decision.type !== 'cancelled' && decision.decidedBy === 'user';
    const reason = decision?.type === 'rejection' && decision.reason !== null ? decision.reason : undefined;
    return [
      {
        type: 'output',
        callId: d.toolCallId,
        text,
        aborted: d.success !== true,
        ...(reason !== undefined ? { reason } : {}),
        ...(byPerson && state.resultKind !== undefined ? { decision: state.resultKind } : {}),
        ...(state.resultKind !== undefined ? { native: { permission_result: state.resultKind } } : {}),
      },
    ];
  }

  /** The turn was cut: a call let through and never finished was running, and was cut with it. */
  private _aborted(reason: string): SessionFact[] {
    const facts: SessionFact[] = [];
    // A queue still waiting for an answer: its calls get their "Session aborted" after this line.
    this._cutOnScreen ??= this._awaiting[0];
    for (const [callId, state] of this._calls) {
      if (!state.started || state.finished || this._awaiting.includes(callId)) continue;
      if (state.decision !== undefined && state.decision.type !== 'approval') continue;
      state.finished = true;
      facts.push({ type: 'output', callId, text: '', aborted: true, decision: 'aborted by user', native: { abort_reason: reason } }, { type: 'ran', callId, source: 'session_file' });
    }
    return [...facts, { type: 'turn_aborted', ...(this._turnId ? { turnId: this._turnId } : {}), reason }];
  }
}

/** A URL a shell command names: what its URL prompt asks about (docs/copilot.md §3). */
const URL_NAMED = /\bhttps?:\/\/[^\s'"]+/;

/**
 * What a prompt of this body would ask about the call, from the call's own input (docs/copilot.md
 * §1, §3): bash's `command`, and a URL it names; create's and edit's `path`; the `path` a tool reads;
 * an MCP tool's title (its name is `<server>-<tool>`). Undefined where the call's tool gets no such prompt.
 */
function requestOfInput(prompt: CopilotPrompt, call: KnownCall): PermissionRequest | undefined {
  const input = isObject(call.toolInput) ? call.toolInput : {};
  const text = (key: string) => (typeof input[key] === 'string' ? input[key] : undefined);
  const kind = toRejectionKind(COPILOT_TOOLS, call.toolName);
  switch (prompt.body) {
    case 'command':
      return kind === 'command' ? { kind: 'shell', fullCommandText: text('command') } : undefined;
    case 'url':
      return kind === 'command' ? { kind: 'url', url: URL_NAMED.exec(text('command') ?? '')?.[0] } : undefined;
    case 'file':
      return kind === 'edit' ? { kind: 'write', fileName: text('path') } : undefined;
    case 'path':
      return { kind: 'read', path: text('path') };
    case 'tool':
      return kind === 'mcp' ? { kind: 'mcp', toolTitle: call.toolName.slice(call.toolName.indexOf('-') + 1) } : undefined;
  }
}
