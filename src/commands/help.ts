// `rec --help` and `rec <command> --help`, made from the command specs (commandSpec.ts), wrapped to
// the terminal's width. README's usage block is `synopses(HELP_MAX_WIDTH)`, held equal by a test.
import { HELP_OPTION, RUN_SPEC, SUBCOMMAND_SPECS, type CommandSpec, type OptionSpec } from './commandSpec.js';

/**
 * Help is rec's own text: ASCII plus a few one-column characters (…), so code points are display
 * columns. (No string-width here: `rec hook --help` may load nothing but Node's built-ins.)
 */
function stringWidth(text: string): number {
  return [...text].length;
}

/** Help lines are never wider than this, even on a wide terminal: long lines are hard to read. */
export const HELP_MAX_WIDTH = 100;
/** Below this, wrapping would leave a word or two per line; the terminal wraps instead. */
const HELP_MIN_WIDTH = 40;
/** An option's description needs at least this much beside it, or it goes on the lines below. */
const HELP_MIN_TEXT_WIDTH = 30;

export function helpWidth(columns: number): number {
  return Math.max(HELP_MIN_WIDTH, Math.min(HELP_MAX_WIDTH, columns));
}

/** `[--db PATH]` for the synopsis. */
function synopsisWord(o: OptionSpec): string {
  return `[--${o.name}${o.value ? ' ' + o.value : ''}]`;
}

/** `rec runs [--db PATH] …`, wrapped under its own start when wider than `width`. */
export function synopsis(spec: CommandSpec, width: number, indent = ''): string[] {
  const head = spec.name === '' ? 'rec' : `rec ${spec.name}`;
  const options = spec.options.map(synopsisWord);
  const operands = spec.operands === '' ? [] : spec.operands.split(' ');
  const words = spec.operandsFirst ? [...operands, ...options] : [...options, ...operands];
  return wrapWords([head, ...words], width, indent, indent + ' '.repeat(head.length + 1));
}

/** Every way to call rec, one synopsis each: the usage block of `rec --help` and of the README. */
export function synopses(width: number, indent = ''): string[] {
  return [
    ...synopsis(RUN_SPEC, width, indent),
    ...wrapWords(['rec', '[--db PATH]', '--', 'COMMAND', '[ARGS…]'], width, indent, indent + '    '),
    ...SUBCOMMAND_SPECS.flatMap((s) => synopsis(s, width, indent)),
    `${indent}rec --help | --version`,
  ];
}

export function topHelp(width: number): string {
  const w = helpWidth(width);
  const names = [['rec <agent>', RUN_SPEC.summary], ['rec -- COMMAND', 'run any program the same way'], ...SUBCOMMAND_SPECS.map((s) => [`rec ${s.name}`, s.summary])];
  const nameWidth = Math.max(...names.map(([n]) => n!.length));
  return [
    ...wrapText('rec records what coding agents drop: approvals, rejections, skipped calls and interruptions, joined with the agents\' own session files.', w),
    '',
    'usage:',
    ...synopses(w, '  '),
    '',
    'commands:',
    ...names.flatMap(([n, s]) => wrapText(s!, w, `  ${n!.padEnd(nameWidth)}  `, ' '.repeat(nameWidth + 4))),
    '',
    ...wrapText('`rec <command> --help` describes a command and all of its options; README.md has more.', w),
  ].join('\n') + '\n';
}

export function commandHelp(spec: CommandSpec, width: number): string {
  const w = helpWidth(width);
  const options = [...spec.options, HELP_OPTION];
  const labels = options.map((o) => `${o.short ? `-${o.short}, ` : '    '}--${o.name}${o.value ? ' ' + o.value : ''}`);
  const labelWidth = Math.max(...labels.map((l) => l.length));
  const [first, ...rest] = synopsis(spec, w - 'usage: '.length);
  return [
    `usage: ${first}`,
    ...rest.map((l) => `       ${l}`),
    '',
    ...wrapText(spec.description, w),
    '',
    'options:',
    ...options.flatMap((o, i) => {
      // Beside its option while there is room; below it on a narrow terminal.
      if (w - labelWidth - 4 >= HELP_MIN_TEXT_WIDTH) return wrapText(o.help, w, `  ${labels[i]!.padEnd(labelWidth)}  `, ' '.repeat(labelWidth + 4));
      return [`  ${labels[i]}`, ...wrapText(o.help, w, '        ')];
    }),
  ].join('\n') + '\n';
}

/** Words joined by spaces into lines of at most `width` columns; a word is never split. */
function wrapWords(words: readonly string[], width: number, first: string, next: string): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of words) {
    if (!empty && stringWidth(line) + 1 + stringWidth(word) > width) {
      lines.push(line);
      line = next;
      empty = true;
    }
    line += (empty ? '' : ' ') + word;
    empty = false;
  }
  lines.push(line);
  return lines;
}

function wrapText(text: string, width: number, first = '', next = first): string[] {
  return wrapWords(text.split(/\s+/).filter((w) => w !== ''), width, first, next);
}
