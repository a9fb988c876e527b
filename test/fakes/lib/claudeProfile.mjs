// @ts-check
// fake-claude's look and key behaviour for the shared Ink engine (inkApp.mjs), after Claude Code
// 2.1.328's screens (samples/screens/*.txt).
import { basename } from 'node:path';
import { SGR, row } from './term.mjs';
import { wrapText } from './text.mjs';
import * as C from './claudeStrings.mjs';

const blank = () => row('');
const wrap = (text, width, style = '', indent = '  ') => wrapText(text, width, { subsequentIndent: indent }).map((t) => row(t, style));
const rule = (width, ch = '─') => row(ch.repeat(width), SGR.dim);

function composer(width, text, footer) {
  return [
    rule(width),
    { ...row(`${C.composer.marker}${text}`), cursor: 2 + [...text].length },
    rule(width),
    row(footer, SGR.dim),
  ];
}

function optionRows(d, width) {
  return d.options.flatMap((o, i) => {
    let label = o.label;
    if (i === d.selected && d.amend !== undefined) {
      const word = o.kind === 'deny' ? 'No' : 'Yes';
      label = d.amend ? `${word}, ${d.amend}` : o.kind === 'deny' ? C.dialog.amendNo : C.dialog.amendYes;
    }
    const prefix = i === d.selected ? C.dialog.selected : C.dialog.unselected;
    return wrapText(`${prefix}${i + 1}. ${label}`, width, { subsequentIndent: '      ' }).map((t) => row(t, i === d.selected ? SGR.blue : ''));
  });
}

export function claudeProfile({ cwd, session }) {
  return {
    agent: 'claude',
    ctrlCAtDialog: 'ignore',
    tabAmend: true,
    showsPreface: true,
    reasonContinuesTurn: true,
    rendersStreamingText: false,
    session,
    headerRows: (width) => [...C.banner(cwd).map((t) => row(t)), blank()],
    composerRows: ({ width, text, ctrlCHint }) => [blank(), ...composer(width, text, ctrlCHint ? C.composer.ctrlCHint : C.composer.footerIdle)],
    busyRows: ({ width, seconds, running, text }) => [
      ...(running ? [row(C.history.running(running.description ?? running.command, seconds)), row(C.history.runningCmd(running.command, seconds)), row(C.history.background, SGR.dim)] : []),
      row(C.history.spinner(seconds), SGR.magenta),
      blank(),
      ...composer(width, text, C.composer.footerBusy),
    ],
    options: (call) => (call.tool === 'shell' ? C.dialog.bashOptions(cwd, call.command) : C.dialog.fileOptions()),
    dialogRows: (d) => {
      const { call, width } = d;
      const dash = rule(width, '╌');
      let head;
      if (call.tool === 'shell') {
        const writes = />/.test(call.command);
        head = [
          row(C.dialog.bashTitle, SGR.bold),
          ...wrap(C.dialog.tip, width, SGR.dim, ' '),
          ...wrap(` ${call.description ?? ''}`, width),
          dash,
          ...wrap(` ${call.command}`, width, '', ' '),
          dash,
          ...(writes ? [] : [row(C.dialog.requiresApproval)]),
          row(C.dialog.proceed),
        ];
      } else {
        const name = basename(call.path);
        const body = call.tool === 'write'
          ? (call.content ?? '').replace(/\n$/, '').split('\n').map((l, i) => row(`  ${i + 1} ${l}`))
          : [row(` 1 -${call.oldString ?? ''}`, SGR.red), row(` 1 +${call.newString ?? ''}`, SGR.green)];
        head = [
          row(call.tool === 'write' ? C.dialog.createTitle : C.dialog.editTitle, SGR.bold),
          row(` ${name}`),
          dash,
          ...body,
          dash,
          row(call.tool === 'write' ? C.dialog.create(name) : C.dialog.edit(name)),
        ];
      }
      return [rule(width), ...head, ...optionRows(d, width), blank(), row(d.amend !== undefined ? C.dialog.footerAmending : C.dialog.footer, SGR.dim)];
    },
    cells: {
      user: (t) => [(w) => [...wrap(C.history.user(t), w), blank()]],
      answer: (t) => [(w) => [...wrap(C.history.bullet(t), w), blank()]],
      resolved: (call) => {
        const o = call.outcome;
        if (o.status === 'success') return [() => [row(call.tool === 'shell' ? C.history.ranShell : C.history.wrote(basename(call.path))), blank()]];
        if (o.status === 'reason') return [(w) => [row(C.history.didNotRun), ...wrap(C.history.cmdLine(call.command ?? call.path), w, '', '     '), row(C.history.notRunRejected), blank()]];
        return [];
      },
      aborted: (calls) => {
        const rows = [];
        for (const c of calls) {
          const st = c.outcome.status;
          if (st === 'success' || st === 'reason') continue;
          if (c.tool !== 'shell') rows.push(row(c.tool === 'write' ? C.history.rejectedWrite(basename(c.path)) : C.history.rejectedUpdate(basename(c.path))));
          else rows.push(row(st === 'interrupted' ? C.history.noResult : C.history.didNotRun), row(C.history.cmdLine(c.command)));
        }
        rows.push(row(C.history.interrupted), blank());
        return [() => rows];
      },
      streamCut: () => [() => [row(C.history.interrupted), blank()]],
    },
    exitLines: () => C.exitLines(session.sessionId),
  };
}
