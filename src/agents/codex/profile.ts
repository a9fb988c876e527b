// What is Codex's own in recording it, for the shared recorder (agents/common/agentRecorder.ts):
// its screen (prompt parser, task menu), its status OSC, its option texts, its rollout and hook
// payloads translated into session facts, and which rollout is this run's.
import type { EventKind } from '../../core/events.js';
import type { HookMessage } from '../../core/hookMessage.js';
import { DisposableStore, toDisposable } from '../../core/lifecycle.js';
import { meaningByLabelPrefix } from '../common/optionKeys.js';
import { showsOptionList } from '../common/optionList.js';
import type { AgentProfile, InterruptMenu, OptionRules, ProfileContext, PromptView, ScreenReading, SessionChoice, SessionFact, SessionWitness } from '../common/agentProfile.js';
import type { KnownCall } from '../common/callLedger.js';
import { callCommand, mcpToolOf, promptShowsCall } from './callMatcher.js';
import { NetworkAskers } from './networkAskers.js';
import { RulesWritten } from './rulesWritten.js';
import { CodexHookPayload } from './hookPayloads.js';
import { parseCodexScreen, type CodexPrompt, type CodexTaskMenu } from './screenParser.js';
import { codexBeside, RolloutChooser } from './sessionLocator.js';
import { EARLIER_ROLLOUTS_WALK_MS, EarlierRollouts } from './sessionCandidates.js';
import { AUTO_REVIEWER, isAbortedOutput, isHarnessMessage, messageText, outputText, parseRolloutLine, ranCallOf, toolInputOf, toolNameOf } from './sessionRecords.js';
import { harnessRefusalOf } from './harnessRefusal.js';
import { HookRefusals, hookRefusal } from './hookRefusals.js';
import { forbiddenPrefixOf, forbiddingRule, ruleRefusal } from './ruleRefusals.js';
import { ReviewerVerdicts } from './reviewerVerdicts.js';
import { codexStringsFor, LATEST_CODEX_STRINGS, type CodexPromptKind, type CodexStrings } from './strings/index.js';
import type { RunStart } from '../common/runPart.js';

export const PROMPT_EVENT_KIND: Record<CodexPromptKind, EventKind> = {
  exec: 'command',
  patch: 'edit',
  permissions: 'permission',
  network: 'network',
  mcp: 'mcp',
};

/** A Codex approval prompt as the shared recorder sees it, with Codex's own reading kept. */
export interface CodexPromptView extends PromptView {
  readonly source: CodexPrompt;
}

export class CodexProfile implements AgentProfile<CodexPromptView> {
  readonly agent = 'codex';
  /** Codex draws whole frames (ratatui): a frame without its prompt means the prompt is gone. */
  readonly redrawsInPlace = false;
  readonly dropsKeys = true;
  readonly writesRefusedCalls = true;
  private _strings: CodexStrings = codexStringsFor(undefined);
  /** Whether the turn's escalations go to Codex's reviewer model, not to a prompt (turn_context). */
  private _autoReview = false;
  /** Whether the reviewer refused a call in the current turn: a cut of the turn may then be its circuit breaker's. */
  private _reviewerRefusedInTurn = false;
  /** The reviewer's rollouts, followed beside the session's: its verdicts, tied to the calls. */
  private readonly _verdicts: ReviewerVerdicts;
  /** Codex's own state from its status OSC; undefined until Codex sends one (older versions never do). */
  private _oscState: string | undefined;
  private readonly _chooser: RolloutChooser;
  private readonly _store = new DisposableStore();
  /** The commands Codex's hooks said were asking for a host (with REC_CODEX_HOOKS=1). */
  private readonly _networkAskers = new NetworkAskers();
  /** The rules "always" answers wrote, read back as the calls' outputs come. */
  private readonly _rulesWritten: RulesWritten;
  /** Refusals whose refuser only the screen names (a hook of the user's), tied to its `Blocked by hook` cells. */
  private readonly _hookRefusals = new HookRefusals(() => this._strings);
  /** Where Codex reads the rules a refusal may be a rule's (ruleRefusals.ts). */
  private readonly _rulesAt: { readonly env: NodeJS.ProcessEnv; readonly cwd: string };

  constructor(ctx: ProfileContext) {
    this._rulesAt = { env: ctx.env, cwd: ctx.cwd };
    this._rulesWritten = new RulesWritten(ctx.env, () => this._strings);
    this._verdicts = new ReviewerVerdicts(ctx.startedAt, () => this._strings);
    const earlier = new EarlierRollouts(ctx.env, ctx.startedAt);
    // A recording replayed has no agent process, and no twin beside it.
    const beside = ctx.agentPid === undefined ? () => false : codexBeside(ctx.agentPid, ctx.cwd);
    this._chooser = new RolloutChooser(ctx.env, ctx.cwd, ctx.startedAt, beside, () => earlier.files);
    // A resumed session appends to a rollout in its own day's folder: look them over now and then,
    // off every key's path (sessionCandidates.ts).
    const walk = () => void earlier.walk().catch(() => undefined); // a failed walk finds nothing; the next one tries again
    walk();
    const timer = setInterval(walk, EARLIER_ROLLOUTS_WALK_MS);
    timer.unref();
    this._store.add(toDisposable(() => clearInterval(timer)));
    const osc = LATEST_CODEX_STRINGS.statusOsc;
    if (osc && ctx.screen.watchOsc) {
      this._store.add(ctx.screen.watchOsc(osc.ident)((data) => {
        this._oscState = osc.statePattern.exec(data)?.[1] ?? this._oscState;
      }));
    }
  }

  get optionRules(): OptionRules {
    const strings = this._strings;
    return {
      meaning: meaningByLabelPrefix(strings.optionMeanings),
      hiddenRejectLetters: strings.hiddenRejectLetters,
      selectionWraps: strings.selectionWraps,
      // Codex 0.169 cancels the request at a prompt; while a turn runs it opens its task menu.
      ctrlCRejects: true,
      ctrlCInterrupts: false,
      // Codex labels its refusing option with (esc).
      escChoosesRejectOption: true,
    };
  }

  setVersion(version: string | undefined): void {
    this._strings = codexStringsFor(version);
  }

  readScreen(snapshot: Parameters<AgentProfile['readScreen']>[0]): ScreenReading<CodexPromptView> {
    const s = parseCodexScreen(snapshot, this._strings);
    if (s.prompt) this._rulesWritten.prompt(s.prompt);
    const facts = s.hookBlocks.length > 0 ? this._hookRefusals.shown(s.hookBlocks) : [];
    return {
      ...(facts.length > 0 ? { facts } : {}),
      ...(s.prompt ? { prompt: promptView(s.prompt) } : {}),
      ...(s.taskMenu ? { menu: taskMenu(s.taskMenu) } : {}),
      ...(!s.prompt && !s.taskMenu && showsOptionList(snapshot.lines, { marker: this._strings.selectedMarker }) ? { unreadOptionList: true } : {}),
      working: s.working,
      ...(s.answerText !== undefined ? { answerText: s.answerText } : {}),
      userMessages: s.userMessages,
      decisionRows: s.approvedRows.length + s.canceledRows.length + s.networkDecisionRows + s.interruptedRows,
      ...(s.sessionId !== undefined ? { sessionId: s.sessionId } : {}),
    };
  }

  /** Whether Codex says a prompt waits; true when it never said anything (nothing to contradict the screen). */
  promptMayBeOpen(): boolean {
    const osc = this._strings.statusOsc ?? LATEST_CODEX_STRINGS.statusOsc;
    return this._oscState === undefined || osc === undefined || this._oscState === osc.blockedState;
  }

  promptShowsCall(prompt: CodexPromptView, call: KnownCall): boolean {
    return promptShowsCall(prompt.source, call, this._strings) || this._networkAskers.asked(prompt.source, call, this._strings);
  }

  callKind(call: KnownCall): EventKind {
    if (mcpToolOf(call.toolName)) return PROMPT_EVENT_KIND.mcp;
    return this._strings.patchFileRow.test(callCommand(call, this._strings) ?? '') ? PROMPT_EVENT_KIND.patch : PROMPT_EVENT_KIND.exec;
  }

  companionFiles(sessionFile: string): readonly string[] {
    return this._verdicts.files(sessionFile);
  }

  translateRecord(text: string, file?: string): SessionFact[] {
    if (file !== undefined) return this._verdicts.line(file, text);
    const record = parseRolloutLine(text);
    if (!record) return [];
    if (record.type === 'turn_context') {
      this._autoReview = record.payload.approvals_reviewer === AUTO_REVIEWER;
      return [];
    }
    if (record.type === 'session_meta') {
      return [{ type: 'session', sessionId: record.payload.id, ...(record.payload.cli_version ? { version: record.payload.cli_version } : {}) }];
    }
    if (record.type === 'event_msg') {
      const p = record.payload;
      switch (p.type) {
        case 'task_started':
        case 'turn_started':
          this._reviewerRefusedInTurn = false;
          return [{ type: 'turn_started', ...(p.turn_id ? { turnId: p.turn_id } : {}), source: 'session_file' }];
        case 'task_complete':
        case 'turn_complete':
          return [{ type: 'turn_completed', source: 'session_file' }];
        case 'turn_aborted': {
          // Codex's circuit breaker cuts the turn after the reviewer's refusals in a row, in the user's words.
          const byReviewer = this._autoReview && this._reviewerRefusedInTurn;
          return [{ type: 'turn_aborted', ...(p.turn_id ? { turnId: p.turn_id } : {}), reason: p.reason ?? 'interrupted', ...(byReviewer ? { unlessUserCut: 'reviewer' as const } : {}) }];
        }
        case 'item_completed': {
          const ran = ranCallOf(p.item);
          return ran === undefined ? [] : [{ type: 'ran', callId: ran, source: 'session_file' }];
        }
      }
    }
    if (record.type !== 'response_item') return [];
    const item = record.payload;
    switch (item.type) {
      case 'function_call':
      case 'custom_tool_call': {
        const turnId = item.internal_chat_message_metadata_passthrough?.turn_id;
        const toolName = toolNameOf(item);
        this._rulesWritten.call({ callId: item.call_id, toolName, toolInput: toolInputOf(item), order: 0 });
        const call: SessionFact = { type: 'call', callId: item.call_id, toolName, toolInput: toolInputOf(item), ...(turnId ? { turnId } : {}), source: 'session_file' };
        // A verdict read before its call (the two files are read in turn) is told once the call is known.
        return [call, ...this._verdicts.call({ callId: item.call_id, toolName, toolInput: toolInputOf(item), order: 0 })];
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const text = outputText(item.output) ?? '';
        const aborted = isAbortedOutput(text, this._strings);
        const refusal = aborted ? undefined : harnessRefusalOf(text, this._strings);
        if (refusal !== undefined) {
          // Refused before its process started: no person decided. A hook's own message has no
          // word to tell it from a rule's: the screen's `Blocked by hook` cell tells it (hookRefusals.ts).
          const output: SessionFact = { type: 'output', callId: item.call_id, text, aborted: true };
          if (refusal.hook !== undefined) return [output, hookRefusal(item.call_id, refusal.message, refusal.hook, ['session_file'])];
          if (refusal.review === undefined) return [output, ...this._ruleOrHookRefusal(item.call_id, refusal.message)];
          this._reviewerRefusedInTurn = true;
          return [output, { type: 'refused', callId: item.call_id, decidedBy: 'reviewer', reason: refusal.rationale, native: { review: refusal.review }, source: 'session_file' }];
        }
        const rule = this._rulesWritten.output(item.call_id, aborted);
        // Codex writes the same words for a refusal at its prompt, a cut while running and a batch
        // sibling of either: any of them is a decision rec should have seen something of.
        return [{
          type: 'output',
          callId: item.call_id,
          text,
          aborted,
          ...(aborted ? { decision: this._refusalMarker(text) } : {}),
          // Under auto-review Codex also writes these words when its reviewer's refusals cut the turn.
          ...(aborted && this._autoReview && this._reviewerRefusedInTurn ? { unlessUserCut: 'reviewer' as const } : {}),
          ...(rule !== undefined ? { native: { permission_rule: rule } } : {}),
        }];
      }
      case 'message': {
        if (item.role !== 'user') return [];
        const text = messageText(item);
        return isHarnessMessage(item, text, this._strings) ? [] : [{ type: 'user_message', text, source: 'session_file' }];
      }
      default:
        return [];
    }
  }

  translateHook(message: HookMessage): SessionFact[] {
    if (message.agent !== 'codex') return [];
    const parsed = CodexHookPayload.safeParse(message.payload);
    if (!parsed.success) return [];
    const p = parsed.data;
    const facts: SessionFact[] = [];
    if (p.transcript_path) facts.push({ type: 'session_file', file: p.transcript_path });
    if (p.session_id) facts.push({ type: 'session', sessionId: p.session_id });
    switch (message.event) {
      case 'UserPromptSubmit':
        facts.push({ type: 'turn_started', source: 'hook' });
        if (p.prompt !== undefined) facts.push({ type: 'user_message', text: p.prompt, source: 'hook' });
        break;
      case 'Stop':
        facts.push({ type: 'turn_completed', source: 'hook' });
        break;
      case 'PreToolUse':
        if (p.tool_use_id) {
          // An MCP tool's input is its arguments, as in the rollout (measured on 0.171.0); a shell call's is its command.
          const toolName = p.tool_name ?? 'unknown';
          const toolInput = mcpToolOf(toolName) ? p.tool_input : { command: p.tool_input?.command };
          facts.push({ type: 'call', callId: p.tool_use_id, toolName, toolInput, ...(p.turn_id ? { turnId: p.turn_id } : {}), source: 'hook' });
        }
        break;
      case 'PostToolUse':
        if (p.tool_use_id) facts.push({ type: 'ran', callId: p.tool_use_id, source: 'hook' });
        break;
      case 'PermissionRequest':
        this._networkAskers.permissionRequest(p.tool_input, this._strings);
        break;
      default:
        break;
    }
    return facts;
  }

  chooseSessionFile(witness: SessionWitness<CodexPromptView>): SessionChoice {
    return this._chooser.choose(
      {
        userMessages: witness.userMessages,
        ...(witness.prompt ? { prompt: witness.prompt.source } : {}),
        ...(witness.sessionId !== undefined ? { sessionId: witness.sessionId } : {}),
        ...(witness.refused ? { refused: witness.refused.map((p) => p.source) } : {}),
      },
      this._strings,
    );
  }

  /**
   * A refusal whose words name no refuser: a forbidden rule's when Codex's words for one name the
   * prefix of such a rule it reads; else a hook's once the screen draws its message blocked by one.
   */
  private _ruleOrHookRefusal(callId: string, message: string): SessionFact[] {
    const prefix = forbiddenPrefixOf(message, this._strings);
    const rule = prefix === undefined ? undefined : forbiddingRule(this._rulesAt.env, this._rulesAt.cwd, prefix, this._strings);
    return rule !== undefined ? [ruleRefusal(callId, message, rule)] : this._hookRefusals.refused(callId, message);
  }

  /** The words of a refused call's output: an MCP form's cancel has its own. */
  private _refusalMarker(text: string): string {
    const mcp = this._strings.mcpCancelled;
    return mcp && text.trimEnd().endsWith(mcp.marker) ? mcp.marker : this._strings.abortedMarker;
  }

  runStartsAt(file: string): RunStart {
    return this._chooser.runStartsAt(file);
  }

  dispose(): void {
    this._store.dispose();
  }
}

function promptView(prompt: CodexPrompt): CodexPromptView {
  return {
    kind: PROMPT_EVENT_KIND[prompt.kind],
    title: prompt.title,
    ...(prompt.command !== undefined ? { command: prompt.command } : {}),
    details: prompt.details,
    options: prompt.options,
    ...(prompt.highlighted !== undefined ? { highlighted: prompt.highlighted } : {}),
    identity: prompt.identity,
    // The MCP tool form's Esc or Cancel fails the one call; Codex goes on with the turn. Its keys
    // were measured for digits, Enter and Esc only: `n` and Ctrl+C there are not taken as refusals.
    ...(prompt.mcpArgs !== undefined ? { refusalKeepsTurn: true, listedKeysOnly: true } : {}),
    // Codex's network proxy asks for a host the running command fetches (docs/codex-prompts.md).
    ...(prompt.kind === 'network' ? { askedWhileRunning: true } : {}),
    source: prompt,
  };
}

function taskMenu(menu: CodexTaskMenu): InterruptMenu {
  return {
    options: menu.options.map(({ action, ...option }) => ({
      ...option,
      // Cancel task and Exit cut the turn; Run in background leaves it running, detached.
      ...(action ? { action: action === 'background' ? ('detach' as const) : ('interrupt' as const) } : {}),
    })),
    ...(menu.highlighted !== undefined ? { highlighted: menu.highlighted } : {}),
  };
}
