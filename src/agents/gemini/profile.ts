// What is the Gemini CLI's own in recording it, for the shared recorder (agents/common/agentRecorder.ts):
// its screen (screenParser.ts), its option texts, its chat file translated into session facts, its
// hook payloads, and which chat file is this run's.
//
// Gemini has no turn ids: the user message that opens a turn lends its record id. It has no record of
// a turn's normal end either, so the turn's open state is left to the screen (the spinner), and
// "Request cancelled." is the turn's abort.
import type { EventKind } from '../../core/events.js';
import type { HookMessage } from '../../core/hookMessage.js';
import { toRejectionKind } from '../../readers/action.js';
import { meaningByLabelPrefix } from '../common/optionKeys.js';
import type { AgentProfile, OptionRules, ProfileContext, ScreenReading, SessionChoice, SessionFact, SessionWitness } from '../common/agentProfile.js';
import type { KnownCall } from '../common/callLedger.js';
import { autoSavedRuleFiles, autoSavedShellRule } from './autoSavedRules.js';
import { promptShowsCall } from './callMatcher.js';
import { diskStateOf } from './diskCheck.js';
import { GeminiHookPayload } from './hookPayloads.js';
import { parseGeminiScreen, type GeminiPrompt } from './screenParser.js';
import { geminiBeside, SessionChooser } from './sessionLocator.js';
import { callError, callOutput, cancelReason, messageText, modelSideCallId, parseGeminiLine, userWords, type GeminiMessage, type GeminiToolCall } from './sessionRecords.js';
import { geminiStringsFor, type GeminiStrings } from './strings/index.js';
import { GEMINI_TOOLS } from './tools.js';
import type { RunStart } from '../common/runPart.js';

export type GeminiPromptView = GeminiPrompt;

/** Statuses a call is written with once its batch is over (only terminal ones are written). */
const TERMINAL = new Set(['success', 'error', 'cancelled']);

export class GeminiProfile implements AgentProfile<GeminiPromptView> {
  readonly agent = 'gemini';
  /** Gemini 0.61 draws inline and erases line by line to redraw; a frame may be read half drawn. */
  readonly redrawsInPlace = true;
  /**
   * No dropped key was seen in 0.61.0; but on a loaded machine it took longer than the recorder's
   * settle time to redraw after a key it took (a real run had its rejection taken back), so a
   * decision is never retracted.
   */
  readonly dropsKeys = false;
  private _strings: GeminiStrings;
  private readonly _chooser: SessionChooser;
  /** The user message record that opened the current turn: its id is the turn id. */
  private _turnId: string | undefined;
  private readonly _seenMessages = new Set<string>();
  private readonly _seenCalls = new Set<string>();
  /**
   * "Request cancelled." waits here until the turn's calls are read: Gemini writes it before the
   * batch's record when the request is cut while a call waits or runs (Ctrl+C at a dialog, Esc while
   * a command runs), and the batch's fates need the calls first.
   */
  private _pendingAbort: SessionFact | undefined;
  /** Tool rows the screen showed running (⊷), whitespace dropped: a call cut while shown there had started. */
  private readonly _seenRunning = new Set<string>();
  /** Commands (whitespace dropped) of shell dialogs that offered an option for all future sessions. */
  private readonly _alwaysOffered = new Set<string>();
  /**
   * Calls such a dialog let through whose rule was not in auto-saved.toml yet when their outcome
   * came: Gemini saves it on a queue of its own while the tool runs, and may finish later.
   */
  private readonly _rulesAwaited = new Map<string, { readonly command: string; readonly text: string }>();

  constructor(private readonly _ctx: ProfileContext) {
    this._strings = geminiStringsFor(undefined);
    // A recording replayed has no agent process, and no twin beside it.
    const beside = _ctx.agentPid === undefined ? () => false : geminiBeside(_ctx.agentPid, _ctx.cwd);
    this._chooser = new SessionChooser(_ctx.env, _ctx.cwd, _ctx.startedAt, beside);
  }

  get optionRules(): OptionRules {
    const strings = this._strings;
    return {
      meaning: meaningByLabelPrefix(strings.optionMeanings),
      hiddenRejectLetters: [],
      selectionWraps: strings.selectionWraps,
      // Ctrl+C is not the dialog's key: Gemini's global handler cancels the whole request, which
      // cancels the call shown ("Operation cancelled by user").
      ctrlCRejects: true,
      // Ctrl+C while a tool runs or an answer streams cancels the request, as Esc does.
      ctrlCInterrupts: true,
      // Gemini labels its refusing option "No, suggest changes (esc)".
      escChoosesRejectOption: true,
    };
  }

  setVersion(version: string | undefined): void {
    this._strings = geminiStringsFor(version);
  }

  readScreen(snapshot: Parameters<AgentProfile['readScreen']>[0]): ScreenReading<GeminiPromptView> {
    const s = parseGeminiScreen(snapshot, this._strings);
    for (const row of s.runningTools) this._seenRunning.add(row.replace(/\s+/g, ''));
    if (s.prompt?.command !== undefined && this._offersAlways(s.prompt)) this._alwaysOffered.add(squash(s.prompt.command));
    return {
      ...(s.prompt ? { prompt: s.prompt } : {}),
      ...(s.unreadOptionList ? { unreadOptionList: true } : {}),
      working: s.working,
      ...(s.answerText !== undefined ? { answerText: s.answerText } : {}),
      userMessages: s.userMessages,
      decisionRows: s.decisionRows,
      cutRows: s.cutRows,
      ...(s.sessionId !== undefined ? { sessionId: s.sessionId } : {}),
      // Gemini's chat file names no version: the banner is its witness when no package tells it.
      ...(s.bannerVersion !== undefined ? { bannerVersion: s.bannerVersion } : {}),
    };
  }

  /** Gemini sends no state the screen could be checked against. */
  promptMayBeOpen(): boolean {
    return true;
  }

  promptShowsCall(prompt: GeminiPromptView, call: KnownCall): boolean {
    return promptShowsCall(prompt, call);
  }

  callKind(call: KnownCall): EventKind {
    return toRejectionKind(GEMINI_TOOLS, call.toolName) ?? 'command';
  }

  translateRecord(text: string): SessionFact[] {
    // The awaited rules first: a user message ends the wait (_message).
    return [...this._lateRules(), ...this._record(text)];
  }

  private _record(text: string): SessionFact[] {
    const record = parseGeminiLine(text);
    if (!record) return [];
    switch (record.type) {
      case 'metadata':
        return [...this._flushAbort(), { type: 'session', sessionId: record.metadata.sessionId }];
      case 'message':
        return this._message(record.message);
      case 'set':
        // A `messages` list replaces the conversation (a rolled-back turn): new messages in it are
        // read like appended ones, known ones were read already.
        return record.messages ? [...this._flushAbort(), ...record.messages.flatMap((m) => this._message(m))] : [];
      case 'rewind':
        return this._flushAbort();
    }
  }

  translateHook(message: HookMessage): SessionFact[] {
    if (message.agent !== this.agent) return [];
    const parsed = GeminiHookPayload.safeParse(message.payload);
    if (!parsed.success) return [];
    const p = parsed.data;
    const facts: SessionFact[] = [];
    if (p.transcript_path) facts.push({ type: 'session_file', file: p.transcript_path });
    if (p.session_id) facts.push({ type: 'session', sessionId: p.session_id });
    return facts;
  }

  chooseSessionFile(witness: SessionWitness<GeminiPromptView>): SessionChoice {
    return this._chooser.choose(witness, this._strings);
  }

  runStartsAt(file: string): RunStart {
    return this._chooser.runStartsAt(file);
  }

  holdCandidates(): void {
    this._chooser.holdCandidates();
  }

  dispose(): void {
    this._chooser.dispose();
  }

  private _message(message: GeminiMessage): SessionFact[] {
    const s = this._strings;
    if (message.type === 'user') {
      if (this._seenMessages.has(message.id)) return [];
      this._seenMessages.add(message.id);
      const facts = this._flushAbort();
      const words = userWords(message, s);
      if (words === undefined) return facts;
      // A rule saved after the user's next message is another choice's, not one awaited from this turn.
      this._rulesAwaited.clear();
      this._turnId = message.id;
      return [...facts, { type: 'turn_started', turnId: message.id, source: 'session_file', endMarked: false }, { type: 'user_message', text: words, source: 'session_file' }];
    }
    if (message.type === 'info') {
      if (this._seenMessages.has(message.id)) return [];
      this._seenMessages.add(message.id);
      if (messageText(message.content) !== s.requestCancelled) return [];
      const facts = this._flushAbort();
      this._pendingAbort = { type: 'turn_aborted', ...(this._turnId ? { turnId: this._turnId } : {}), reason: s.requestCancelled };
      return facts;
    }
    if (message.type !== 'gemini') return [];
    const calls = (message.toolCalls ?? []).filter((c) => c.status !== undefined && TERMINAL.has(c.status) && !this._seenCalls.has(c.id));
    if (calls.length === 0) return [];
    for (const c of calls) this._seenCalls.add(c.id);
    // All the batch's calls first, then their outcomes: every dialog is matched while all are pending.
    return [...calls.map((c) => this._call(c)), ...calls.flatMap((c) => this._outcome(c)), ...this._flushAbort()];
  }

  private _call(call: GeminiToolCall): SessionFact {
    const s = this._strings;
    const reason = cancelReason(call, s);
    const disk = call.status === 'cancelled' ? diskStateOf(call, this._ctx.cwd) : undefined;
    return {
      type: 'call',
      callId: call.id,
      toolName: call.name,
      toolInput: call.args ?? null,
      ...(this._turnId ? { turnId: this._turnId } : {}),
      source: 'session_file',
      native: {
        status: call.status,
        // The id the model saw in its functionCall/functionResponse (the file's id minus `<name>__`).
        model_call_id: modelSideCallId(call, s),
        ...(reason !== undefined ? { cancel_reason: reason } : {}),
        ...(disk ? { file_on_disk: disk } : {}),
      },
    };
  }

  private _outcome(call: GeminiToolCall): SessionFact[] {
    const s = this._strings;
    const text = callOutput(call);
    if (call.status === 'cancelled') {
      // A refusal at the dialog or a cut is a person's decision; a sibling's cancel only follows one.
      const reason = cancelReason(call, s);
      const decided = reason === s.reasonDenied || reason === s.reasonAborted || reason === s.reasonAbortedEarly;
      const facts: SessionFact[] = [{ type: 'output', callId: call.id, text, aborted: true, ...(decided ? { decision: `cancelled: ${reason}` } : {}) }];
      // Cut by the user while the screen showed it running: it had started.
      if (reason === s.reasonAborted && this._shownRunning(call)) facts.push({ type: 'ran', callId: call.id, source: 'session_file' });
      // A refused write or edit whose change is on disk anyway: the file says more than the status.
      if (diskStateOf(call, this._ctx.cwd) === 'as_proposed') facts.push({ type: 'ran', callId: call.id, source: 'session_file' });
      return facts;
    }
    // A policy refusal is written as an error, but nothing ran.
    const refused = call.status === 'error' && (callError(call) ?? '').includes(s.policyDenied);
    const rule = call.status === 'success' ? this._ruleWritten(call, text) : undefined;
    return [{ type: 'output', callId: call.id, text, aborted: refused, ...(rule !== undefined ? { native: { permission_rule: rule } } : {}) }];
  }

  /** The outcome again, with its rule, of each awaited call whose rule Gemini has saved since. */
  private _lateRules(): SessionFact[] {
    const facts: SessionFact[] = [];
    for (const [callId, { command, text }] of this._rulesAwaited) {
      const rule = autoSavedShellRule(autoSavedRuleFiles(this._ctx.env, this._ctx.cwd), command);
      if (rule === undefined) continue;
      this._rulesAwaited.delete(callId);
      facts.push({ type: 'output', callId, text, aborted: false, native: { permission_rule: rule } });
    }
    return facts;
  }

  /** Whether a dialog offers an option whose meaning is "allow in all future sessions". */
  private _offersAlways(prompt: GeminiPrompt): boolean {
    const meaning = meaningByLabelPrefix(this._strings.optionMeanings);
    return prompt.options.some((o) => meaning(o.label)?.scope === 'always');
  }

  /**
   * The rule "Allow this command for all future sessions" wrote, read from auto-saved.toml as the
   * call's outcome comes (or later, _lateRules): a command asked about with that option offered, that ran with its rule
   * saved, was let through by it (a rule saved before would have let it run unasked).
   */
  private _ruleWritten(call: GeminiToolCall, text: string): string | undefined {
    const command = shellCommandOf(call);
    if (command === undefined || !this._alwaysOffered.delete(squash(command))) return undefined;
    const rule = autoSavedShellRule(autoSavedRuleFiles(this._ctx.env, this._ctx.cwd), command);
    // Not saved yet, or never (the user chose another option): looked for again at each later record.
    if (rule === undefined) this._rulesAwaited.set(call.id, { command, text });
    return rule;
  }

  /** Whether a ⊷ row showed this call's command running. */
  private _shownRunning(call: GeminiToolCall): boolean {
    const command = squash(shellCommandOf(call) ?? '');
    if (!command) return false;
    for (const row of this._seenRunning) if (row.includes(command)) return true;
    return false;
  }

  private _flushAbort(): SessionFact[] {
    const pending = this._pendingAbort;
    this._pendingAbort = undefined;
    return pending ? [pending] : [];
  }
}

const squash = (text: string): string => text.replace(/\s+/g, '');

/** A call's `command` argument (the shell tool's), when it has one. */
function shellCommandOf(call: GeminiToolCall): string | undefined {
  const args = call.args as Record<string, unknown> | null | undefined;
  return args && typeof args === 'object' && typeof args['command'] === 'string' ? args['command'] : undefined;
}
