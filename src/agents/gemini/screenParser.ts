// Reads what the Gemini CLI 0.61 draws: the boxed confirmation dialog (title row with the tool, its
// description and the `n of N` counter, a body box with the command or the diff, the question, the
// `●` options), the working spinner, the answer being streamed, the user's messages and the decision
// rows (✓ / - tool rows, `ℹ Request cancelled.`). Pure: a screen snapshot in, a description out.
//
// Gemini draws inline (no alternate screen) and erases its area line by line to redraw, so a dialog
// is live only while its box is the last thing drawn: once decided, Gemini replaces it by the tool's
// history row and the composer comes back below.
import type { EventKind } from '../../core/events.js';
import type { ScreenSnapshot } from '../../core/screen.js';
import type { PromptView } from '../common/agentProfile.js';
import { joinWrapped, parseOptionList, showsOptionList } from '../common/optionList.js';
import type { GeminiStrings } from './strings/index.js';

/** A confirmation dialog as Gemini draws it. */
export interface GeminiPrompt extends PromptView {
  /** The tool's display name (`Shell`, `Edit`, `WriteFile`, an MCP tool's name). */
  readonly tool: string;
  /** The title's description: the command, `Writing to <file>`, `<file>: <old> => <new>`. */
  readonly description: string;
  /** The file an edit or write dialog is about. */
  readonly file?: string;
  /** The body box's rows (the command, or the diff), box borders removed. */
  readonly body: readonly string[];
  readonly question: string;
  /** `n of N` for a batch of parallel calls. */
  readonly batch?: { readonly index: number; readonly total: number };
  readonly titleRow: number;
}

export interface GeminiScreen {
  readonly prompt?: GeminiPrompt;
  readonly working: boolean;
  readonly answerText?: string;
  readonly userMessages: readonly string[];
  /** ✓ and - tool rows, and `Request cancelled.` rows: what Gemini prints after a decision. */
  readonly decisionRows: number;
  /** `Request cancelled.` rows alone: what Gemini prints when the user cut the turn. */
  readonly cutRows: number;
  /** A live option list that is not a dialog these strings read (agentProfile.ts ScreenReading). */
  readonly unreadOptionList: boolean;
  /** Tool rows still running (⊷), as shown (`⊷  Shell sleep 30; echo finished`). */
  readonly runningRows: number;
  readonly runningTools: readonly string[];
  /** The version the banner shows, when it is on screen. */
  readonly bannerVersion?: string;
  /** The session id of the quit summary, when it is on screen (the lowest one). */
  readonly sessionId?: string;
}

const BOX_SIDE = '│';
const BOX_BOTTOM = /^╰─+╯$/;
const BOX_TOP = /^╭─+╮$/;

/** A row without one level of box border (`│ text │` → `text`); rows outside a box come back trimmed. */
export function unbox(line: string): string {
  const t = line.trim();
  if (t.startsWith(BOX_SIDE) && t.endsWith(BOX_SIDE) && t.length >= 2) return t.slice(1, -1).trim();
  if (t.startsWith(BOX_SIDE)) return t.slice(1).trim();
  return t;
}

/** A row with the box's side borders blanked, so that its options keep their indentation. */
function boxSidesBlank(line: string): string {
  return line.replace(/^(\s*)│/, '$1 ').replace(/│\s*$/, '');
}

export function parseGeminiScreen(snapshot: ScreenSnapshot, s: GeminiStrings): GeminiScreen {
  const lines = snapshot.lines;
  const inner = lines.map(unbox);
  const prompt = parsePrompt(lines, inner, s);
  const workingRow = lines.findIndex((l) => l.includes(s.workingMarker));
  let decisionRows = 0;
  let cutRows = 0;
  const runningTools: string[] = [];
  for (const row of inner) {
    const cut = row.endsWith(s.requestCancelled);
    if (cut) cutRows++;
    if (cut || s.toolRowDone.test(row)) decisionRows++;
    if (s.toolRowRunning.test(row)) runningTools.push(row);
  }
  const runningRows = runningTools.length;
  const answerText = parseAnswer(lines, s, prompt?.titleRow ?? (workingRow >= 0 ? workingRow : undefined));
  const bannerVersion = lines.map((l) => s.banner.exec(l)?.[1]).find((v) => v !== undefined);
  const sessionId = s.sessionIdRow ? inner.map((row) => s.sessionIdRow!.exec(row)?.[1]).filter((v) => v !== undefined).at(-1) : undefined;
  return {
    ...(prompt ? { prompt } : {}),
    working: workingRow >= 0,
    ...(answerText !== undefined ? { answerText } : {}),
    userMessages: parseUserMessages(lines, s, prompt !== undefined),
    decisionRows,
    cutRows,
    unreadOptionList: !prompt && showsOptionList(lines.map(boxSidesBlank), { marker: s.selectedMarker }),
    runningRows,
    runningTools,
    ...(bannerVersion ? { bannerVersion } : {}),
    ...(sessionId !== undefined ? { sessionId } : {}),
  };
}

function lastDrawnRow(lines: readonly string[], from: number): number {
  let row = from;
  while (row >= 0 && lines[row]!.trim() === '') row--;
  return row;
}

/**
 * The last drawn row above the startup warnings at the bottom, if any. Gemini shows them under its
 * composer until the user's first message; a message given with --prompt-interactive is sent
 * without one, so they stay under the first dialog while it waits.
 */
function aboveStartupWarnings(lines: readonly string[], bottom: number, s: GeminiStrings): number {
  let row = bottom;
  for (;;) {
    let head = row;
    // A warning's wrapped rows are indented; its first row starts at the left edge.
    while (head >= 0 && /^\s+\S/.test(lines[head]!)) head--;
    if (head < 0 || !s.startupWarning.test(lines[head]!)) return row;
    row = lastDrawnRow(lines, head - 1);
  }
}

/**
 * The dialog, only while it is live: its outer box's bottom border is the last row drawn (the
 * composer is gone while a dialog waits), but for startup warnings.
 */
function parsePrompt(lines: readonly string[], inner: readonly string[], s: GeminiStrings): GeminiPrompt | undefined {
  const bottom = aboveStartupWarnings(lines, lastDrawnRow(lines, lines.length - 1), s);
  if (bottom < 0 || !BOX_BOTTOM.test(lines[bottom]!.trim())) return undefined;
  let titleRow = -1;
  for (let row = bottom - 1; row >= 0; row--) {
    if (BOX_TOP.test(lines[row]!.trim())) break;
    if (lines[row]!.trim().startsWith(BOX_SIDE) && s.dialogTitle.test(inner[row]!)) {
      titleRow = row;
      break;
    }
  }
  if (titleRow < 0) return undefined;
  let questionRow = -1;
  let kind: EventKind | undefined;
  for (let row = titleRow + 1; row < bottom && kind === undefined; row++) {
    const match = s.questions.find((q) => q.pattern.test(inner[row]!));
    if (match) {
      questionRow = row;
      kind = match.kind;
    }
  }
  if (kind === undefined) return undefined;
  const options = parseOptionList(inner.map((l) => ' ' + l), questionRow + 1, bottom, { marker: s.selectedMarker });
  if (options.length === 0) return undefined;

  const title = inner[titleRow]!;
  const m = s.dialogTitle.exec(title)!;
  const tool = m[1]!;
  let description = m[2]!;
  const counter = s.batchCounter.exec(description);
  const batch = counter ? { index: Number(counter[1]), total: Number(counter[2]) } : undefined;
  if (counter) description = description.slice(0, counter.index).trim();
  const body: string[] = [];
  for (let row = titleRow + 1; row < questionRow; row++) {
    const t = inner[row]!;
    if (t === '' || BOX_TOP.test(t) || BOX_BOTTOM.test(t)) continue;
    body.push(unbox(t));
  }
  const file = s.fileTools.includes(tool) ? fileOf(description, s) : undefined;
  const details: Record<string, string> = { tool, description };
  let command: string | undefined;
  if (kind === 'command') command = joinWrapped(body);
  else if (body.length) details.body = body.join('\n');
  if (file !== undefined) details.file = file;
  if (batch) details.batch = `${batch.index} of ${batch.total}`;
  const question = inner[questionRow]!;
  const highlighted = options.find((o) => o.highlighted)?.number;
  const squash = (v: string) => v.replace(/\s+/g, '');
  // The title's description is clipped to the width; the body box wraps instead, so it is the part
  // that stays the same across a resize once whitespace is dropped.
  const identity = [tool, batch ? `${batch.index}/${batch.total}` : '', question, squash(body.join('')), options.length].join('|');
  return {
    kind,
    title: title,
    tool,
    description,
    ...(file !== undefined ? { file } : {}),
    body,
    question,
    ...(batch ? { batch } : {}),
    ...(command !== undefined ? { command } : {}),
    details,
    options,
    ...(highlighted !== undefined ? { highlighted } : {}),
    identity,
    titleRow,
  };
}

/** The file of an edit (`a.txt: old => new`) or write (`Writing to a.txt`) dialog title. */
function fileOf(description: string, s: GeminiStrings): string {
  if (description.startsWith(s.writingTo)) return description.slice(s.writingTo.length).trim();
  const colon = description.indexOf(': ');
  return (colon >= 0 ? description.slice(0, colon) : description).trim();
}

/**
 * The ` > text` rows of the history. The composer is the lowest `>` row unless a dialog replaced it:
 * its placeholder, or the user's draft, is not a message.
 */
function parseUserMessages(lines: readonly string[], s: GeminiStrings, dialogLive: boolean): string[] {
  const messages: string[] = [];
  let placeholderSeen = false;
  for (let row = 0; row < lines.length; row++) {
    if (!lines[row]!.startsWith(s.userMessageMarker)) continue;
    const first = lines[row]!.slice(s.userMessageMarker.length).trim();
    if (first === s.composerPlaceholder) {
      placeholderSeen = true;
      continue;
    }
    if (first === '') continue;
    const parts = [first];
    for (let next = row + 1; next < lines.length && lines[next]!.startsWith('   ') && lines[next]!.trim() !== ''; next++) parts.push(lines[next]!.trim());
    messages.push(parts.join(' '));
  }
  if (!placeholderSeen && !dialogLive) messages.pop();
  return messages;
}

/** The answer being streamed: the last `✦ ` block above the spinner or dialog, with its wrapped rows. */
function parseAnswer(lines: readonly string[], s: GeminiStrings, stop: number | undefined): string | undefined {
  const end = stop ?? lines.length;
  let bulletRow = -1;
  for (let row = end - 1; row >= 0; row--) {
    if (lines[row]!.startsWith(s.userMessageMarker)) break;
    if (lines[row]!.startsWith(s.answerBullet)) {
      bulletRow = row;
      break;
    }
  }
  if (bulletRow < 0) return undefined;
  const out = [lines[bulletRow]!.slice(s.answerBullet.length).trimEnd()];
  for (let row = bulletRow + 1; row < end; row++) {
    const line = lines[row]!;
    if (line !== '' && !line.startsWith('  ')) break;
    out.push(line.slice(2).trimEnd());
  }
  while (out.length && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}
