// The shape of the Claude Code texts the module reads from the screen and the transcript. Each
// measured version has one data file beside this one (v2_1_330.ts); nothing else in the module
// spells a Claude string, so a new version is a new data file, not a code change.
import type { EventKind } from '../../../core/events.js';
import type { LabelMeaning } from '../../common/optionKeys.js';

/** A permission prompt's title row (the row under the pane's `─` rule), and what a decision at it is about. */
export interface PromptTitle {
  readonly kind: EventKind;
  /** Matched against the trimmed title row; a subagent's prompt adds ` · from the … agent`. */
  readonly pattern: RegExp;
  /**
   * Matched against the trimmed row under the title, where the title alone is shared: every tool
   * without a dialog of its own is `Tool use`, and only this row tells an MCP server's tool (`… (MCP)`).
   */
  readonly detail?: RegExp;
  /**
   * What the rows between the `╌` rules show: a command, or a file's diff or content; `plan`: nothing
   * (the plan approval dialog); `tool`: the call's arguments, under a description of it.
   */
  readonly body: 'command' | 'file' | 'plan' | 'tool';
}

/**
 * Tab on the highlighted option turns its label into a text field: the placeholder until the user
 * types, then `<typedPrefix><text>`. The option keeps its meaning (`label`).
 */
export interface AmendLabel {
  readonly label: string;
  readonly placeholder: string;
  readonly typedPrefix: string;
}

/**
 * A note auto mode draws above a prompt's question when it puts a call to the user instead of its
 * classifier (docs/claude-auto-mode.md §4): why it asks, and how the prompt's options are drawn.
 */
export interface AutoModeNote {
  /** Matched against the note's rows, gutter removed and re-joined. */
  readonly pattern: RegExp;
  /**
   * `cannot_check`: its check cannot run in this session (the user chose to stay in auto mode at
   * the dialog); `breaker`: its classifier refused too many calls in a row (or in the session).
   */
  readonly cause: 'cannot_check' | 'breaker';
  /** The options are drawn without numbers (`❯ No` / `  Yes`), and digits pick none. */
  readonly unnumbered?: boolean;
}

/**
 * A dialog about the session, not about a call, that holds the turn until answered (auto mode's
 * "can't check actions in this session"): its title row (under the pane's `─` rule) and the footer
 * that names its keys, both matched against the trimmed row.
 */
export interface SessionDialogText {
  readonly title: RegExp;
  readonly footer: RegExp;
  /** The keys that stop the turn there, so that the calls it holds never run; any other key only answers it. */
  readonly stops: readonly ('esc' | 'shift-tab')[];
}

export interface ClaudeStrings {
  /** The Claude Code version these texts were read from. */
  readonly version: string;

  // The permission prompt (the bottom pane of the full-screen renderer).
  /** The full-width rule above the pane (U+2500 …), matched against the trimmed row. */
  readonly paneRule: RegExp;
  /** The dashed rules around the command, diff or content (U+254C …). */
  readonly bodyRule: RegExp;
  /**
   * The gutter Claude draws at the start of every row of a command it wraps (`│ `, at 80 columns),
   * matched against the trimmed row: not part of the command.
   */
  readonly bodyGutter?: RegExp;
  readonly promptTitles: readonly PromptTitle[];
  /** The end of a title row naming the subagent that raised the prompt (its type in group 1). */
  readonly subagentTitle: RegExp;
  /**
   * The question row right above the options; the option list starts under it. Plan mode's
   * dialog (`Exit plan mode?`, a title with no body) has `Claude wants to exit plan mode` there.
   */
  readonly question: RegExp;
  /** The file a question names (group 1), for dialogs that draw no file row (NotebookEdit's). */
  readonly questionFile?: RegExp;
  /** Rows of the pane that are advice, not a description of the call. */
  readonly tipRows: readonly RegExp[];
  /** The highlighted-row marker of the option list. */
  readonly selectedMarker: string;
  /**
   * The key some dialogs name at the end of an option (WebFetch's `No, and tell Claude what to do
   * differently (esc)`): group 1 is the key, and Esc picks that option.
   */
  readonly optionHotkey?: RegExp;
  readonly optionMeanings: readonly LabelMeaning[];
  readonly amendLabels: readonly AmendLabel[];
  /**
   * The footer's hint that Tab opens the feedback field: drawn while the field is closed, gone
   * while it is open. Matched on its words, not its key name (2.1.329: key hints follow keybindings.json).
   */
  readonly amendHint: RegExp;
  /** Whether Up on the first option goes to the last one. */
  readonly selectionWraps: boolean;
  /** Auto mode's notes on the prompts it puts to the user (2.1.332). */
  readonly autoModeNotes?: readonly AutoModeNote[];
  /** Dialogs about the session that hold the turn (2.1.332: auto mode's "can't check"). */
  readonly sessionDialogs?: readonly SessionDialogText[];

  // The rest of the screen.
  /** The input prompt and the user's messages in the history: `❯` and a (no-break) space. */
  readonly userMessageMarker: RegExp;
  /** An assistant or tool row of the history. */
  readonly bullet: string;
  /** Bullet rows that are tool rows (`● Write(a.txt)`), not answer text. */
  readonly toolRow: RegExp;
  /** The row under a tool row: its result or command (`  ⎿  …`). */
  readonly resultRow: RegExp;
  /** Shown while a turn works (Esc interrupts): the footer's hint and the spinner row. */
  readonly workingMarkers: readonly RegExp[];
  /** Rows Claude draws once a prompt was decided or a call was cut. */
  readonly decisionRows: readonly RegExp[];
  /** The row that closes a finished turn (`✻ Churned for 2s · done 9:28 AM`). */
  readonly turnSummaryRow: RegExp;

  // The transcript.
  /** User text Claude's harness wrote, not the person (`<command-name>`, `<local-command-stdout>`, `<task-notification>`). */
  readonly harnessText: RegExp;
  readonly interruptedText: string;
  readonly interruptedForToolText: string;
  /** The start of every tool_result Claude writes for a user's refusal (and an interrupted run). */
  readonly rejectPrefix: string;
  /** A subagent's refused call (`subagents/agent-*.jsonl`). */
  readonly subagentDeniedPrefix: string;
  /** Followed by the reason the user typed after Tab. */
  readonly userSaid: string;
  /**
   * Auto mode's classifier (a reviewer model): where its explanation starts and ends in the
   * tool_result of a call it blocked (toolDenialKind `automode-blocked`). Measured on 2.1.332.
   */
  readonly classifierReason?: { readonly start: string; readonly end: string };
  /** `toolUseResult` of a plain refusal. */
  readonly rejectedToolUseResult: string;
}
