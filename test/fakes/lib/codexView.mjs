// @ts-check
// Lays out fake-codex's screen for a given width: history cells (committed above), active cells
// (a running command, a streaming answer) and the bottom pane (composer, approval prompt, task
// menu), the way Codex 0.169.0's inline viewport shows them (samples/*.screen.txt).
import { SGR, row } from './term.mjs';
import { displayWidth, truncateToWidth, wrapText } from './text.mjs';
import * as S from './codexStrings.mjs';

const blank = () => row('');

/** Wraps `text` and returns rows in one style. */
function wrapped(text, width, style = '', indents = {}) {
  return wrapText(text, width, indents).map((t) => row(t, style));
}

export const cells = {
  header: (cwd) => () => [blank(), row(`  ${S.banner.title}`, SGR.bold), row(`     ${cwd}`, SGR.dim), blank()],
  user: (text) => (w) => wrapped(`${S.history.userMarker}${text}`, w, '', { subsequentIndent: '  ' }),
  line: (text, style = '') => (w) => wrapped(text, w, style, { subsequentIndent: '  ' }),
  /** `• Running cmd`: one line, cut with `…` plus a "Show details" line when it does not fit. */
  running: (cmd) => (w) => {
    const full = S.history.running(cmd.replace(/\n/g, ' '));
    if (displayWidth(full) <= w) return [row(full)];
    return [row(truncateToWidth(full, w)), row(S.history.showDetails, SGR.dim)];
  },
  /** `• Ran cmd` / `• Exited (status N) cmd` with the output under `└`. */
  finished: (head, output) => (w) => {
    const out = output.replace(/\n$/, '');
    const lines = out === '' ? [S.history.noOutput] : out.split('\n').slice(0, 5);
    return [
      ...wrapped(head, w, '', { subsequentIndent: '  ' }),
      ...lines.flatMap((l, i) => wrapped(l, w, SGR.dim, { initialIndent: i === 0 ? S.history.outputFirst : S.history.outputRest, subsequentIndent: S.history.outputRest })),
    ];
  },
  patch: (name, content) => (w) => {
    const lines = content.replace(/\n$/, '').split('\n');
    return [
      row(truncateToWidth(S.history.patchAdded(name, lines.length), w)),
      ...lines.map((l, i) => row(truncateToWidth(`    ${i + 1} +${l}`, w), SGR.green)),
      row(S.history.showDetails, SGR.dim),
    ];
  },
  agent: (getText) => (w) => wrapped(`${S.history.agentBullet}${getText()}`, w, '', { subsequentIndent: '  ' }),
};

/** Renders the history cells, one blank row after each (Codex separates cells with a blank). */
export function renderCells(list, width) {
  return list.flatMap((cell) => [...cell(width), blank()]);
}

export function composerPane({ width, model, cwd, text, ctrlCHint }) {
  const input = text
    ? wrapped(`${S.composer.marker}${text}`, width, '', { subsequentIndent: '  ' })
    : [row(`${S.composer.marker}${S.composer.placeholder}`, SGR.dim)];
  return [
    ...input,
    blank(),
    row(truncateToWidth(`  ${S.composer.status(model, cwd)}`, width), SGR.dim),
    row(`  ${ctrlCHint ? S.composer.ctrlCHint : S.composer.hints}`, SGR.dim),
  ];
}

export function workingPane(opts) {
  return [row(S.working(opts.seconds)), blank(), blank(), ...composerPane(opts)];
}

/** Option rows: `› N. label (hotkey)` for the highlighted one (whole row cyan), `  N. …` else. */
function optionRows(options, selected, width) {
  return options.flatMap((o, i) => {
    const marker = i === selected ? S.selectedMarker : '  ';
    const text = `${marker}${i + 1}. ${o.label} (${o.hotkey})`;
    return wrapped(text, width, i === selected ? SGR.cyan : '', { subsequentIndent: '     ' });
  });
}

export function execPromptPane({ width, call, options, selected }) {
  return [
    blank(),
    row(`  ${S.execPrompt.title}`, SGR.bold),
    blank(),
    row(`  ${S.execPrompt.environment}`),
    blank(),
    ...wrapped(`${S.execPrompt.reasonLabel}${call.justification ?? ''}`, width, '', { initialIndent: '  ', subsequentIndent: '  ' }),
    blank(),
    ...wrapped(`${S.execPrompt.commandPrefix}${call.cmd}`, width, '', { initialIndent: '  ', subsequentIndent: '  ' }),
    blank(),
    blank(),
    ...optionRows(options, selected, width),
    blank(),
    row(`  ${S.promptFooter}`, SGR.dim),
  ];
}

export function patchPromptPane({ width, call, options, selected }) {
  return [
    blank(),
    row(`  ${S.patchPrompt.title}`, SGR.bold),
    blank(),
    row(`  ${S.patchPrompt.description}`),
    ...wrapped(`${S.patchPrompt.destinationLabel}${call.path}`, width, '', { initialIndent: '  ', subsequentIndent: '  ' }),
    blank(),
    blank(),
    ...optionRows(options, selected, width),
    blank(),
    row(`  ${S.promptFooter}`, SGR.dim),
  ];
}

export function taskMenuPane({ width, selected }) {
  const labelWidth = Math.max(...S.taskMenu.options.map((o) => displayWidth(o.label))) + 2;
  return [
    row(`  ${S.taskMenu.title}`, SGR.bold),
    row(`  ${S.taskMenu.subtitle}`, SGR.dim),
    blank(),
    blank(),
    ...S.taskMenu.options.map((o, i) => {
      const marker = i === selected ? S.selectedMarker : '  ';
      const text = `${marker}${i + 1}. ${o.label.padEnd(labelWidth - 0)}${o.description}`;
      return row(truncateToWidth(text, width), i === selected ? SGR.cyan : '');
    }),
    blank(),
    row(`  ${S.taskMenu.footer}`, SGR.dim),
  ];
}

/**
 * The frame: history on top, the pane on the bottom rows, blank rows between; when everything does
 * not fit, the oldest history rows scroll off the top.
 */
export function composeFrame(historyRows, paneRows, height) {
  const pane = paneRows.slice(-height);
  const room = height - pane.length;
  const hist = historyRows.slice(Math.max(0, historyRows.length - room));
  const gap = Array.from({ length: room - hist.length }, blank);
  return { rows: [...hist, ...gap, ...pane], paneTop: hist.length + gap.length };
}
