// The shape of the GitHub Copilot CLI texts the module reads from the screen. Each measured version
// has one data file beside this one (v1_0_102.ts); nothing else in the module spells a Copilot
// screen string, so a new version is a new data file, not a code change.
import type { EventKind } from '../../../core/events.js';
import type { OptionMeaning } from '../../common/agentProfile.js';

/**
 * One kind of permission box, told by its question (the row right above the options): the title row
 * alone is the call's description for a shell or URL prompt, so it cannot tell the kind.
 */
export interface PromptText {
  readonly kind: EventKind;
  /** Matched against the question row, box sides removed; group 1, when there is one, is the file it names. */
  readonly question: RegExp;
  /**
   * What the rows between the title's rule and the question show: `command` (the command in an inner
   * box), `file` (`<name> +N -M`, the folder, the numbered diff), `path` (the path, then the folder
   * read access would cover), `url` (the URL), `tool` (an MCP tool's arguments as JSON).
   */
  readonly body: 'command' | 'file' | 'path' | 'url' | 'tool';
  /**
   * The option labels this box draws, each matched against the whole label: a row that matches none
   * is from another box (a torn redraw), never an option of this one.
   */
  readonly options: readonly RegExp[];
}

/**
 * What choosing an option means, by a pattern over its label: two URL options share their start and
 * differ only in their end (`… for the rest of the running session` / `… permanently`).
 */
export interface LabelPattern extends OptionMeaning {
  readonly label: RegExp;
}

/** A dialog that is not about a call: what tells it, and what its options are. */
export interface DialogText {
  /** Matched against the trimmed row (box sides removed where it is boxed). */
  readonly title: RegExp;
  readonly footer: RegExp;
}

export interface CopilotStrings {
  /** The Copilot CLI version these texts were read from. */
  readonly version: string;
  /** The banner row; group 1 is the version. */
  readonly banner: RegExp;

  // The permission box.
  readonly prompts: readonly PromptText[];
  /** The box's last row inside its border, under the options. */
  readonly promptFooter: RegExp;
  /** The row above the box while several prompts wait in a queue; group 1 is how many wait behind it. */
  readonly queueHeader: RegExp;
  /** The start of a pending shell call's row in the history, before its description (its command under it). */
  readonly pendingShellRow: string;
  /** The highlighted-row marker of the option list. */
  readonly selectedMarker: string;
  /**
   * The option that turns into a text field while highlighted: its label as drawn until the user
   * types, and the suffix the typed text keeps (`<text> (Esc to stop)`).
   */
  readonly feedbackOption: { readonly label: string; readonly typedSuffix: string };
  /** The key named at the end of a label (`No (Esc)`): group 1 is the key, and that key picks the option. */
  readonly optionHotkey: RegExp;
  /** What choosing an option means, the first whose pattern matches the whole label. */
  readonly optionMeanings: readonly LabelPattern[];

  // Dialogs that are not permission prompts.
  /** The folder trust dialog (a box before the composer on a first start in an untrusted folder). */
  readonly folderTrust: DialogText;
  /** ask_user's form (between full-width rules, no box): its first row and its footer. */
  readonly askUser: DialogText;

  // The rest of the screen.
  /** The footer while a turn works; group 1 says whether one Esc armed the interrupt (`esc again`). */
  readonly workingFooter: RegExp;
  /** The footer after one Esc armed the interrupt, shown while working or while the cut is under way. */
  readonly interruptArmed: RegExp;
  /** The footer while a cut turn winds down: keys no longer cut anything. */
  readonly cancellingFooter: RegExp;
  /** A message the user sent, in the history: ` ❯ <text>` and the time at the right edge; group 1 is the text. */
  readonly userMessage: RegExp;
  /** The bullet of the model's answer rows (and of tool rows that finished). */
  readonly answerBullet: string;
  /** `●` rows that are Copilot's own notes, not the answer (the start-up tips, the cut notice). */
  readonly notAnswerRows: readonly RegExp[];
  /** The detail row under a finished tool's `●` row (`└ a.txt`): that block is the tool's, not the answer. */
  readonly toolDetailRow: RegExp;
  /**
   * Rows Copilot draws once a prompt was decided against or a turn was cut (`✗ Shell … The user
   * rejected this tool call.`, `✗ … Operation aborted by user`, `● Operation cancelled by user`).
   */
  readonly decisionRows: readonly RegExp[];
  /** The exit summary's resume row; group 1 is the session id. */
  readonly resumeRow: RegExp;
}
