// Reads what the Codex TUI shows: an approval prompt (with its command re-joined, details and
// options), the "Task is still running" menu, the working status, the decision history rows and a
// streamed answer. Pure: a screen snapshot in, a description out.
import type { ScreenSnapshot } from '../../core/screen.js';
import type { PromptView } from '../common/agentProfile.js';
import { joinWrapped, menuLabel, parseOptionList, type ListOption } from '../common/optionList.js';
import type { CodexPromptKind, CodexStrings, TaskMenuAction } from './strings/index.js';

/** An approval prompt as Codex draws it: the shared view's fields, with Codex's own kind. */
export interface CodexPrompt extends Omit<PromptView, 'kind'> {
  readonly kind: CodexPromptKind;
  readonly titleRow: number;
  /** An MCP tool's form: the call's arguments as it lists them (`name: value` rows), by name. */
  readonly mcpArgs?: Readonly<Record<string, string>>;
}

export interface TaskMenuOption extends ListOption {
  readonly action?: TaskMenuAction;
  /** The short label ("Cancel task"), without the description column. */
  readonly shortLabel: string;
}

export interface CodexTaskMenu {
  readonly titleRow: number;
  readonly options: readonly TaskMenuOption[];
  readonly highlighted?: number;
}

export interface CodexScreen {
  readonly prompt?: CodexPrompt;
  readonly taskMenu?: CodexTaskMenu;
  /** The status row says Esc interrupts: a turn is working. */
  readonly working: boolean;
  readonly approvedRows: readonly string[];
  readonly canceledRows: readonly string[];
  /** History rows of decisions at network prompts (approved, persisted or canceled). */
  readonly networkDecisionRows: number;
  readonly interruptedRows: number;
  /**
   * The messages of the `Blocked by hook` cells shown (a hook of the user's refused a call), their
   * rows joined by `\n` as drawn: wrapped rows stay apart, indents are dropped.
   */
  readonly hookBlocks: readonly string[];
  readonly disconnected: boolean;
  readonly hookTrust: boolean;
  /** The agent's answer text of the current turn as shown (bullet and indent removed). */
  readonly answerText?: string;
  /** The user's messages shown in the history (not the composer), wrapped rows re-joined. */
  readonly userMessages: readonly string[];
  /** The session id Codex printed as it exited (the lowest `codex resume <id>` row). */
  readonly sessionId?: string;
}

export function parseCodexScreen(snapshot: ScreenSnapshot, strings: CodexStrings): CodexScreen {
  const lines = snapshot.lines;
  const trimmed = lines.map((l) => l.trim());
  const prompt = parsePrompt(lines, trimmed, strings);
  const taskMenu = parseTaskMenu(lines, trimmed, strings);
  const startsWith = (p: string) => trimmed.filter((t) => t.startsWith(p));
  const workingRow = trimmed.findIndex((t) => t.includes(strings.workingMarker));
  const answerText = parseAnswer(lines, strings, [prompt?.titleRow, taskMenu?.titleRow, workingRow]);
  return {
    ...(prompt ? { prompt } : {}),
    ...(taskMenu ? { taskMenu } : {}),
    working: workingRow >= 0,
    approvedRows: startsWith(strings.approvedLine),
    canceledRows: startsWith(strings.canceledLine),
    networkDecisionRows: (strings.networkDecisionLines ?? []).flatMap(startsWith).length,
    interruptedRows: startsWith(strings.interruptedLine).length,
    hookBlocks: parseHookBlocks(lines, trimmed, strings),
    disconnected: startsWith(strings.disconnectedLine).length > 0,
    hookTrust: trimmed.includes(strings.hookTrustTitle),
    ...(answerText !== undefined ? { answerText } : {}),
    userMessages: parseUserMessages(lines, strings, prompt?.titleRow ?? taskMenu?.titleRow),
    ...sessionIdShown(trimmed, strings),
  };
}

/**
 * Each `Blocked by hook` cell's message: the row after the title, from its `└ `, then the rows
 * below that belong to the cell — a long line wraps to column 0 right below, a further line of the
 * message is indented (after a blank row where the message has an empty line) — up to the blank
 * row before the next cell.
 */
function parseHookBlocks(lines: readonly string[], trimmed: readonly string[], s: CodexStrings): string[] {
  const cell = s.hookBlocked;
  if (cell === undefined) return [];
  const blocks: string[] = [];
  for (let row = 0; row < trimmed.length; row++) {
    if (trimmed[row] !== cell.title || !(trimmed[row + 1] ?? '').startsWith(cell.detailPrefix)) continue;
    const parts = [trimmed[row + 1]!.slice(cell.detailPrefix.length)];
    let next = row + 2;
    while (next < lines.length) {
      if (trimmed[next] !== '') {
        parts.push(trimmed[next]!);
        next++;
        continue;
      }
      // A blank row ends the cell unless the message goes on below it, indented.
      let after = next;
      while (after < lines.length && trimmed[after] === '') after++;
      if (after >= lines.length || !(lines[after] ?? '').startsWith(cell.lineIndent)) break;
      next = after;
    }
    blocks.push(parts.join('\n'));
    row = next - 1;
  }
  return blocks;
}

function sessionIdShown(trimmed: readonly string[], s: CodexStrings): { sessionId?: string } {
  const patterns = s.sessionIdRows ?? [];
  // The lowest such row; the id row is matched with the row above it (its intro), since a command's
  // output in the history could hold an id row alone.
  for (let row = trimmed.length - 1; row >= 0; row--) {
    const texts = [trimmed[row] ?? '', `${trimmed[row - 1] ?? ''}\n${trimmed[row] ?? ''}`];
    for (const p of patterns) {
      const id = texts.map((t) => p.exec(t)?.[1]).find((v) => v !== undefined);
      if (id !== undefined) return { sessionId: id };
    }
  }
  return {};
}

/**
 * The `› …` rows of the history above the bottom pane. Without a prompt or menu the lowest one is
 * the composer (the user's draft, not a message), so it is left out.
 */
function parseUserMessages(lines: readonly string[], s: CodexStrings, paneRow: number | undefined): string[] {
  const end = paneRow ?? lines.length;
  const starts: number[] = [];
  for (let row = 0; row < end; row++) if ((lines[row] ?? '').startsWith(s.userMessageMarker)) starts.push(row);
  if (paneRow === undefined) starts.pop();
  return starts.map((start) => {
    const parts = [(lines[start] ?? '').slice(s.userMessageMarker.length).trim()];
    for (let row = start + 1; row < end && (lines[row] ?? '').startsWith('  ') && (lines[row] ?? '').trim() !== ''; row++) {
      parts.push((lines[row] ?? '').trim());
    }
    return parts.join(' ');
  });
}

/**
 * The approval prompt, only while it is the live bottom pane: its footer ("Press enter to confirm…",
 * which may share its row with a "⚠ 2 warnings" note) is the last row drawn. Remnants of a decided
 * prompt left in the history by a resize or a partial repaint have the composer below them.
 */
function parsePrompt(lines: readonly string[], trimmed: readonly string[], s: CodexStrings): CodexPrompt | undefined {
  let footerRow = -1;
  const isFooter = (t: string) => t.startsWith(s.promptFooter) || (s.formFooter !== undefined && t.startsWith(s.formFooter));
  for (let row = trimmed.length - 1; row >= 0; row--) {
    if (isFooter(trimmed[row]!)) {
      footerRow = row;
      break;
    }
  }
  if (footerRow < 0) return undefined;
  if (trimmed.slice(footerRow + 1).some((t) => t !== '')) return undefined;
  let titleRow = -1;
  let kind: CodexPromptKind | undefined;
  for (let row = footerRow - 1; row >= 0 && kind === undefined; row--) {
    const match = s.promptTitles.find((t) => t.pattern.test(trimmed[row]!));
    if (match) {
      titleRow = row;
      kind = match.kind;
    }
  }
  if (kind === undefined) return undefined;

  const listed = parseOptionList(lines, titleRow + 1, footerRow, {
    marker: s.selectedMarker,
    hotkey: s.optionHotkey,
  });
  const title = trimmed[titleRow]!;
  const mcpTool = s.mcpToolTitle?.exec(title);
  // The MCP form's rows are "<label>  <description>" columns: the label alone names the choice.
  const options = mcpTool ? listed.map((o) => ({ ...o, label: menuLabel(o.label) })) : listed;
  const firstOptionRow = options[0]?.row ?? footerRow;
  const networkHost = s.networkTitle?.exec(title)?.[1];
  const details: Record<string, string> = mcpTool ? { server: mcpTool[1]!, tool: mcpTool[2]! } : networkHost !== undefined ? { host: networkHost } : {};
  let command: string | undefined;
  for (let row = titleRow + 1; row < firstOptionRow; row++) {
    const t = trimmed[row]!;
    if (t === '') continue;
    const block = [t];
    const startsBlock = (t: string) =>
      t.startsWith(s.commandPrefix) || Object.values(s.detailPrefixes).some((p) => t.startsWith(p));
    while (row + 1 < firstOptionRow && trimmed[row + 1] !== '' && !startsBlock(trimmed[row + 1]!)) {
      block.push(trimmed[++row]!);
    }
    const text = joinWrapped(block);
    if (text.startsWith(s.commandPrefix)) {
      command = text.slice(s.commandPrefix.length);
      continue;
    }
    for (const [name, prefix] of Object.entries(s.detailPrefixes)) {
      if (text.startsWith(prefix)) details[name] = text.slice(prefix.length);
    }
  }
  const highlighted = options.find((o) => o.highlighted)?.number;
  const mcpArgs = mcpTool ? formArgs(trimmed, titleRow + 1, firstOptionRow) : undefined;
  const squash = (v: string | undefined) => (v ?? '').replace(/\s+/g, '');
  const shownArgs = mcpArgs ? squash(JSON.stringify(mcpArgs)) : '';
  const identity = [kind, title, squash(command), squash(details.reason), squash(details.destination), shownArgs, options.length].join('|');
  return {
    kind,
    title,
    titleRow,
    ...(mcpArgs ? { mcpArgs } : {}),
    ...(command !== undefined ? { command } : {}),
    details,
    options,
    ...(highlighted !== undefined ? { highlighted } : {}),
    identity,
  };
}

/** The `name: value` rows of an MCP tool's form between its question and its options. */
function formArgs(trimmed: readonly string[], from: number, to: number): Record<string, string> {
  const args: Record<string, string> = {};
  for (let row = from; row < to; row++) {
    const m = /^([\w.-]+): (.*)$/.exec(trimmed[row] ?? '');
    if (m) args[m[1]!] = m[2]!;
  }
  return args;
}

function parseTaskMenu(lines: readonly string[], trimmed: readonly string[], s: CodexStrings): CodexTaskMenu | undefined {
  const titleRow = trimmed.lastIndexOf(s.taskMenuTitle);
  if (titleRow < 0) return undefined;
  const footerRow = trimmed.indexOf(s.taskMenuFooter, titleRow);
  if (footerRow < 0) return undefined;
  const options = parseOptionList(lines, titleRow + 1, footerRow, { marker: s.selectedMarker }).map((o) => {
    const shortLabel = menuLabel(o.label);
    const action = s.taskMenuOptions.find((m) => shortLabel.startsWith(m.labelPrefix))?.action;
    return { ...o, shortLabel, ...(action ? { action } : {}) };
  });
  const highlighted = options.find((o) => o.highlighted)?.number;
  return { titleRow, options, ...(highlighted !== undefined ? { highlighted } : {}) };
}

/**
 * The streamed answer: the last agent bullet (not a tool or status cell) after the user's last
 * message and above the composer, prompt or menu, with its indented continuation rows.
 */
function parseAnswer(lines: readonly string[], s: CodexStrings, stops: ReadonlyArray<number | undefined>): string | undefined {
  const atCol0 = (row: number, marker: string) => (lines[row] ?? '').startsWith(marker);
  let end = lines.length;
  for (const stop of stops) if (stop !== undefined && stop >= 0) end = Math.min(end, stop);
  let composer = -1;
  for (let row = end - 1; row >= 0; row--) {
    if (atCol0(row, s.userMessageMarker)) {
      composer = row;
      break;
    }
  }
  // Two `›` rows: the lower one is the composer, the upper one the user's message. One: it is the
  // user's message when a prompt or menu replaced the composer, else the composer itself.
  let userRow = -1;
  if (composer >= 0) {
    for (let row = composer - 1; row >= 0; row--) {
      if (atCol0(row, s.userMessageMarker)) {
        userRow = row;
        break;
      }
    }
    if (userRow < 0 && end < lines.length) userRow = composer;
    else end = Math.min(end, composer);
  }
  if (userRow < 0) return undefined;
  let bulletRow = -1;
  for (let row = end - 1; row > userRow; row--) {
    const line = lines[row] ?? '';
    if (line.startsWith(s.agentBullet) && !s.nonAnswerBullets.some((re) => re.test(line))) {
      bulletRow = row;
      break;
    }
  }
  if (bulletRow < 0) return undefined;
  const out = [(lines[bulletRow] ?? '').slice(s.agentBullet.length).trimEnd()];
  for (let row = bulletRow + 1; row < end; row++) {
    const line = lines[row] ?? '';
    if (line !== '' && !line.startsWith('  ')) break;
    out.push(line.slice(2).trimEnd());
  }
  while (out.length && out[out.length - 1] === '') out.pop();
  const worked = out.findIndex((l) => s.turnSummaryRow.test(l));
  if (worked >= 0) out.splice(worked);
  while (out.length && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}
