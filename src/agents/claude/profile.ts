// What is Claude Code's own in recording it, for the shared recorder (agents/common/agentRecorder.ts):
// its screen (screenParser.ts), its option texts, its transcript and hook payloads translated into
// session facts, and which transcript is this run's (the session id rec gave it, or a hook's word).
//
// Subagents: each writes its own transcript beside the main one (subagents/agent-<id>.jsonl, with
// the parent Agent call's id in agent-<id>.meta.json), followed as a companion file. Its calls and
// results are facts like the main file's, marked with native agent_id / parent_call_id; its own
// prompt, answers and end of turn are not the main thread's and give no turn facts. A prompt whose
// title names a subagent shows only a subagent's call, and a main prompt only a main call.
//
// Turns and batches: a turn opens with the user's prompt line (its uuid is the turn id) and ends
// with an answer's stop_reason or an interrupt marker; the tool calls of one API message (one
// message.id) are one batch, and that id is their turn id for batch fates, so that the siblings
// of a refused call — cancelled with it in identical lines — are skipped because of it.
import type { EventKind } from '../../core/events.js';
import type { HookMessage } from '../../core/hookMessage.js';
import { toRejectionKind } from '../../readers/action.js';
import { meaningByLabelPrefix } from '../common/optionKeys.js';
import type { AgentProfile, OptionRules, ProfileContext, ScreenReading, SessionChoice, SessionFact } from '../common/agentProfile.js';
import { isoTimestampOf, runStartOffset, sizesUntouchedSince } from '../common/runPart.js';
import type { KnownCall } from '../common/callLedger.js';
import { promptShowsCall } from './callMatcher.js';
import { ClaudeHookPayload } from './hookPayloads.js';
import { CLAUDE_SESSION_ENV } from './launch.js';
import { parseClaudeScreen, type ClaudePrompt, type ClaudeRenderer } from './screenParser.js';
import { subagentOf, subagentTranscripts } from './subagent.js';
import { claudeStringsFor, type ClaudeStrings } from './strings/index.js';
import { CLAUDE_TOOLS } from './tools.js';
import { findTranscript, listTranscripts } from './sessionLocator.js';
import {
  interruptMarker,
  isSubagentTool,
  judgeResult,
  parseTranscriptLine,
  reasonFromText,
  resultText,
  textsOf,
  toolResultsOf,
  toolUsesOf,
  type ClaudeLine,
  type ToolResultBlock,
} from './sessionRecords.js';
import type { RunStart } from '../common/runPart.js';

export type ClaudePromptView = ClaudePrompt;

interface HookCall {
  readonly callId: string;
  readonly toolName: string;
  readonly toolInput: unknown;
  readonly promptId?: string;
  /** The subagent that made the call (hooks from a subagent carry agent_id); undefined for the main thread. */
  readonly agentId?: string;
}

/** Whose a subagent transcript is: the agent's id, and the Agent call that started it once its meta file says. */
interface SubagentFile {
  readonly agentId: string | undefined;
  parentCallId: string | undefined;
}

export class ClaudeProfile implements AgentProfile<ClaudePromptView> {
  readonly agent = 'claude';
  // The reason is typed into the prompt (Tab): the next message is not taken as one (merge agrees, joinSession.ts).
  readonly reasonPolicy = 'inline' as const;
  /** The renderer the screen last showed; the user's choice, read, never changed (issue 14). */
  private _renderer: ClaudeRenderer | undefined;
  // A key pressed while the prompt is still being drawn is dropped (issue 14); the recorder takes
  // such a decision back when the prompt is still there, unchanged, CLAUDE_IGNORED_KEY_SETTLE_MS later.
  readonly dropsKeys = true;
  private _strings: ClaudeStrings = claudeStringsFor(undefined);
  private readonly _sessionId: string | undefined;
  /** The transcripts' sizes as the run started (resumed runs only): what they held is earlier. */
  private readonly _sizesAtStart: ReadonlyMap<string, number>;
  private _sessionSaid = false;
  private _versionSaid = false;
  /** The message id of the latest batch of tool calls. */
  private _lastBatch: string | undefined;
  /** Messages whose end of turn was read (each content block repeats the message's stop_reason). */
  private readonly _ended = new Set<string>();
  private readonly _toolNames = new Map<string, string>();
  /** The message Claude cut mid-stream and kept (isAbortedMidStream). */
  private _abortedMidStream: string | undefined;
  /** PreToolUse calls, latest last: what a PermissionRequest (which names no call) is matched to. */
  private readonly _preToolUse: HookCall[] = [];
  /** The call of the latest PermissionRequest: the one whose prompt shows now. */
  private _requested: HookCall | undefined;
  /** Per subagent transcript: whose it is, and the Agent call that started it once its meta file says. */
  private readonly _subagentFiles = new Map<string, SubagentFile>();
  /** Calls a subagent made (from its transcript or its hooks), with the agent's id. */
  private readonly _subagentCalls = new Map<string, string>();

  constructor(private readonly _ctx: ProfileContext) {
    this._sessionId = _ctx.env[CLAUDE_SESSION_ENV] || undefined;
    // Only a resumed run appends to an earlier transcript; a new one is all this run's.
    this._sizesAtStart = this._sessionId === undefined ? sizesUntouchedSince(listTranscripts(_ctx.env), _ctx.startedAt) : new Map();
  }

  /**
   * The full-screen renderer rewrites only changed cells: a prompt is never half-drawn in a frame.
   * The inline one erases and rewrites its live area line by line with no synchronized output
   * (recorded-inline/*.cast: no `?2026h`), so a frame read between two writes can miss the prompt.
   */
  get redrawsInPlace(): boolean {
    return this._renderer === 'inline';
  }

  get optionRules(): OptionRules {
    const strings = this._strings;
    return {
      meaning: meaningByLabelPrefix(strings.optionMeanings),
      hiddenRejectLetters: [],
      selectionWraps: strings.selectionWraps,
      // Claude ignores Ctrl+C while a permission dialog is open (README §1: nothing, no trace).
      ctrlCRejects: false,
      // Esc or Ctrl+C while a tool runs or a reply streams interrupts.
      ctrlCInterrupts: true,
      // Esc is not an option of the prompt: Claude cannot tell it from No in its transcript, rec can.
      escChoosesRejectOption: false,
      amends: (label, prompt) => 'amendable' in prompt && prompt.amendable === true && strings.amendLabels.some((a) => a.label === label),
    };
  }

  setVersion(version: string | undefined): void {
    this._strings = claudeStringsFor(version);
  }

  readScreen(snapshot: Parameters<AgentProfile['readScreen']>[0]): ScreenReading<ClaudePromptView> {
    const s = parseClaudeScreen(snapshot, this._strings);
    if (s.renderer) this._renderer = s.renderer;
    return {
      ...(s.prompt ? { prompt: s.prompt } : {}),
      working: s.working,
      ...(s.answerText !== undefined ? { answerText: s.answerText } : {}),
      userMessages: s.userMessages,
      decisionRows: s.decisionRows,
    };
  }

  /** Claude sends no state the screen could be checked against (~/.claude/sessions/<pid>.json is not read yet). */
  promptMayBeOpen(): boolean {
    return true;
  }

  promptShowsCall(prompt: ClaudePromptView, call: KnownCall): boolean {
    // The title says whose the prompt is: the same command may be pending in both threads.
    if ((prompt.subagent !== undefined) !== this._subagentCalls.has(call.callId)) return false;
    if (!promptShowsCall(prompt, call)) return false;
    // Two calls the prompt could show (the same command twice in a batch): the PermissionRequest
    // names the one asked about.
    const requested = this._requested;
    if (requested && requested.callId !== call.callId && promptShowsCall(prompt, { ...requested, order: 0 })) return false;
    return true;
  }

  callKind(call: KnownCall): EventKind {
    return toRejectionKind(CLAUDE_TOOLS, call.toolName) ?? 'command';
  }

  translateRecord(text: string, file?: string): SessionFact[] {
    const line = parseTranscriptLine(text);
    if (!line) return [];
    if (file !== undefined) return this._subagentRecord(line, file);
    // Sidechain lines are a subagent's: read from its own file (companionFiles), not here.
    if (line.isSidechain === true) return [];
    const facts = this._sessionFacts(line);
    if (line.type === 'assistant') return [...facts, ...this._assistant(line)];
    return [...facts, ...this._user(line)];
  }

  companionFiles(sessionFile: string): readonly string[] {
    return subagentTranscripts(sessionFile);
  }

  translateHook(message: HookMessage): SessionFact[] {
    if (message.agent !== this.agent) return [];
    const parsed = ClaudeHookPayload.safeParse(message.payload);
    if (!parsed.success) return [];
    const p = parsed.data;
    const facts: SessionFact[] = [];
    // A subagent's events name the main transcript too; only the main thread's are taken for it.
    const main = p.agent_id === undefined;
    if (main && p.transcript_path) facts.push({ type: 'session_file', file: p.transcript_path });
    if (main && p.session_id && !this._sessionSaid) {
      this._sessionSaid = true;
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
          if (p.agent_id) this._subagentCalls.set(call.callId, p.agent_id);
          const native = p.agent_id ? this._subagentNative(p.agent_id) : undefined;
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
        // The only hook that carries a reason typed after Tab (README §3): a second channel beside the transcript.
        for (const c of p.tool_calls ?? []) {
          const text = resultText(c.tool_response);
          const reason = text === null ? null : reasonFromText(text, this._strings);
          if (text !== null && reason !== null) facts.push({ type: 'output', callId: c.tool_use_id, text, aborted: true, reason });
        }
        break;
      case 'PermissionDenied':
        // Fired only when the auto-mode classifier denies a call.
        if (p.tool_use_id) facts.push({ type: 'refused', callId: p.tool_use_id, decidedBy: 'reviewer', trigger: 'rule', source: 'hook' });
        break;
      default:
        break;
    }
    return facts;
  }

  chooseSessionFile(): SessionChoice {
    // The session id is the one rec gave Claude (--session-id, launch.ts): its transcript is ours.
    const file = this._sessionId === undefined ? undefined : findTranscript(this._ctx.env, this._sessionId);
    return file === undefined ? { type: 'fits', files: [] } : { type: 'named', file: { file, from: this.runStartsAt(file) } };
  }

  /**
   * A resumed session (--continue, --resume) appends to its transcript: what was there when the run
   * started is earlier, trailing unstamped records too (runPart.ts).
   */
  runStartsAt(file: string): RunStart {
    return runStartOffset(file, this._ctx.startedAt, isoTimestampOf, this._sizesAtStart.get(file));
  }

  dispose(): void {
    // Nothing held: the locator and the parser read files and screens on demand.
  }

  /**
   * A line of a subagent's transcript: its calls and their results, marked with the subagent; its
   * prompt, answers and end of turn are the subagent's own, not the main thread's turn.
   */
  private _subagentRecord(line: ClaudeLine, file: string): SessionFact[] {
    const uses = line.type === 'assistant' ? toolUsesOf(line) : [];
    const results = line.type === 'user' ? toolResultsOf(line) : [];
    if (uses.length === 0 && results.length === 0) return [];
    const native = this._subagentFileNative(file, line.agentId);
    const facts: SessionFact[] = [];
    for (const use of uses) {
      const toolName = use.name ?? 'unknown';
      this._toolNames.set(use.id, toolName);
      if (native.agent_id !== undefined) this._subagentCalls.set(use.id, String(native.agent_id));
      // Its own batch (its message id): a refusal in it never makes the main thread's calls skipped.
      facts.push({ type: 'call', callId: use.id, toolName, toolInput: use.input, ...(line.message.id !== undefined ? { turnId: line.message.id } : {}), source: 'session_file', native });
    }
    for (const r of results) facts.push(...this._result(line, r, native));
    return facts;
  }

  /** agent_id and parent_call_id of a subagent file; the meta file is read again until it names the parent. */
  private _subagentFileNative(file: string, lineAgentId: string | undefined): Record<string, unknown> {
    let known = this._subagentFiles.get(file);
    if (!known || known.parentCallId === undefined) {
      const of = subagentOf(file);
      known = { agentId: of?.agent_id ?? lineAgentId, parentCallId: of?.parent_call_id ?? undefined };
      this._subagentFiles.set(file, known);
    }
    return known.agentId === undefined ? {} : this._subagentNative(known.agentId);
  }

  private _subagentNative(agentId: string): Record<string, unknown> {
    const parent = [...this._subagentFiles.values()].find((f) => f.agentId === agentId && f.parentCallId !== undefined)?.parentCallId;
    return { agent_id: agentId, ...(parent !== undefined ? { parent_call_id: parent } : {}) };
  }

  private _sessionFacts(line: ClaudeLine): SessionFact[] {
    const version = !this._versionSaid ? line.version : undefined;
    const sessionId = !this._sessionSaid ? line.sessionId : undefined;
    if (version === undefined && sessionId === undefined) return [];
    if (version !== undefined) this._versionSaid = true;
    if (sessionId !== undefined) this._sessionSaid = true;
    return [{ type: 'session', ...(sessionId !== undefined ? { sessionId } : {}), ...(version !== undefined ? { version } : {}) }];
  }

  private _assistant(line: ClaudeLine): SessionFact[] {
    const id = line.message.id;
    if (line.isAbortedMidStream === true && id !== undefined) this._abortedMidStream = id;
    const facts: SessionFact[] = [];
    for (const use of toolUsesOf(line)) {
      const toolName = use.name ?? 'unknown';
      this._toolNames.set(use.id, toolName);
      if (id !== undefined) this._lastBatch = id;
      facts.push({ type: 'call', callId: use.id, toolName, toolInput: use.input, ...(id !== undefined ? { turnId: id } : {}), source: 'session_file' });
    }
    const stop = line.message.stop_reason;
    if (stop && stop !== 'tool_use' && id !== undefined && !this._ended.has(id)) {
      this._ended.add(id);
      facts.push({ type: 'turn_completed', source: 'session_file' });
    }
    return facts;
  }

  private _user(line: ClaudeLine): SessionFact[] {
    const results = toolResultsOf(line);
    if (results.length > 0) return results.flatMap((r) => this._result(line, r));
    const text = textsOf(line).join('\n');
    const marker = interruptMarker(text, this._strings);
    const cut = line.interruptedMessageId;
    if (marker === 'tool') {
      const turnId = cut ?? this._lastBatch;
      return [{ type: 'turn_aborted', ...(turnId !== undefined ? { turnId } : {}), reason: text.trim(), ...(cut ? { native: { interruptedMessageId: cut } } : {}) }];
    }
    if (marker === 'response') {
      // Claude keeps the partial answer in the transcript (isAbortedMidStream): the event points at it.
      const native = cut ? { interruptedMessageId: cut, ...(this._abortedMidStream === cut ? { isAbortedMidStream: true } : {}) } : undefined;
      return [{ type: 'turn_aborted', reason: text.trim(), ...(native ? { native } : {}) }];
    }
    if (text.trim() === '' || this._strings.harnessText.test(text)) return [];
    return [
      // The turn's id only: whether a turn works is the screen's to say (the transcript trails the
      // screen; an idle input prompt with the interrupt marker not read yet is not a working turn).
      { type: 'turn_started', ...(line.uuid !== undefined ? { turnId: line.uuid } : {}), source: 'session_file', endMarked: false },
      { type: 'user_message', text, source: 'session_file' },
    ];
  }

  /** What a tool_result says, by the rule merge uses too (sessionRecords.ts judgeResult). */
  private _result(line: ClaudeLine, result: ToolResultBlock, subagent: Record<string, unknown> = {}): SessionFact[] {
    const callId = result.toolUseId;
    const verdict = judgeResult(line, result, this._toolNames.get(callId) ?? null, this._strings);
    const text = result.output ?? '';
    const native = compact({
      ...subagent,
      is_error: result.isError || undefined,
      toolDenialKind: line.toolDenialKind,
      toolDenialBeforeRun: line.toolDenialBeforeRun,
      permissionDecision: line.permissionDecision,
    });
    const output = (aborted: boolean, reason?: string | null): SessionFact => ({
      type: 'output',
      callId,
      text,
      aborted,
      ...(reason !== undefined && reason !== null ? { reason } : {}),
      ...(Object.keys(native).length ? { native } : {}),
    });
    switch (verdict.type) {
      case 'approved':
      case 'ran':
        return [output(false)];
      case 'refused':
        if (verdict.decidedBy === 'user') return [output(true, verdict.reason)];
        return [output(true), { type: 'refused', callId, decidedBy: verdict.decidedBy, trigger: verdict.decidedBy === 'hook' ? 'hook' : 'rule', source: 'session_file' }];
      case 'refused_before_run':
      case 'refused_in_subagent':
        return [output(true)];
      case 'interrupted_running':
        // Written as a rejection, but it had started: it ran (and was cut). Cutting an Agent call is
        // a subagent interruption, as merge says (sessionReader.ts).
        return [output(true), { type: 'ran', callId, source: 'session_file' }, { type: 'cut', callId, kind: isSubagentTool(this._toolNames.get(callId) ?? null) ? 'subagent' : 'tool' }];
      case 'denied_by_policy':
        return [output(true), { type: 'refused', callId, decidedBy: verdict.decidedBy, trigger: verdict.decidedBy, kind: 'permission', source: 'session_file' }];
    }
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

function compact(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out;
}
