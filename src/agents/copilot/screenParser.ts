// Reads what GitHub Copilot CLI draws (docs/copilot.md §2): the permission box at the bottom of the
// screen (its title, what it asks about, the question, the numbered options, the `❯` highlight and
// the "No, and tell Copilot…" row that turns into a text field), the dialogs that are not about a
// call (folder trust, ask_user), the footer (working, the interrupt one Esc armed, cancelling), the
// user's messages, the answer being streamed, and the rows Copilot draws once a call was refused or
// a turn cut. Pure: a snapshot in, a description out.
//
// Copilot draws full screen and redraws only the cells that changed, so a frame read between two
// pty reads can hold half of a new box over the old screen, or one prompt's title over the next
// one's command. A box is read only when it is whole: its border closed on every row, its footer
// drawn, every option a label this kind of box draws, and the call it shows the one the history
// lists under the same description (promptBox.ts).
import type { ScreenSnapshot } from '../../core/screen.js';
import type { CopilotStrings } from './strings/index.js';
import { findBox, readBox, type CopilotPrompt } from './promptBox.js';

export type { CopilotPrompt } from './promptBox.js';

/** A dialog that is not a permission prompt: its keys decide no call. */
export type CopilotDialog = 'folder_trust' | 'ask_user';

export interface CopilotScreen {
  readonly prompt?: CopilotPrompt;
  /** The folder trust dialog (Esc there exits the CLI) or ask_user's form (Esc there lets the turn go on). */
  readonly dialog?: CopilotDialog;
  /**
   * A whole box with the permission footer and a numbered list that these strings cannot read (a
   * prompt not measured, such as the sandbox's): a key there answers it.
   */
  readonly unreadOptionList: boolean;
  /** The footer says a turn works (Esc twice or Ctrl+C once interrupts it). */
  readonly working: boolean;
  /** One Esc armed the interrupt: the footer asks for the second. */
  readonly interruptArmed: boolean;
  /** A cut turn winds down: keys cut nothing more. */
  readonly cancelling: boolean;
  /** The answer of the current turn as shown (bullet and indent removed). */
  readonly answerText?: string;
  /** The user's messages in the history (not the composer's draft). */
  readonly userMessages: readonly string[];
  /** Rows Copilot drew after a refusal or a cut (`✗ …`, `● Operation cancelled by user`). */
  readonly decisionRows: number;
  readonly bannerVersion?: string;
  /** The session id the exit summary names (`copilot --resume=<id>`). */
  readonly sessionId?: string;
}

/** The scroll gutter Copilot draws at the right edge of the history once it scrolls. */
const GUTTER = /\s*┃$/;
const RULE = /^─{8,}$/;

export function parseCopilotScreen(snapshot: ScreenSnapshot, s: CopilotStrings): CopilotScreen {
  const lines = snapshot.lines.map((l) => l.replace(GUTTER, '').trimEnd());
  const box = findBox(lines);
  const read = box ? readBox(lines, box, s) : undefined;
  const historyEnd = box ? box.top : composerTop(lines);
  const footer = footerText(lines);
  const answerText = parseAnswer(lines, s, historyEnd);
  const bannerVersion = firstMatch(lines, s.banner);
  const sessionId = firstMatch(lines, s.resumeRow);
  const dialog = read?.dialog ?? (askUserShown(lines, s) ? 'ask_user' : undefined);
  return {
    ...(read?.prompt ? { prompt: read.prompt } : {}),
    ...(dialog ? { dialog } : {}),
    unreadOptionList: read?.unread === true,
    working: footer !== undefined && s.workingFooter.test(footer),
    interruptArmed: footer !== undefined && s.interruptArmed.test(footer),
    cancelling: footer !== undefined && s.cancellingFooter.test(footer),
    ...(answerText !== undefined ? { answerText } : {}),
    userMessages: parseUserMessages(lines, s, historyEnd),
    decisionRows: lines.filter((l) => s.decisionRows.some((re) => re.test(l.trim()))).length,
    ...(bannerVersion !== undefined ? { bannerVersion } : {}),
    ...(sessionId !== undefined ? { sessionId } : {}),
  };
}

function firstMatch(lines: readonly string[], re: RegExp): string | undefined {
  for (const line of lines) {
    const m = re.exec(line);
    if (m?.[1] !== undefined) return m[1];
  }
  return undefined;
}

function lastDrawnRow(lines: readonly string[]): number {
  let row = lines.length - 1;
  while (row >= 0 && lines[row]!.trim() === '') row--;
  return row;
}

/**
 * The footer under the composer: the last row drawn, right under a full-width rule, without the
 * model's name at its right edge. Undefined while a box or a form covers the composer.
 */
function footerText(lines: readonly string[]): string | undefined {
  const row = lastDrawnRow(lines);
  if (row < 1 || !RULE.test(lines[row - 1]!.trim()) || RULE.test(lines[row]!.trim())) return undefined;
  return lines[row]!.trim().split(/\s{2,}/)[0];
}

/** The composer's top rule (`─` over the `❯` row), or the screen's end when none is drawn. */
function composerTop(lines: readonly string[]): number {
  for (let row = lines.length - 2; row >= 0; row--) {
    if (RULE.test(lines[row]!.trim()) && lines[row + 1]!.startsWith('❯')) return row;
  }
  return lines.length;
}

/**
 * ask_user's form while it is the bottom pane: its first row, then its footer, then only the closing
 * rule under it. Its rows start at column 1, where the history's rows never start with these words.
 */
function askUserShown(lines: readonly string[], s: CopilotStrings): boolean {
  const last = lastDrawnRow(lines);
  const footerRow = RULE.test(lines[last]?.trim() ?? '') ? last - 1 : last;
  if (footerRow < 1 || !s.askUser.footer.test(lines[footerRow]!.trim())) return false;
  for (let row = footerRow - 1; row >= 0; row--) {
    if (RULE.test(lines[row]!.trim())) return false;
    if (s.askUser.title.test(lines[row]!.trim())) return true;
  }
  return false;
}

/** The ` ❯ <text>    HH:MM` rows of the history above `end` (the composer's own `❯` row is at column 0). */
function parseUserMessages(lines: readonly string[], s: CopilotStrings, end: number): string[] {
  const out: string[] = [];
  for (let row = 0; row < Math.min(end, lines.length); row++) {
    const m = s.userMessage.exec(lines[row]!);
    if (m) out.push(m[1]!.trim());
  }
  return out;
}

/**
 * The streamed answer: the last `●` block under the user's last message that is neither a note of
 * Copilot's own nor a finished tool's row (which has a `└` detail row), with its indented rows.
 */
function parseAnswer(lines: readonly string[], s: CopilotStrings, end: number): string | undefined {
  const stop = Math.min(end, lines.length);
  let userRow = -1;
  for (let row = stop - 1; row >= 0 && userRow < 0; row--) if (s.userMessage.test(lines[row]!)) userRow = row;
  if (userRow < 0) return undefined;
  for (let row = stop - 1; row > userRow; row--) {
    const text = lines[row]!.slice(1);
    if (!text.startsWith(s.answerBullet) || s.notAnswerRows.some((re) => re.test(text))) continue;
    const out = [text.slice(s.answerBullet.length).trimEnd()];
    let next = row + 1;
    for (; next < stop && /^ {3}\S/.test(lines[next]!); next++) out.push(lines[next]!.slice(3).trimEnd());
    if (out.slice(1).some((t) => s.toolDetailRow.test(t))) continue;
    return out.join('\n');
  }
  return undefined;
}
