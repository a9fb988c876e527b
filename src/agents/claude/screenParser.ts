// Reads what Claude Code's renderers show: the full-screen one (2.1.330 default: the alternate
// screen, only changed cells redrawn, words placed with cursor moves) and the inline one the user
// may pick (`"tui": "default"`: the normal screen, history scrolling away, the live area erased and
// rewritten line by line; tool rows `● Bash(…)` / `⎿  Waiting…`). Both draw the same permission
// prompt, footers and decision rows, so one reading serves both: the permission prompt, the feedback
// field Tab opens on its highlighted option, the working status, the user's messages, a streamed
// answer and the rows Claude draws once a call was decided or cut. It reads the rendered screen
// (core/screen.ts), never the output bytes, in which a prompt's words are never contiguous. Pure:
// a snapshot in, a description out.
import type { ScreenSnapshot } from '../../core/screen.js';
import type { PromptView } from '../common/agentProfile.js';
import { joinWrapped, parseOptionList, type ListOption } from '../common/optionList.js';
import type { ClaudeStrings } from './strings/index.js';
import type { PromptTitle, SessionDialogText } from './strings/schema.js';

/** The inline feedback field Tab opened on the highlighted option. Its text is never kept. */
export interface FeedbackField {
  /** Whether anything was typed into it (the label is no longer the placeholder). */
  readonly typed: boolean;
}

/** A permission prompt as Claude draws it. */
export interface ClaudePrompt extends PromptView {
  readonly titleRow: number;
  /** What the body between the dashed rules is: a command, or a file's diff or content; `plan`: plan mode's dialog, with none. */
  readonly body: 'command' | 'file' | 'plan' | 'tool' | 'other';
  /** The file the question names (NotebookEdit's dialog draws it before any row above it). */
  readonly questionFile?: string;
  /** Open while the highlighted option is a text field (after Tab). */
  readonly feedback?: FeedbackField;
  /**
   * Whether Tab opens that field here: the footer offers it, or it is open. Plan mode's dialog has
   * no footer, and Tab there does nothing (docs/claude-plan.md).
   */
  readonly amendable: boolean;
}

export interface ClaudeScreen {
  readonly prompt?: ClaudePrompt;
  /** Claude says Esc interrupts: a turn works (a reply streams or a tool runs). */
  readonly working: boolean;
  /** The answer of the current turn as shown (bullet and indent removed). */
  readonly answerText?: string;
  /** The user's messages in the history (not the input prompt), wrapped rows re-joined. */
  readonly userMessages: readonly string[];
  /** Rows Claude drew after decisions and cuts (`⎿  Interrupted · …`, `Did not run 1 call`). */
  readonly decisionRows: number;
  /**
   * A dialog about the session, not a call, holding the turn (auto mode's "can't check actions in
   * this session"): the keys that stop the turn there.
   */
  readonly sessionDialog?: { readonly stops: readonly ('esc' | 'shift-tab')[] };
  /**
   * Which renderer drew the screen: `fullscreen` (the default, on the alternate screen) or `inline`
   * (the user's `"tui": "default"`, on the normal screen); absent when the view cannot tell.
   */
  readonly renderer?: ClaudeRenderer;
}

export type ClaudeRenderer = 'fullscreen' | 'inline';

export function parseClaudeScreen(snapshot: ScreenSnapshot, strings: ClaudeStrings): ClaudeScreen {
  const lines = snapshot.lines;
  const trimmed = lines.map((l) => l.trim());
  const prompt = parsePrompt(lines, trimmed, strings);
  const paneTop = prompt ? prompt.titleRow - 1 : lastPaneTop(trimmed, strings);
  const answerText = parseAnswer(lines, strings, paneTop);
  const dialog = prompt ? undefined : parseSessionDialog(trimmed, strings);
  return {
    ...(prompt ? { prompt } : {}),
    ...(dialog ? { sessionDialog: { stops: dialog.stops } } : {}),
    working: trimmed.some((t) => strings.workingMarkers.some((re) => re.test(t))),
    ...(answerText !== undefined ? { answerText } : {}),
    userMessages: parseUserMessages(lines, trimmed, strings, paneTop),
    decisionRows: trimmed.filter((t) => strings.decisionRows.some((re) => re.test(t))).length,
    ...(snapshot.alternate !== undefined ? { renderer: snapshot.alternate ? 'fullscreen' : 'inline' } : {}),
  };
}

/** The top rule of the input prompt's box (the pane under the history), or the screen's end. */
function lastPaneTop(trimmed: readonly string[], s: ClaudeStrings): number {
  for (let row = trimmed.length - 1; row > 0; row--) {
    if (s.paneRule.test(trimmed[row - 1]!) && s.userMessageMarker.test(trimmed[row]! + ' ')) return row - 1;
  }
  return trimmed.length;
}

/**
 * The permission prompt, only while it is the live bottom pane: a `─` rule, the title, the body
 * between `╌` rules, the question, the options, and under them nothing but the footer. Its rows
 * in the history once decided lose that shape (Claude prints `⎿` rows instead).
 */
function parsePrompt(lines: readonly string[], trimmed: readonly string[], s: ClaudeStrings): ClaudePrompt | undefined {
  const questionRow = lastRow(trimmed, trimmed.length - 1, s.question);
  if (questionRow < 0) return undefined;
  const ruleRow = lastRow(trimmed, questionRow - 1, s.paneRule);
  if (ruleRow < 0 || ruleRow + 1 >= questionRow) return undefined;
  const pane = readPane(lines, trimmed, ruleRow + 1, questionRow, s);
  // Auto mode's note says why it asks the user, and whether the options carry numbers.
  const autoMode = pane.details.note !== undefined ? s.autoModeNotes?.find((a) => a.pattern.test(pane.details.note!)) : undefined;
  const options = parseOptionList(lines, questionRow + 1, lines.length, {
    marker: s.selectedMarker,
    ...(s.optionHotkey ? { hotkey: s.optionHotkey } : {}),
    ...(autoMode?.unnumbered ? { unnumbered: true } : {}),
  });
  if (options.length < 2) return undefined;
  // Under the list: blank rows and at most the footer.
  let listEnd = options[options.length - 1]!.row + 1;
  while (listEnd < trimmed.length && trimmed[listEnd] !== '') listEnd++;
  const below = trimmed.slice(listEnd).filter((t) => t !== '');
  if (below.length > 1) return undefined;
  const footer = below[0];

  const { title, known, body, command } = pane;
  const details: Record<string, string> = { ...pane.details, ...(autoMode ? { auto_mode: autoMode.cause } : {}) };
  details.question = trimmed[questionRow]!;
  const questionFile = body === 'file' ? s.questionFile?.exec(details.question)?.[1] : undefined;

  const amending = footer !== undefined && !s.amendHint.test(footer);
  const { options: shown, feedback } = withFeedbackField(options, amending, s);
  const highlighted = shown.find((o) => o.highlighted)?.number;
  // The question's file first: NotebookEdit's dialog draws its title and question, then the file,
  // the cell and the diff as they load, and it is one prompt throughout.
  const subject = command ?? questionFile ?? details.file ?? details.description ?? '';
  const identity = [known?.kind ?? 'permission', title, squash(subject), shown.length].join('|');
  const subagent = s.subagentTitle.exec(title)?.[1];
  return {
    kind: known?.kind ?? 'permission',
    title,
    titleRow: pane.titleRow,
    body,
    ...(command !== undefined ? { command } : {}),
    details,
    ...(questionFile !== undefined ? { questionFile } : {}),
    options: shown,
    ...(highlighted !== undefined ? { highlighted } : {}),
    ...(feedback ? { feedback } : {}),
    amendable: feedback !== undefined || (footer !== undefined && s.amendHint.test(footer)),
    ...(subagent !== undefined ? { subagent } : {}),
    identity,
  };
}

/**
 * A dialog about the session while it is the bottom pane: its title under a `─` rule, and its
 * footer as the screen's last row.
 */
function parseSessionDialog(trimmed: readonly string[], s: ClaudeStrings): SessionDialogText | undefined {
  let footerRow = trimmed.length - 1;
  while (footerRow >= 0 && trimmed[footerRow] === '') footerRow--;
  if (footerRow < 1) return undefined;
  return s.sessionDialogs?.find((d) => {
    if (!d.footer.test(trimmed[footerRow]!)) return false;
    const titleRow = lastRow(trimmed, footerRow - 1, d.title);
    return titleRow > 0 && s.paneRule.test(trimmed[titleRow - 1]!);
  });
}

/** The last row at or above `from` that matches, or -1. */
function lastRow(trimmed: readonly string[], from: number, re: RegExp): number {
  for (let row = from; row >= 0; row--) if (re.test(trimmed[row]!)) return row;
  return -1;
}

interface PromptPane {
  readonly titleRow: number;
  readonly title: string;
  readonly known: PromptTitle | undefined;
  readonly body: ClaudePrompt['body'];
  readonly command?: string;
  /** description or file, body, note (the question is added by the caller). */
  readonly details: Readonly<Record<string, string>>;
}

/** The rows between the pane's rule and the question: title, description or file, the `╌` body, notes under it. */
function readPane(lines: readonly string[], trimmed: readonly string[], titleRow: number, questionRow: number, s: ClaudeStrings): PromptPane {
  const title = trimmed[titleRow]!;
  const detail = trimmed[titleRow + 1] ?? '';
  const known = s.promptTitles.find((t) => t.pattern.test(title) && (t.detail === undefined || t.detail.test(detail)));
  const body = known?.body ?? 'other';
  const between = range(titleRow + 1, questionRow);
  const rules = between.filter((row) => s.bodyRule.test(trimmed[row]!));
  const firstRule = rules[0] ?? questionRow;
  const lastRule = rules.length >= 2 ? rules[rules.length - 1]! : firstRule;
  const text = (rows: number[]) => rows.map((r) => trimmed[r]!).filter((t) => t !== '' && !s.tipRows.some((re) => re.test(t)));
  const head = text(range(titleRow + 1, firstRule));
  const bodyRows = rules.length >= 2 ? range(firstRule + 1, lastRule).filter((r) => !s.bodyRule.test(trimmed[r]!)) : [];
  // Auto mode's breaker draws its note under a `│` gutter, with a bare `│` between paragraphs.
  const notes = withoutGutter(text(range(lastRule + 1, questionRow)), s.bodyGutter).filter((t) => t !== '');

  const details: Record<string, string> = {};
  let command: string | undefined;
  if (body === 'command') {
    if (head.length) details.description = joinWrapped(head);
    command = joinWrapped(withoutGutter(bodyRows.map((r) => trimmed[r]!).filter((t) => t !== ''), s.bodyGutter));
  } else {
    if (head.length) details[body === 'file' ? 'file' : 'description'] = joinWrapped(head);
    // Diff and content rows keep their own layout (line numbers, +/-), one space of pane indent removed.
    if (bodyRows.length) details.body = bodyRows.map((r) => lines[r]!.replace(/^ /, '')).join('\n');
  }
  if (notes.length) details.note = joinWrapped(notes);
  return { titleRow, title, known, body, ...(command !== undefined ? { command } : {}), details };
}

/**
 * A wrapped command's rows without the gutter Claude draws before each of them. Only when every row
 * has it: otherwise the rows are kept as shown, and a command that does not match stays unlinked.
 */
function withoutGutter(rows: readonly string[], gutter: RegExp | undefined): readonly string[] {
  if (!gutter || rows.length === 0 || !rows.every((t) => gutter.test(t))) return rows;
  return rows.map((t) => t.replace(gutter, ''));
}

/**
 * While Tab's text field is open on the highlighted option, its label is the placeholder or
 * `No, <what the user typed>`: the option keeps its own label here (`No`), and only whether
 * something was typed is kept, never the text.
 */
function withFeedbackField(options: ListOption[], amending: boolean, s: ClaudeStrings): { options: ListOption[]; feedback?: FeedbackField } {
  const at = options.findIndex((o) => o.highlighted);
  const option = options[at];
  if (!option) return { options };
  const amend = s.amendLabels.find((a) => option.label === a.placeholder || (amending && option.label.startsWith(a.typedPrefix)));
  if (!amend) return { options };
  const out = [...options];
  out[at] = { ...option, label: amend.label };
  return { options: out, feedback: { typed: option.label !== amend.placeholder } };
}

/**
 * The `❯ …` rows of the history. The input prompt's own `❯` row (right under the pane rule) is the
 * user's draft, not a message, and is left out.
 */
function parseUserMessages(lines: readonly string[], trimmed: readonly string[], s: ClaudeStrings, paneTop: number): string[] {
  const out: string[] = [];
  for (let row = 0; row < Math.min(paneTop, lines.length); row++) {
    const line = lines[row]!;
    if (!s.userMessageMarker.test(line)) continue;
    const parts = [line.slice(2).trim()];
    for (let next = row + 1; next < paneTop && lines[next]!.startsWith('  ') && trimmed[next] !== ''; next++) parts.push(trimmed[next]!);
    out.push(joinWrapped(parts));
  }
  return out;
}

/**
 * The streamed answer: the last `●` row under the user's last message that is neither a tool row
 * nor a tool's description (a row followed by its `⎿` row), with its indented rows.
 */
function parseAnswer(lines: readonly string[], s: ClaudeStrings, end: number): string | undefined {
  let userRow = -1;
  for (let row = Math.min(end, lines.length) - 1; row >= 0; row--) {
    if (s.userMessageMarker.test(lines[row]!)) {
      userRow = row;
      break;
    }
  }
  if (userRow < 0) return undefined;
  // A row with a result row under it belongs to a tool (its description, or the inline renderer's
  // tool row while its blinking bullet is off); an interrupt row under an answer does not make it one.
  const toolsRow = (row: number) => {
    const next = lines[row + 1] ?? '';
    return s.resultRow.test(next) && !s.decisionRows.some((re) => re.test(next.trim()));
  };
  let bulletRow = -1;
  for (let row = Math.min(end, lines.length) - 1; row > userRow; row--) {
    const line = lines[row]!;
    if (!line.startsWith(s.bullet) || s.toolRow.test(line) || toolsRow(row)) continue;
    bulletRow = row;
    break;
  }
  if (bulletRow < 0) return undefined;
  const out = [lines[bulletRow]!.slice(s.bullet.length).trimEnd()];
  for (let row = bulletRow + 1; row < Math.min(end, lines.length); row++) {
    const line = lines[row]!;
    if ((line !== '' && !line.startsWith('  ')) || s.resultRow.test(line) || toolsRow(row)) break;
    out.push(line.slice(2).trimEnd());
  }
  while (out.length && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i < to; i++) out.push(i);
  return out;
}

export const squash = (s: string): string => s.replace(/\s+/g, '');
