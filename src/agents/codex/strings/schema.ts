// The shape of the Codex-specific texts the adapter reads from the screen and the rollout. Each
// supported Codex version has one data file beside this one (v0_169_0.ts); nothing else in the
// adapter spells a Codex string, so a new version is a new data file, not a code change.
import type { LabelMeaning } from '../../common/optionKeys.js';

/** What an approval prompt is about; decides the event `kind` of a rejection. */
export type CodexPromptKind = 'exec' | 'patch' | 'permissions' | 'network' | 'mcp';

export interface PromptTitle {
  readonly kind: CodexPromptKind;
  /** Matched against a trimmed screen row. */
  readonly pattern: RegExp;
}

export type TaskMenuAction = 'cancel' | 'background' | 'exit';

export interface CodexStrings {
  /** The Codex version these texts were read from. */
  readonly version: string;
  readonly promptTitles: readonly PromptTitle[];
  /** The last row of every approval prompt. */
  readonly promptFooter: string;
  /**
   * The last row of a prompt Codex draws as a form (an MCP tool's approval), where a digit picks an
   * option at once and Esc cancels.
   */
  readonly formFooter?: string;
  /** The title of an MCP tool's approval form; group 1 is the server, group 2 the tool. */
  readonly mcpToolTitle?: RegExp;
  /** Detail rows of a prompt: `Reason: …`, `Destination: …`, … (label → prefix). */
  readonly detailPrefixes: Readonly<Record<string, string>>;
  /** The first row of the command block of an exec prompt; continuation rows follow it. */
  readonly commandPrefix: string;
  /** The highlighted-row marker in every option list. */
  readonly selectedMarker: string;
  /** The hotkey shown after an option label, e.g. `(y)`; group 1 is the key. */
  readonly optionHotkey: RegExp;
  readonly optionMeanings: readonly LabelMeaning[];
  /** Letters Codex treats as "deny" at a prompt without showing them as a hotkey. */
  readonly hiddenRejectLetters: readonly string[];
  /** Whether Up on the first option goes to the last one (and Down on the last to the first). */
  readonly selectionWraps: boolean;

  /** History rows printed after a decision at an exec prompt. */
  readonly approvedLine: string;
  readonly canceledLine: string;
  /** The starts of the history rows printed after a decision at a network prompt (approved, persisted, canceled). */
  readonly networkDecisionLines?: readonly string[];
  /** The exec prompt's "always" option; group 1 is the command prefix its rule will allow. */
  readonly prefixRuleOption?: RegExp;
  /** The `description` of the PermissionRequest hook before a network prompt; group 1 is the URL asked for. */
  readonly networkHookDescription?: RegExp;
  /** A network prompt's title; group 1 is the host asked for. */
  readonly networkTitle?: RegExp;
  readonly interruptedLine: string;
  /** Shown in the status row while a turn works; Esc interrupts. */
  readonly workingMarker: string;

  readonly taskMenuTitle: string;
  readonly taskMenuFooter: string;
  readonly taskMenuOptions: ReadonlyArray<{ readonly labelPrefix: string; readonly action: TaskMenuAction }>;
  /** Printed when the TUI leaves a task: after "Run in background" or "Exit" in the task menu. */
  readonly disconnectedLine: string;
  /**
   * What Codex prints as it exits, naming this session; group 1 is the id. Each is tried on one row
   * and on a row joined to the one above it by `\n` (rows trimmed). The only place Codex shows its
   * session id without being asked.
   */
  readonly sessionIdRows?: readonly RegExp[];

  readonly hookTrustTitle: string;

  /**
   * The OSC sequence Codex writes with its state (`ESC ] 7501 ; state=blocked:app=codex:kind=permission`
   * while an approval prompt waits, `state=working` / `state=idle` otherwise): a witness the screen
   * cannot show that a prompt is really open.
   */
  readonly statusOsc?: { readonly ident: number; readonly blockedState: string; /** Group 1 is the state. */ readonly statePattern: RegExp };

  /** The history-cell bullet of agent output, and the prefix of the user's own messages. */
  readonly agentBullet: string;
  readonly userMessageMarker: string;
  /** Bullet rows that are tool cells or status rows, not streamed answer text. */
  readonly nonAnswerBullets: readonly RegExp[];

  /** The row that closes a finished turn ("Worked for 2s • 09:28"): not part of the answer. */
  readonly turnSummaryRow: RegExp;

  /** The last line of a function_call_output for a call the user cancelled or interrupted. */
  readonly abortedMarker: string;
  /**
   * How the output of an MCP tool call the user cancelled at its form ends (the turn goes on):
   * `marker` closes it, right after the `afterHeader` that ends Codex's "Wall time" content item.
   */
  readonly mcpCancelled?: { readonly marker: string; readonly afterHeader: string };
  /**
   * The output of a call Codex's harness refused before starting it (its auto-review, or a hook
   * that answered PermissionRequest): `pattern` holds the whole output, group 1 the refusal's
   * message, escaped twice (Codex writes the Debug form of an error holding the Debug form of the
   * message). Measured on 0.171.0 (docs/codex-auto-review.md).
   */
  readonly harnessRefusal?: {
    readonly pattern: RegExp;
    /** How the message of each of the reviewer's own refusals starts. */
    readonly reviewer: { readonly denied: string; readonly failed: string; readonly timedOut: string };
    /** Where a denial's rationale starts and ends in its message (the end is optional). */
    readonly rationaleStart: string;
    readonly rationaleEnd: string;
    /**
     * The message Codex gives a PermissionRequest hook's deny that named none: its own words for a
     * hook's refusal. A deny with a message of the hook's has no such words (a rule's refusal reads
     * the same): only the screen's `hookBlocked` cell tells it.
     */
    readonly hookDenied?: string;
    /**
     * The whole output of a call a PreToolUse hook blocked (not a `pattern` form): `prefix`, the
     * hook's reason, then `commandSeparator` and the command.
     */
    readonly preToolUseBlocked?: { readonly prefix: string; readonly commandSeparator: string };
    /**
     * The message of a call a `forbidden` rule refused; group 1 is the prefix the rule forbids. A
     * hook's own message could read the same: only a rule of that prefix names the refuser (ruleRefusals.ts).
     */
    readonly ruleForbids?: RegExp;
  };
  /**
   * The history cell Codex draws when a hook refused a call (a PermissionRequest hook's deny, a
   * PreToolUse hook's block): the `title` row, then the hook's message after `detailPrefix`; its
   * further lines below, indented by `lineIndent` (a long line wraps to column 0).
   */
  readonly hookBlocked?: { readonly title: string; readonly detailPrefix: string; readonly lineIndent: string };
  /**
   * What Codex puts in place of the middle of a long output in the rollout (`…1070 chars
   * truncated…`): the text either side of it is the output's own.
   */
  readonly outputTruncated?: RegExp;
  /** Message text the harness writes itself (`<turn_aborted>` notes, `<environment_context>`). */
  readonly harnessText: RegExp;
  /** Shell calls wrapped as `["bash", "-lc", "<script>"]`: Codex shows only the script. */
  readonly shellWrapper: { readonly shell: RegExp; readonly scriptFlag: string };
  /** Codex `exec_command` carries apply_patch as a heredoc; these rows name the files. */
  readonly patchFileRow: RegExp;
}
