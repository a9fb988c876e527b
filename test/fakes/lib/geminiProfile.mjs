// @ts-check
// fake-gemini's look and key behaviour for the shared Ink engine (inkApp.mjs), after Gemini CLI
// 0.61.0's screens (samples/screens/*.txt).
import { basename } from 'node:path';
import { SGR, row } from './term.mjs';
import { displayWidth, padToWidth, wrapText } from './text.mjs';
import * as G from './geminiStrings.mjs';

const blank = () => row('');

/** A `│ … │` row of a box `width` wide; content longer than the box wraps onto more rows. */
function boxRows(content, width, style = '') {
  const inner = Math.max(1, width - 4);
  return wrapText(content, inner).map((t) => row(`│ ${padToWidth(t, inner)} │`, style));
}
const top = (w) => row(`╭${'─'.repeat(Math.max(0, w - 2))}╮`);
const bottom = (w) => row(`╰${'─'.repeat(Math.max(0, w - 2))}╯`);

function describe(call) {
  if (call.tool === 'shell') return call.command;
  const name = basename(call.path);
  return call.tool === 'write' ? `Writing to ${name}` : `${name}: ${call.oldString} => ${call.newString}`;
}

function composer(width, text, ctrlCHint, cwd) {
  return [
    ...(ctrlCHint ? [row(G.composer.ctrlCHint)] : []),
    row(G.composer.hint, SGR.dim),
    row(G.composer.top.repeat(width), SGR.dim),
    text ? { ...row(`${G.composer.marker}${text}`), cursor: 3 + [...text].length } : { ...row(`${G.composer.marker}${G.composer.placeholder}`, SGR.dim), cursor: 3 },
    row(G.composer.bottom.repeat(width), SGR.dim),
    ...G.composer.footer(cwd).map((t) => row(t, SGR.dim)),
  ];
}

export function geminiProfile({ cwd, session }) {
  return {
    agent: 'gemini',
    ctrlCAtDialog: 'cancel',
    tabAmend: false,
    reasonContinuesTurn: false,
    rendersStreamingText: false,
    session,
    headerRows: () => [...G.banner.map((t) => row(t)), blank()],
    composerRows: ({ width, text, ctrlCHint }) => composer(width, text, ctrlCHint, cwd),
    busyRows: ({ width, seconds, running, text, ctrlCHint }) => [
      ...(running ? [top(width - 4), ...boxRows(G.history.running(G.session.displayNames[running.tool], describe(running)), width - 4), bottom(width - 4)] : []),
      row(G.history.thinking(seconds)),
      ...composer(width, text, ctrlCHint, cwd),
    ],
    options: (call) => (call.tool === 'shell' ? G.dialog.execOptions : G.dialog.editOptions),
    dialogRows: ({ call, options, selected, width, index, total }) => {
      const name = G.session.displayNames[call.tool];
      let head = G.dialog.header(name, describe(call));
      if (total > 1) {
        const counter = G.dialog.counter(index + 1, total);
        head = `${padToWidth(head, Math.max(displayWidth(head) + 1, width - 4 - displayWidth(counter)))}${counter}`;
      }
      const body = call.tool === 'shell'
        ? [call.command]
        : call.tool === 'write'
          ? (call.content ?? '').replace(/\n$/, '').split('\n').map((l, i) => `${i + 1} ${l}`)
          : [`1 - ${call.oldString}`, `1 + ${call.newString}`];
      const innerW = width - 4;
      return [
        top(width),
        ...boxRows(head, width),
        row(`│ ╭${'─'.repeat(Math.max(0, innerW - 2))}╮ │`),
        ...body.flatMap((b) => boxRows(b, innerW).map((r) => row(`│ ${r.text} │`))),
        row(`│ ╰${'─'.repeat(Math.max(0, innerW - 2))}╯ │`),
        ...boxRows(call.tool === 'shell' ? G.dialog.execQuestion : G.dialog.editQuestion, width),
        ...boxRows('', width),
        ...options.flatMap((o, i) => boxRows(`${i === selected ? G.dialog.selected : G.dialog.unselected}${i + 1}. ${o.label}`, width, i === selected ? SGR.green : '')),
        bottom(width),
      ];
    },
    cells: {
      user: (t) => [(w) => [row(G.composer.top.repeat(w), SGR.dim), ...wrapText(G.history.user(t), w).map((x) => row(x)), row(G.composer.bottom.repeat(w), SGR.dim)]],
      answer: (t) => [(w) => wrapText(G.history.answer(t), w, { subsequentIndent: '  ' }).map((x) => row(x))],
      resolved: (call) => [(w) => [top(w - 4), ...boxRows(G.history.ok(G.session.displayNames[call.tool], describe(call)), w - 4), bottom(w - 4)]],
      aborted: (calls) => [(w) => [
        ...calls.filter((c) => c.outcome.status !== 'success').flatMap((c) => [top(w - 4), ...boxRows(G.history.cancelled(G.session.displayNames[c.tool], describe(c)), w - 4), ...boxRows('', w - 4), bottom(w - 4)]),
        row(G.history.requestCancelled),
      ]],
      streamCut: () => [() => [row(G.history.requestCancelled)]],
    },
    exitLines: () => G.exitLines(session.sessionId),
  };
}
