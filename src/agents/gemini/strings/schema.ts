// The shape of the Gemini-CLI-specific texts the module reads from the screen and the chat file.
// Each measured version has one data file beside this one (v0_61_0.ts); nothing else in the module
// spells a Gemini string, so a new version is a new data file, not a code change.
import type { EventKind } from '../../../core/events.js';
import type { LabelMeaning } from '../../common/optionKeys.js';

export interface GeminiStrings {
  /** The Gemini CLI version these texts were read from. */
  readonly version: string;
  /** The startup banner; group 1 is the version. */
  readonly banner: RegExp;
  /** The dialog's title row inside its box: `? <Tool>  <description> [n of N]`. */
  readonly dialogTitle: RegExp;
  /** The batch counter at the end of a dialog title ("1 of 3"). */
  readonly batchCounter: RegExp;
  /** The questions a dialog asks, by the event kind a decision at it has. */
  readonly questions: ReadonlyArray<{ readonly kind: EventKind; readonly pattern: RegExp }>;
  /** Tool display names whose dialogs are about a file (the file name is in the title). */
  readonly fileTools: readonly string[];
  /** The write_file title's prefix before the file name. */
  readonly writingTo: string;
  readonly selectedMarker: string;
  readonly optionMeanings: readonly LabelMeaning[];
  readonly selectionWraps: boolean;

  /** In the status row while a turn works; Esc cancels. */
  readonly workingMarker: string;
  /** The bullet of the model's answer rows. */
  readonly answerBullet: string;
  /** The prefix of the user's messages in the history (and of the composer). */
  readonly userMessageMarker: string;
  /** The composer's placeholder: the `> ` row holding it is not a message. */
  readonly composerPlaceholder: string;
  /**
   * The first row of a startup warning (`⚠  Warning: True color …`); its wrapped rows are indented.
   * Started with a message, Gemini keeps these below the first dialog.
   */
  readonly startupWarning: RegExp;
  /** Tool rows in the history: decided (✓ approved, - cancelled) and running (⊷). */
  readonly toolRowDone: RegExp;
  readonly toolRowRunning: RegExp;
  /** The history row printed when a request is cancelled (Esc, Ctrl+C, a refused dialog). */
  readonly requestCancelled: string;

  /** The `[Operation Cancelled] Reason: ` prefix of a cancelled call's error, and its reasons. */
  readonly cancelledPrefix: string;
  readonly reasonDenied: string;
  readonly reasonSibling: string;
  readonly reasonAborted: string;
  readonly reasonAbortedEarly: string;
  /** A call the policy engine refused (status `error`): it never ran. */
  readonly policyDenied: string;
  /** The first user record of every session: context Gemini writes, not the user's words. */
  readonly sessionContext: RegExp;
  /** The separator between a call id's tool name and the id the model saw (`<name>__<rawId>`). */
  readonly callIdSeparator: string;
  /**
   * The row of the summary Gemini prints as it quits that names the session (`Session ID:  <id>`,
   * box borders removed); group 1 is the id. The only place it shows the id without being asked.
   */
  readonly sessionIdRow?: RegExp;
}
