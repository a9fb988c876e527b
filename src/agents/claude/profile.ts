// What is Claude Code's own in recording it, for the shared recorder (agents/common/agentRecorder.ts):
// its screen (screenParser.ts), its option texts, its transcript and hook payloads translated into
// session facts (transcriptFacts.ts, hookFacts.ts, sharing factContext.ts), and which transcript is
// this run's (the session id rec gave it, or a hook's word).
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
import { showsOptionList } from '../common/optionList.js';
import type { AgentProfile, OptionRules, ProfileContext, ScreenReading, SessionChoice, SessionFact } from '../common/agentProfile.js';
import { isoTimestampOf, runStartOffset, sizesUntouchedSince } from '../common/runPart.js';
import type { KnownCall } from '../common/callLedger.js';
import { promptShowsCall } from './callMatcher.js';
import { SubagentLedger, type ClaudeFactContext } from './factContext.js';
import { HookFacts } from './hookFacts.js';
import { CLAUDE_SESSION_ENV } from './launch.js';
import { parseClaudeScreen, type ClaudePrompt, type ClaudeRenderer } from './screenParser.js';
import { subagentTranscripts } from './subagent.js';
import { claudeStringsFor, type ClaudeStrings } from './strings/index.js';
import { CLAUDE_TOOLS } from './tools.js';
import { findTranscript, listTranscripts } from './sessionLocator.js';
import { TranscriptFacts } from './transcriptFacts.js';
import type { RunStart } from '../common/runPart.js';

export type ClaudePromptView = ClaudePrompt;

export class ClaudeProfile implements AgentProfile<ClaudePromptView> {
  readonly agent = 'claude';
  // The reason is typed into the prompt (Tab): the next message is not taken as one (merge agrees, joinSession.ts).
  readonly reasonPolicy = 'inline' as const;
  /** The renderer the screen last showed; the user's choice, read, never changed. */
  private _renderer: ClaudeRenderer | undefined;
  // A key pressed while the prompt is still being drawn is dropped (docs/claude.md); the recorder takes
  // such a decision back when the prompt is still there, unchanged, CLAUDE_IGNORED_KEY_SETTLE_MS later.
  readonly dropsKeys = true;
  private _strings: ClaudeStrings = claudeStringsFor(undefined);
  private readonly _sessionId: string | undefined;
  /** The transcripts' sizes as the run started (resumed runs only): what they held is earlier. */
  private readonly _sizesAtStart: ReadonlyMap<string, number>;
  /** What the transcript and the hooks both tell (the session id once, the subagents' calls). */
  private readonly _shared: ClaudeFactContext;
  private readonly _transcript: TranscriptFacts;
  private readonly _hooks: HookFacts;

  constructor(private readonly _ctx: ProfileContext) {
    this._shared = { strings: () => this._strings, sessionSaid: false, subagents: new SubagentLedger(), cwd: _ctx.cwd };
    this._transcript = new TranscriptFacts(this._shared);
    this._hooks = new HookFacts(this._shared);
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
      // Claude ignores Ctrl+C while a permission dialog is open (nothing, no trace).
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
      ...(!s.prompt && showsOptionList(snapshot.lines, { marker: this._strings.selectedMarker }) ? { unreadOptionList: true } : {}),
      ...(s.sessionDialog ? { sessionDialog: s.sessionDialog } : {}),
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
    if ((prompt.subagent !== undefined) !== this._shared.subagents.isSubagentCall(call.callId)) return false;
    if (!promptShowsCall(prompt, call)) return false;
    // Two calls the prompt could show (the same command twice in a batch): the PermissionRequest
    // names the one asked about.
    const requested = this._hooks.requested;
    if (requested && requested.callId !== call.callId && promptShowsCall(prompt, { ...requested, order: 0 })) return false;
    return true;
  }

  callKind(call: KnownCall): EventKind {
    return toRejectionKind(CLAUDE_TOOLS, call.toolName) ?? 'command';
  }

  translateRecord(text: string, file?: string): SessionFact[] {
    return this._transcript.translate(text, file);
  }

  companionFiles(sessionFile: string): readonly string[] {
    return subagentTranscripts(sessionFile);
  }

  translateHook(message: HookMessage): SessionFact[] {
    if (message.agent !== this.agent) return [];
    return this._hooks.translate(message);
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
}
