// The box Copilot draws at the bottom of the screen for a permission prompt or its folder trust
// dialog (docs/copilot.md §2): `╭─╮`, the title, a `─` rule, what it asks about (plain rows and
// inner boxes), the question, the numbered options, the footer, `╰─╯`. Read only when whole, since
// Copilot redraws only the cells that changed (screenParser.ts says why).
import type { EventKind } from '../../core/events.js';
import type { PromptView } from '../common/agentProfile.js';
import { joinWrapped, parseOptionList, type ListOption } from '../common/optionList.js';
import type { CopilotStrings } from './strings/index.js';
import type { PromptText } from './strings/schema.js';

/** A permission prompt as Copilot draws it. */
export interface CopilotPrompt extends PromptView {
  /** What the rows above the question show (strings/schema.ts PromptText). */
  readonly body: PromptText['body'];
  readonly question: string;
  /** How many prompts wait behind this one, when the queue's header is drawn above the box. */
  readonly remaining?: number;
  /** The box's top row. */
  readonly titleRow: number;
}

/** The rows of the bottom box: its top border, its bottom border. */
export interface BoxRows {
  readonly top: number;
  readonly bottom: number;
}

export interface BoxReading {
  readonly prompt?: CopilotPrompt;
  readonly dialog?: 'folder_trust';
  /** A whole box with a numbered, highlighted list whose texts these strings do not know. */
  readonly unread?: boolean;
}

/**
 * The box that is the bottom pane: its bottom border is the last row drawn (a border the old footer
 * still shows through at its end is taken), and every row up to its top is a bordered row. The
 * history is indented, so nothing in it starts at column 0 with a border.
 */
export function findBox(lines: readonly string[]): BoxRows | undefined {
  let bottom = lines.length - 1;
  while (bottom >= 0 && lines[bottom]!.trim() === '') bottom--;
  if (bottom < 2 || !lines[bottom]!.startsWith('╰─')) return undefined;
  for (let row = bottom - 1; row >= 0; row--) {
    const line = lines[row]!;
    if (line.startsWith('╭─')) return line.endsWith('╮') ? { top: row, bottom } : undefined;
    if (!line.startsWith('│')) return undefined;
  }
  return undefined;
}

/** A bordered row's content, one column of padding kept so that option rows keep their indent. */
function inside(line: string): string | undefined {
  return line.endsWith('│') ? line.slice(1, -1).trimEnd() : undefined;
}

export function readBox(lines: readonly string[], box: BoxRows, s: CopilotStrings): BoxReading | undefined {
  const rows: string[] = [];
  for (let row = box.top + 1; row < box.bottom; row++) {
    const content = inside(lines[row]!);
    // A row without its right border is half drawn.
    if (content === undefined) return undefined;
    rows.push(content);
  }
  const trimmed = rows.map((r) => r.trim());
  let footerRow = trimmed.length - 1;
  while (footerRow >= 0 && trimmed[footerRow] === '') footerRow--;
  if (footerRow < 2 || !s.promptFooter.test(trimmed[footerRow]!) || !/^─+$/.test(trimmed[1]!)) return undefined;
  const title = trimmed[0]!;
  if (s.folderTrust.title.test(title)) return { dialog: 'folder_trust' };
  const asked = findQuestion(trimmed, footerRow, s);
  if (!asked) return unreadList(rows, footerRow, s);
  const { text, questionRow, lastRow } = asked;
  const options = parseOptionList(rows, lastRow + 1, footerRow, { marker: s.selectedMarker, hotkey: s.optionHotkey, wrapsUnderNumber: true });
  if (!listIsWhole(trimmed, options, lastRow, footerRow)) return undefined;
  const shown = withFeedbackField(options, text, s);
  if (!shown) return undefined;
  const prompt = promptOf(rows, { title, text, question: asked.question, questionRow, options: shown.options, box }, lines, s);
  if (!prompt) return undefined;
  return { prompt: { ...prompt, ...(shown.feedback ? { feedback: shown.feedback } : {}) } };
}

/** A question wraps onto at most this many rows (a long path at 80 columns takes two). */
const QUESTION_MAX_ROWS = 3;

/**
 * The question: the lowest rows above the options that one of the known boxes asks, a wrapped
 * question's rows re-joined (at 80 columns "Do you want to create /tmp/…/" over "work/x.txt?").
 */
function findQuestion(trimmed: readonly string[], footerRow: number, s: CopilotStrings): { text: PromptText; question: string; questionRow: number; lastRow: number } | undefined {
  for (let lastRow = footerRow - 1; lastRow > 1; lastRow--) {
    for (let first = lastRow; first > 1 && first > lastRow - QUESTION_MAX_ROWS && trimmed[first] !== ''; first--) {
      const question = joinWrapped(trimmed.slice(first, lastRow + 1));
      const text = s.prompts.find((p) => p.question.test(question));
      if (text) return { text, question, questionRow: first, lastRow };
    }
  }
  return undefined;
}

/** Between the question and the footer: only the options (numbered from 1, at least two), their wrapped rows, and blank rows. */
function listIsWhole(trimmed: readonly string[], options: readonly ListOption[], questionRow: number, footerRow: number): boolean {
  if (options.length < 2 || options[0]!.number !== 1) return false;
  const optionRows = new Set(options.flatMap((o) => Array.from({ length: (o.lastRow ?? o.row) - o.row + 1 }, (_, i) => o.row + i)));
  return trimmed.slice(questionRow + 1, footerRow).every((t, i) => t === '' || optionRows.has(questionRow + 1 + i));
}

/** A whole box with the permission footer whose question or options these strings do not read. */
function unreadList(rows: readonly string[], footerRow: number, s: CopilotStrings): BoxReading | undefined {
  const options = parseOptionList(rows, 0, footerRow, { marker: s.selectedMarker });
  return options.length >= 2 && options.some((o) => o.highlighted) ? { unread: true } : undefined;
}

/**
 * Checks every label against what this kind of box draws, and reads the text field: while the
 * "No, and tell Copilot…" option is highlighted it is a field, its label replaced by what was typed
 * (`<text> (Esc to stop)`). The option keeps its own label here; only whether text was typed is
 * kept, never the text. Undefined when a label belongs to no option of this box (a torn redraw).
 */
function withFeedbackField(options: ListOption[], text: PromptText, s: CopilotStrings): { options: ListOption[]; feedback?: { typed: boolean } } | undefined {
  const field = s.feedbackOption;
  const last = text.options[text.options.length - 1]!;
  const takesField = last.test(field.label);
  const out: ListOption[] = [];
  let feedback: { typed: boolean } | undefined;
  for (const [i, option] of options.entries()) {
    const isLast = i === options.length - 1;
    const label = option.key ? { ...option, key: option.key.toLowerCase() } : option;
    // Typed text stays in the label while the field is open; a frame in which the highlight already
    // moved but the label is not yet redrawn shows it on a row without the marker.
    if (isLast && takesField && option.label.endsWith(field.typedSuffix)) {
      if (option.highlighted) feedback = { typed: option.label !== field.label };
      out.push({ ...label, label: field.label });
      continue;
    }
    // The first option is Yes and the last one refuses: a list cut short is not this box's.
    const fits = i === 0 ? text.options[0]!.test(option.label) : isLast ? last.test(option.label) : text.options.slice(1, -1).some((re) => re.test(option.label));
    if (!fits) return undefined;
    out.push(label);
  }
  return { options: out, ...(feedback ? { feedback } : {}) };
}

interface BoxParts {
  readonly title: string;
  readonly text: PromptText;
  /** The question, its wrapped rows re-joined, and its first row. */
  readonly question: string;
  readonly questionRow: number;
  readonly options: ListOption[];
  readonly box: BoxRows;
}

/** What the rows between the title's rule and the question hold: plain rows, and the rows of each inner box. */
function bodyParts(rows: readonly string[], from: number, to: number): { plain: string[]; boxes: string[][] } {
  const plain: string[] = [];
  const boxes: string[][] = [];
  let open: string[] | undefined;
  for (let row = from; row < to; row++) {
    const t = rows[row]!.trim();
    if (t.startsWith('╭')) boxes.push((open = []));
    else if (t.startsWith('╰')) open = undefined;
    else if (open && t.startsWith('│')) open.push(t.replace(/^│ ?/, '').replace(/ ?│$/, '').trimEnd());
    else if (t !== '') plain.push(rows[row]!.replace(/^ /, ''));
  }
  return { plain, boxes };
}

function promptOf(rows: readonly string[], p: BoxParts, lines: readonly string[], s: CopilotStrings): CopilotPrompt | undefined {
  const { plain, boxes } = bodyParts(rows, 2, p.questionRow);
  const question = p.question;
  const details: Record<string, string> = { question };
  const first = boxes[0]?.map((r) => r.trim()).filter((r) => r !== '') ?? [];
  let command: string | undefined;
  let subject: string;
  switch (p.text.body) {
    case 'command':
      command = joinWrapped(first);
      details.description = p.title;
      subject = command;
      if (!historyAgrees(lines, p.box.top, p.title, command, s)) return undefined;
      break;
    case 'file': {
      // `<name> +N -M`, the folder, then the numbered diff as drawn.
      const [name = '', folder, ...diff] = plain;
      details.file = name.trim().replace(/ \+\d+ -\d+$/, '');
      if (folder !== undefined) details.folder = folder.trim();
      if (diff.length) details.diff = diff.join('\n');
      subject = p.text.question.exec(question)?.[1] ?? details.file;
      details.path = subject;
      break;
    }
    case 'path':
      subject = details.path = joinWrapped(first);
      if (boxes[1]) details.directory = joinWrapped(boxes[1].map((r) => r.trim()));
      break;
    case 'url':
      subject = details.url = joinWrapped(first);
      // The rows of a box that is being turned into the next one (the shell prompt of the same call).
      if (!/^[a-z][\w+.-]*:\/\//i.test(subject)) return undefined;
      break;
    case 'tool':
      subject = details.arguments = (boxes[0] ?? []).join('\n');
      details.tool = p.title;
      break;
  }
  const remaining = queueRemaining(lines, p.box.top, s);
  if (remaining !== undefined) details.remaining = String(remaining);
  const marked = p.options.filter((o) => o.highlighted);
  const kind: EventKind = p.text.kind;
  return {
    kind,
    title: p.title,
    ...(command !== undefined ? { command } : {}),
    details,
    options: p.options,
    // Two highlights, or none, is a highlight halfway through moving.
    ...(marked.length === 1 ? { highlighted: marked[0]!.number } : {}),
    // The question tells create from edit, the subject one call from the next with the same title.
    identity: [kind, p.title, question, squash(subject), p.options.length].join('|'),
    body: p.text.body,
    question,
    ...(remaining !== undefined ? { remaining } : {}),
    titleRow: p.box.top,
  };
}

/** `Permission request (N remaining)` above the box: the queue of prompts behind this one. */
function queueRemaining(lines: readonly string[], top: number, s: CopilotStrings): number | undefined {
  let row = top - 1;
  while (row >= 0 && lines[row]!.trim() === '') row--;
  const m = row >= 0 ? s.queueHeader.exec(lines[row]!.trim()) : null;
  return m ? Number(m[1]) : undefined;
}

/**
 * The history lists each pending shell call as `$ Shell <description>` over its command. When it
 * lists this box's title, one of those calls must have this box's command: a title over another
 * call's command is a queue's next prompt drawn halfway (title first, command after).
 */
function historyAgrees(lines: readonly string[], top: number, title: string, command: string, s: CopilotStrings): boolean {
  const commands: string[] = [];
  for (let row = 0; row < top; row++) {
    const t = lines[row]!.trim();
    if (t !== `${s.pendingShellRow}${title}` && !t.startsWith(`${s.pendingShellRow}${title} `)) continue;
    const parts: string[] = [];
    for (let next = row + 1; next < top && /^ {3}\S/.test(lines[next]!); next++) parts.push(lines[next]!.trim());
    commands.push(squash(parts.join('')));
  }
  const shown = squash(command);
  // A long command may be cut short in the history with `…`.
  return commands.length === 0 || commands.some((c) => c === shown || (c.endsWith('…') && shown.startsWith(c.slice(0, -1))));
}

const squash = (v: string): string => v.replace(/\s+/g, '');
