// @ts-check
// fake-copilot's look and key behaviour for the shared Ink engine (inkApp.mjs), after GitHub Copilot
// CLI 1.0.102's screens (test/fixtures/copilot/1.0.102/recorded/*.screen.txt, docs/copilot.md §2-§5):
// full screen, the permission box at the bottom in place of the composer, each call's row in the
// history redrawn as its state changes, and the prompt's last option a text field.
import { basename, dirname } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { SGR, row } from './term.mjs';
import { padToWidth, wrapText } from './text.mjs';
import * as C from './copilotStrings.mjs';

const blank = () => row('');
const wrap = (text, width, style = '') => wrapText(text, width, { subsequentIndent: '   ' }).map((t) => row(t, style));
const rule = (width) => row(C.composer.rule.repeat(width), SGR.dim);
/** A row with `right` at its right edge, one column from the border, as the footer draws the model. */
const withRight = (left, right, width) => `${padToWidth(left, Math.max(0, width - right.length - 1))}${right}`;

/**
 * The command words of a shell command, each with whether Copilot would take it as read-only: the
 * first word of each `&&`, `||`, `;` or `|` segment.
 */
export function commandWords(command) {
  return command.split(/&&|\|\||;|\|/).map((s) => s.trim().split(/\s+/)[0]).filter(Boolean)
    .map((identifier) => ({ identifier, readOnly: C.READ_ONLY_COMMANDS.includes(identifier) }));
}

/** The word a "don't ask again for `<word>` in this repo" option would save, if the prompt offers one (§2). */
export function rememberedIdentifier(command) {
  return commandWords(command).find((w) => !w.readOnly)?.identifier;
}

/** What the box of a file call shows: the file, its counts and the numbered diff (`2 -   old`, `2 +   new`). */
function fileDiff(call) {
  const before = call.tool === 'edit' && existsSync(call.path) ? readFileSync(call.path, 'utf8').split('\n') : [];
  // A new file's last newline ends its last line; an edit shows the empty line after it (as recorded).
  const after = call.tool === 'write' ? (call.content ?? '').replace(/\n$/, '').split('\n') : before.join('\n').replace(call.oldString ?? '', call.newString ?? '').split('\n');
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  const removed = before.slice(head, before.length - tail);
  const added = after.slice(head, after.length - tail);
  const digits = String(Math.max(before.length, after.length)).length;
  const line = (n, sign, text) => `${String(n).padEnd(digits)} ${sign}   ${text}`.trimEnd();
  const rows = [
    ...after.slice(0, head).map((t, i) => line(i + 1, ' ', t)),
    ...removed.map((t, i) => line(head + i + 1, '-', t)),
    ...added.map((t, i) => line(head + i + 1, '+', t)),
    ...after.slice(after.length - tail).map((t, i) => line(after.length - tail + i + 1, ' ', t)),
  ];
  return { name: basename(call.path), added: added.length, removed: removed.length, rows };
}

/** The rows of a call in the history, drawn from its state: asked, ran, refused, cancelled or cut (§2-§5). */
function callRows(call, width) {
  const o = call.outcome;
  call.diff ??= call.tool === 'shell' ? undefined : fileDiff(call);
  const what = call.tool === 'shell' ? `Shell ${call.description ?? call.command}` : `${C.history.fileVerb[call.tool]} ${call.diff.name}`;
  const command = call.tool === 'shell' ? wrap(C.history.command(call.command), width) : [];
  if (!o) return call.tool === 'shell' ? [row(C.history.shell(call.description ?? call.command)), ...command] : [row(C.history.pendingFile(C.history.fileVerb[call.tool], call.diff.name))];
  if (o.status === 'success') {
    if (call.tool !== 'shell') return [row(C.history.doneFile(C.history.fileVerb[call.tool], call.diff.name, call.diff.added, call.diff.removed))];
    const lines = (o.output ?? '').replace(/\n$/, '');
    return [row(C.history.shell(call.description ?? call.command, lines ? C.history.lines(lines.split('\n').length) : C.history.noContent)), ...command];
  }
  if (o.status === 'reason') return [...wrap(C.history.rejected(what, o.reason), width), ...command];
  if (o.status === 'interrupted') return [row(C.history.aborted(what)), ...command];
  // Its prompt was open (or queued) when Esc or Ctrl+C stopped the turn.
  const cancelled = call.tool === 'shell' ? C.history.cancelledShell(rememberedIdentifier(call.command)) : C.history.cancelledWrite(call.path);
  return [row(C.history.aborted(what)), ...command, row(C.history.approvalCheck), row(cancelled)];
}

/** The bottom pane under the history: the folder, the composer between its rules, the footer. */
function composer(width, cwd, text, footer) {
  return [
    blank(),
    row(C.composer.place(cwd)),
    rule(width),
    { ...row(`${C.composer.marker}${text}`), cursor: C.composer.marker.length + [...text].length },
    rule(width),
    row(withRight(footer, C.MODEL, width)),
  ];
}

/** A `│ … │` row of the box; content longer than the box is cut, as a wrapped option would not read (promptBox.ts). */
const boxed = (content, width, style = '') => row(`│ ${padToWidth(content, width - 4)} │`, style);

/** The box's rows between the title's rule and the question: the command in an inner box, or the file and its diff. */
function boxBody(call, width, cwd) {
  if (call.tool === 'shell') {
    const inner = width - 4;
    return [
      boxed(`╭${'─'.repeat(inner - 2)}╮`, width),
      ...wrapText(call.command, inner - 4).map((t) => boxed(`│ ${padToWidth(t, inner - 4)} │`, width)),
      boxed(`╰${'─'.repeat(inner - 2)}╯`, width),
    ];
  }
  call.diff ??= fileDiff(call);
  return [boxed(`${call.diff.name} +${call.diff.added} -${call.diff.removed}`, width), boxed(dirname(call.path) || cwd, width), boxed('', width), ...call.diff.rows.map((r) => boxed(r, width))];
}

function dialogRows(d, cwd) {
  const { call, width } = d;
  const question = call.tool === 'shell' ? C.box.question.shell : C.box.question[call.tool](call.path);
  const title = call.tool === 'shell' ? (call.description ?? call.command) : C.box.fileTitle[call.tool];
  const options = d.options.map((o, i) => {
    const label = o.field && i === d.selected && d.typed ? `${d.typed}${C.box.typedSuffix}` : o.label;
    return boxed(`${i === d.selected ? C.box.selected : C.box.unselected}${i + 1}. ${label}`, width, i === d.selected ? SGR.blue : '');
  });
  const remaining = d.total - d.index - 1;
  return [
    ...(remaining > 0 ? [row(C.box.queueHeader(remaining))] : []),
    row(`╭${'─'.repeat(width - 2)}╮`),
    boxed(title, width, SGR.bold),
    boxed('─'.repeat(width - 4), width),
    ...boxBody(call, width, cwd),
    boxed('', width),
    boxed(question, width),
    boxed('', width),
    ...options,
    boxed('', width),
    boxed(C.box.footer, width, SGR.dim),
    row(`╰${'─'.repeat(width - 2)}╯`),
  ];
}

/** The option list of a call's box (§2): a command whose first word can be remembered gets a middle option. */
function options(call, cwd) {
  const tell = { label: C.box.tellCopilot, kind: 'deny', field: true };
  const yes = { label: C.box.yes, kind: 'approve', scope: 'once' };
  if (call.tool !== 'shell') return [yes, { label: C.box.rememberFiles(cwd), kind: 'approve', scope: 'always' }, tell];
  const identifier = rememberedIdentifier(call.command);
  return identifier ? [yes, { label: C.box.rememberCommand(identifier, cwd), kind: 'approve', scope: 'always' }, tell] : [yes, tell];
}

/** The time at the right edge of a sent message's row. */
const clock = (d) => `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;

export function copilotProfile({ cwd, session }) {
  return {
    agent: 'copilot',
    // Esc and Ctrl+C at a prompt both cancel it and the turn (§3); neither arms the exit (after them
    // the footer is the idle one), nor does Ctrl+C cutting a running turn (§5).
    ctrlCAtDialog: 'cancel',
    ctrlCArmsExit: false,
    escEscInterrupts: true,
    selectionWraps: false,
    tabAmend: false,
    showsPreface: true,
    reasonContinuesTurn: true,
    rendersStreamingText: true,
    fullScreen: true,
    // The alternate screen, left before the exit summary is printed (§2, §9).
    screenModes: { enter: '\x1b[?1049h', leave: '\x1b[?1049l' },
    session,
    headerRows: () => C.header.map((t) => row(t)),
    composerRows: ({ width, text, ctrlCHint }) => composer(width, cwd, text, ctrlCHint ? C.composer.ctrlCHint : text ? C.composer.footerTyping : C.composer.footerIdle),
    busyRows: ({ width, seconds, text, streaming, escArmed }) => {
      const glyph = C.composer.spinner[seconds % C.composer.spinner.length];
      const bytes = Buffer.byteLength(streaming ?? '');
      // Streamed text is drawn as it comes; it sits above the composer (the parser reads the last
      // `●` block under the user's message wherever it is).
      return [
        ...(streaming ? [blank(), ...wrap(C.history.answer(streaming), width)] : []),
        ...composer(width, cwd, text, escArmed ? C.composer.workingArmed(glyph, bytes) : C.composer.working(glyph, bytes)),
      ];
    },
    options,
    dialogRows: (d) => dialogRows(d, cwd),
    cells: {
      user: (t) => {
        const sent = clock(new Date());
        return [(w) => {
          const [first = '', ...rest] = wrapText(t, Math.max(1, w - 12));
          return [row(withRight(C.history.user(first), sent, w - 1)), ...rest.map((r) => row(`   ${r}`)), blank()];
        }];
      },
      answer: (t) => [(w) => [...wrap(C.history.answer(t), w), blank()]],
      proposed: (calls) => [(w) => calls.flatMap((c) => [...callRows(c, w), blank()])],
      // Each call's rows follow its outcome in place (cells.proposed).
      resolved: () => [],
      aborted: () => [() => [row(C.history.cancelledTurn), blank()]],
      streamCut: (partial) => [(w) => [...(partial ? [...wrap(C.history.answer(partial), w), blank()] : []), row(C.history.cancelledTurn), blank()]],
    },
    exitLines: () => (session.started ? C.exitLines(session.sessionId, Math.round((Date.now() - session.startedAt.getTime()) / 1000)) : []),
  };
}
