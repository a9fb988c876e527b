// What an agent module gives the shared recorder (agentRecorder.ts): how to read its screen, what
// its keys mean at a prompt, and what its session file and hooks say, translated into a small
// vocabulary of facts. Everything else — the prompt lifecycle, the call ledger, batch fates, the
// reason rule, following the session file — is the recorder's, the same for every agent.
//
// Shaped on the three agents' measured behaviour (docs/<agent>.md): Codex (rollout JSONL, screen
// prompts with hotkeys, a task menu), Gemini (chat JSONL with toolCalls and statuses, `●` options,
// no place to type a reason), Claude (transcript JSONL with tool_use/tool_result, hooks with exact
// ids, a reason typed into the prompt).
import type { DecidedBy, EventKind, Evidence, Scope } from '../../core/events.js';
import type { HookMessage } from '../../core/hookMessage.js';
import type { Disposable } from '../../core/lifecycle.js';
import type { ScreenSnapshot, ScreenView } from '../../core/screen.js';
import type { KnownCall } from './callLedger.js';
import type { ListOption } from './optionList.js';
import type { RunStart } from './runPart.js';

/** An approval prompt as the screen shows it. */
export interface PromptView {
  /** The event kind a decision at this prompt has (command, edit, permission, network, mcp). */
  readonly kind: EventKind;
  readonly title: string;
  /** The command it runs, wrapped rows re-joined, when it shows one. */
  readonly command?: string;
  /** Other described fields (reason, destination, file…), wrapped rows re-joined. */
  readonly details: Readonly<Record<string, string>>;
  readonly options: readonly ListOption[];
  /** The number of the highlighted option, when the marker is on screen. */
  readonly highlighted?: number;
  /** Same for the same prompt however it is wrapped or redrawn; differs between prompts. */
  readonly identity: string;
  /**
   * A text field open on the highlighted option (Claude's Tab): while it is open, characters are its
   * text, not option keys; Enter submits the option with the text as its reason (`inline`), Esc
   * refuses and throws the text away. Only whether something was typed is known, never the text.
   */
  readonly feedback?: { readonly typed: boolean };
  /**
   * The agent the prompt is from when it is not the main thread (Claude's `· from the
   * general-purpose agent`): refusing it tells that agent, which goes on, so it ends no turn.
   */
  readonly subagent?: string;
  /**
   * Refusing here, by Esc or an option, refuses the one call and the agent goes on with its turn
   * (Codex's MCP tool form): the refusal ends no turn.
   */
  readonly refusalKeepsTurn?: boolean;
  /**
   * Only the keys the prompt shows decide (its digits, Enter on the highlight, Esc): the agent's
   * hidden reject letters and Ctrl+C, never measured at this prompt, record nothing. A refusal they
   * did make then surfaces as a miss, never as a guessed rejection.
   */
  readonly listedKeysOnly?: boolean;
  /**
   * The agent asks this while the call already runs (Codex's network prompt, raised by the running
   * command's fetch): the call the prompt is tied to ran, whatever the answer, even when the agent
   * quits before its file says the call finished.
   */
  readonly askedWhileRunning?: boolean;
}

/** A menu whose choices cut the running turn (Codex's "Task is still running"). */
export interface InterruptMenu {
  readonly options: ReadonlyArray<ListOption & { readonly shortLabel: string; readonly action?: 'interrupt' | 'detach' }>;
  readonly highlighted?: number;
}

/** A dialog about the session (ScreenReading.sessionDialog): the keys that stop the turn at it. */
export interface SessionDialog {
  readonly stops: readonly ('esc' | 'shift-tab')[];
}

/** What the recorder needs to know of one rendered screen. */
export interface ScreenReading<P extends PromptView = PromptView> {
  /** The approval prompt, only while it is the live bottom pane. */
  readonly prompt?: P;
  readonly menu?: InterruptMenu;
  /** A turn is working (Esc interrupts it). */
  readonly working: boolean;
  /**
   * One Esc armed the interrupt, and the agent asks for the second (Copilot's `esc again to
   * interrupt`): for agents whose OptionRules.escArmsInterrupt.
   */
  readonly interruptArmed?: boolean;
  /** The answer being streamed, as shown. */
  readonly answerText?: string;
  /** The user's messages shown in the history: a witness of which session file is this run's. */
  readonly userMessages: readonly string[];
  /** The agent's version as its banner shows it, while shown. */
  readonly bannerVersion?: string;
  /**
   * The bottom pane is a numbered option list with the agent's highlight (optionList.ts
   * showsOptionList) that was read as neither `prompt` nor `menu`: a dialog whose texts this
   * version's strings do not know. A key there answers it: Esc or Ctrl+C cuts no turn.
   */
  readonly unreadOptionList?: boolean;
  /**
   * A dialog about the session, not about a call, that holds the turn until answered (Claude's auto
   * mode "can't check actions in this session"). Its keys decide no call and send no message; one
   * of `stops` ends the turn there, so that the call it holds never runs: the user's interruption of
   * kind `prompt`, with the key as trigger.
   */
  readonly sessionDialog?: SessionDialog;
  /** Rows the agent prints after a decision it took (✔/✗ lines): a key it ignored adds none. */
  readonly decisionRows: number;
  /**
   * Rows the agent prints when the user cut the turn (Gemini's `ℹ Request cancelled.`), for agents
   * that may take an Esc pressed at a prompt they were told yes but still draw: one more row is
   * the cut taken. Undefined: the agent has no such row, and such an Esc is taken as nothing.
   */
  readonly cutRows?: number;
  /**
   * The session id the agent itself shows (Codex prints `codex resume <id>` as it exits): the one
   * witness of which session file is this run's that another session in the same folder cannot share.
   */
  readonly sessionId?: string;
  /**
   * What this screen tells of calls, as a session file's facts do (Codex's `Blocked by hook` cell
   * names the hook as who refused a call its rollout shows refused): applied once, so the profile
   * hands each fact in only one reading.
   */
  readonly facts?: readonly SessionFact[];
}

/** What the screen tells of which session file is this run's (what the recorder last saw of it). */
export interface SessionWitness<P extends PromptView = PromptView> {
  /** The user messages shown long enough ago that our own file holds them too (sessionBinding.ts). */
  readonly userMessages: readonly string[];
  /**
   * Every user message the screen has shown in this run, whitespace dropped, however recently: a
   * candidate holding any other message is another session's.
   */
  readonly shownEver?: readonly string[];
  readonly prompt?: P;
  readonly sessionId?: string;
  /**
   * The prompts this run refused: a candidate holding the call of one of them as having run is not
   * ours (a twin that approved it), whenever that is seen.
   */
  readonly refused?: readonly P[];
}

/**
 * Which session file is this run's, as far as the agent's files and the screen tell now:
 *   - `named`: the file of the session id the agent showed (or a flag it was started with): ours;
 *   - `named_gone`: the agent named a session whose file does not exist (any more): none is ours;
 *   - `fits`: the candidate files that hold the most of what the screen showed; ours if it is the
 *     only one (sessionBinding.ts hands in only what was shown WITNESS_SETTLE_MS ago or more, which
 *     our own file, trailing our screen, holds by then, and decides).
 * `from` is where this run's part of a file begins: a resumed session's earlier turns are not this run's.
 */
export type SessionChoice =
  | { readonly type: 'named'; readonly file: SessionFileRef }
  /** The agent named its session and no file of that id exists (any more): no other file is ours. */
  | { readonly type: 'named_gone'; readonly sessionId: string }
  /** `heldBack`: why a lone fit was not handed in (it may be a twin's: agentsBeside.ts). */
  | { readonly type: 'fits'; readonly files: readonly SessionFileRef[]; readonly heldBack?: string };

export interface SessionFileRef {
  readonly file: string;
  /** Where this run's records begin (runPart.ts): byte 0 for a file the run created. */
  readonly from: RunStart;
  /**
   * The file, opened while it was there: the agent may have deleted it since (Gemini, a session
   * with nothing to resume, at exit). Whoever follows the file owns the descriptor.
   */
  readonly heldFd?: number;
}

/** What choosing an option means. */
export interface OptionMeaning {
  readonly decision: 'approve' | 'reject';
  /** For approvals: how long the approval lasts. */
  readonly scope?: Scope;
  /** For rejections: whether choosing it cancels the turn (else the agent declines the call and goes on). */
  readonly endsTurn?: boolean;
  /**
   * The agent asks again about the same call after this choice (Gemini's "Modify with external
   * editor" opens the editor, then shows the dialog again with the edited change): the dialog shown
   * next is a new prompt with a decision of its own, even when it looks the same.
   */
  readonly reasks?: boolean;
  /**
   * Choosing this option opens a text field on it instead of deciding (Copilot's "No, and tell
   * Copilot what to do differently"): a digit or Enter on it with the field empty only highlights
   * it; characters are the field's (counted, never kept); Enter with text refuses with that text as
   * the reason (`inline`, the agent goes on); Esc refuses (`inline` when text was typed, which is
   * thrown away). Arrows away from it close the field.
   */
  readonly opensField?: boolean;
}

/** How keys act on the agent's option lists. */
export interface OptionRules {
  /** What choosing the option of this label means (at `prompt`, where the kind of prompt changes it). */
  meaning(label: string, prompt?: PromptView): OptionMeaning | undefined;
  /** Letters the agent treats as "deny" at a prompt without showing them as a hotkey. */
  readonly hiddenRejectLetters: readonly string[];
  /** Whether Up on the first option goes to the last one (and Down on the last to the first). */
  readonly selectionWraps: boolean;
  /**
   * Whether Ctrl+C at a prompt refuses its call (trigger `ctrl_c`): Codex and Gemini cancel the
   * request; an agent whose Ctrl+C only clears or ignores there says false.
   */
  readonly ctrlCRejects: boolean;
  /**
   * Whether Ctrl+C while a tool runs or an answer streams cuts it, as Esc does (Gemini). Codex opens
   * its "Task is still running" menu instead (its choice decides: `menu`).
   */
  readonly ctrlCInterrupts: boolean;
  /**
   * Whether one Esc while a turn works only arms the interrupt, and the second cuts (Copilot's
   * `esc esc interrupt`); Ctrl+C still cuts at once where ctrlCInterrupts says so.
   */
  readonly escArmsInterrupt?: boolean;
  /**
   * Whether Esc at a prompt counts as choosing its first refusing option (Codex and Gemini draw Esc
   * on that option: "… (esc)"). False where Esc is its own way out, told apart from the No option
   * (Claude): the rejection then names no option.
   */
  readonly escChoosesRejectOption: boolean;
  /**
   * Whether Tab opens a text field on this option of this prompt, for a reason or an instruction
   * (Claude's "Tab to amend" on Yes and No, which its plan dialog lacks); absent where Tab does
   * nothing at a prompt.
   */
  amends?(label: string, prompt: PromptView): boolean;
}

/** Where a fact came from: the agent's session file, or one of its hooks. */
export type FactSource = 'session_file' | 'hook';

/** One thing the agent's session file or a hook says, in the recorder's words. */
export type SessionFact =
  | {
      readonly type: 'session';
      readonly sessionId?: string;
      readonly version?: string;
      /** Which witness told the version: the session file (default) or the banner. */
      readonly versionWitness?: 'session_file' | 'banner';
      readonly file?: string;
    }
  /** The path of this run's session file, as a hook names it (it takes precedence over a scan). */
  | { readonly type: 'session_file'; readonly file: string }
  /**
   * `endMarked: false` when the session file never writes a turn's normal end (Gemini): the turn id is
   * taken, but whether a turn is open is left to the screen and hooks.
   */
  | { readonly type: 'turn_started'; readonly turnId?: string; readonly source: FactSource; readonly endMarked?: boolean }
  | { readonly type: 'turn_completed'; readonly source: FactSource }
  /** `native`: what the file says of the cut beyond its reason (the message it cut), kept on the turn's events. */
  /**
   * `unlessUserCut`: who cut the turn when no key of the user's did (Codex's auto-review, whose
   * refusals in a row make it cut the turn itself): an interruption of kind `system` on their account.
   */
  | { readonly type: 'turn_aborted'; readonly turnId?: string; readonly reason: string; readonly native?: Readonly<Record<string, unknown>>; readonly unlessUserCut?: Exclude<DecidedBy, 'user'> }
  /** `native`: what the agent's file says of the call beyond its input (status, other ids), kept on its events. */
  | { readonly type: 'call'; readonly callId: string; readonly toolName: string; readonly toolInput: unknown; readonly turnId?: string; readonly source: FactSource; readonly native?: Readonly<Record<string, unknown>> }
  /**
   * `reason`: the reason the user typed into the prompt, as the agent stored it with the refusal
   * (`reason_source: inline`). `native`: the agent's own words on the outcome (its decision fields).
   * `decision`: the file's own word for a decision a person took on this call at a prompt, or by
   * cutting it (`rejected`, `approved`, `cancelled: …`, `aborted by user`); absent where a rule, a
   * hook, a mode or a sandbox decided, or the file cannot tell. A call so marked that the recorder
   * saw nothing of becomes a `miss` (missCheck.ts), so only a word the file is sure of belongs here.
   */
  | {
      readonly type: 'output';
      readonly callId: string;
      readonly text: string;
      readonly aborted: boolean;
      readonly reason?: string;
      readonly native?: Readonly<Record<string, unknown>>;
      readonly decision?: string;
      /**
       * Who cut the call when no key of the user's did (Codex's auto-review writes its own cut of a
       * turn, its circuit breaker, in the user's words): the abort is then a refusal of theirs, not
       * a decision the recorder missed. The user's keys come before the file shows their effect.
       */
      readonly unlessUserCut?: Exclude<DecidedBy, 'user'>;
    }
  /**
   * A call refused with no person deciding (a permission rule, a hook, a classifier or reviewer, a
   * mode that cannot ask): the file or a hook says so, no prompt was shown. `kind` defaults to callKind.
   */
  | {
      readonly type: 'refused';
      readonly callId: string;
      readonly decidedBy: Exclude<DecidedBy, 'user'>;
      /** The mechanism, where there is one; a reviewer model's decision has none. */
      readonly trigger?: 'hook' | 'rule';
      readonly kind?: EventKind;
      /** A reviewer's rationale (`reason_source: reviewer`), a hook's message (`reason_source: hook`). */
      readonly reason?: string;
      /** The agent's own words on the refusal, kept on the event. */
      readonly native?: Readonly<Record<string, unknown>>;
      readonly source: FactSource;
      /** Every witness of the refusal, where more than `source` told it (the screen named the refuser). */
      readonly evidence?: readonly Evidence[];
    }
  /**
   * A reviewer model's verdict on a call that asked for approval (Codex's auto-review): no prompt was
   * drawn and no person decided. `rationale`: its words, kept as a refusal's reason.
   */
  | { readonly type: 'reviewed'; readonly callId: string; readonly outcome: 'allow' | 'deny'; readonly rationale?: string; readonly source: FactSource }
  | { readonly type: 'ran'; readonly callId: string; readonly source: FactSource }
  /**
   * The file says this call was cut while it ran (Claude writes it as a rejection, without
   * toolDenialBeforeRun): an Esc the screen showed no running call for (a tool no prompt approved,
   * such as an Agent call launching its subagent) was about it. `kind`: `tool`, or `subagent` for a
   * call that runs one.
   */
  | { readonly type: 'cut'; readonly callId: string; readonly kind: 'tool' | 'subagent' }
  | { readonly type: 'user_message'; readonly text: string; readonly source: FactSource };

export interface ProfileContext {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly startedAt: Date;
  /** The pid of the agent process rec started; absent where no agent runs (a recording replayed). */
  readonly agentPid?: number;
  readonly screen: ScreenView;
}

/**
 * One agent, for one run (it may keep state, such as a status it reads from the terminal). The
 * version's texts (`setVersion`) change what it parses.
 */
export interface AgentProfile<P extends PromptView = PromptView> extends Disposable {
  readonly agent: string;
  /**
   * Where a rejection's reason comes from (agentModule.ts ReasonPolicy): `inline` (typed into the
   * prompt) or, by default, the user's next message.
   */
  readonly reasonPolicy?: 'inline' | 'next_message';
  /**
   * True when the session file writes every call a person refused before the end of its turn: at
   * a turn's end in the file, a refusal tied to no call yet was made in a later turn, whose opening
   * message is not its reason.
   */
  readonly writesRefusedCalls?: boolean;
  /**
   * True when an `output` fact's `decision` always names that call's own decision at its own prompt
   * (Copilot's `permission.completed` per toolCallId), never a fate its batch shared (Codex writes
   * "aborted by user" for a refused call and its siblings alike). Such a call is never booked as a
   * skipped sibling when its turn is cut later: a person decided it, and if the recorder saw
   * nothing of it, it is a miss.
   */
  readonly decisionsNameTheirCall?: boolean;
  /** The session file names the agent version: read its texts from now on. */
  setVersion(version: string | undefined): void;
  readScreen(snapshot: ScreenSnapshot): ScreenReading<P>;
  /** False when the agent says no prompt waits although one is drawn (Codex's status OSC). */
  promptMayBeOpen(): boolean;
  /**
   * True when the agent redraws its area by erasing and rewriting lines without synchronized output
   * (Gemini's inline Ink renderer): a frame read between two of its writes can miss a prompt that is
   * still open. A key then goes to the prompt last seen whole, if nothing was decided since.
   */
  readonly redrawsInPlace: boolean;
  /**
   * True when the agent is known to drop a decisive key now and then (Codex 0.169: a key within ~5 ms
   * of a prompt appearing): a decision whose prompt is still drawn, unchanged, a while later is then
   * taken back. False where no drop was seen and a slow redraw would make a taken key look ignored.
   */
  readonly dropsKeys: boolean;
  readonly optionRules: OptionRules;
  /** Whether the prompt shows this call (its command, file or reason). */
  promptShowsCall(prompt: P, call: KnownCall): boolean;
  /** The kind of a call's skipped event (command or edit). */
  callKind(call: KnownCall): EventKind;
  /**
   * The facts in one line of the session file or of a companion file (`file`, when the line is not
   * the main file's), none for lines that carry none.
   */
  translateRecord(text: string, file?: string): SessionFact[];
  /**
   * Files the agent writes beside its session file for the same run, to follow as it is (Claude's
   * subagent transcripts); listed again now and then, so files that appear later are followed too.
   */
  companionFiles?(sessionFile: string): readonly string[];
  /** The facts in one hook message (none for another agent's or an unknown payload). */
  translateHook(message: HookMessage): SessionFact[];
  /**
   * Where this run's part of `file` begins, by the times the agent stamps on its records: 0 for a
   * file the run created, later for a resumed session's file (absent: always 0).
   */
  runStartsAt?(file: string): RunStart;
  /** Which session file is this run's: named by the agent, or the candidates the screen fits (sessionLocator.ts). */
  chooseSessionFile(witness: SessionWitness<P>): SessionChoice;
  /**
   * Opens the session files that may be this run's, at every poll between scans while none is bound
   * (a listing and a stat, no reading; chooseSessionFile opens them too): an agent that deletes its
   * file as it quits (Gemini) may do so before any witness settles, and a file held open is still
   * read whole once the agent names it.
   */
  holdCandidates?(): void;
}
