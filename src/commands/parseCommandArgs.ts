// argv → option values and operands, for every command, from its CommandSpec.
//
// Tokenising is Node's own `util.parseArgs` (built in, maintained with Node, no dependency to load
// on the hot `rec hook` / `rec <agent>` paths): `--name value`, `--name=value`, `-o DIR`, `-oDIR`,
// `--` and grouped short flags all behave as in other tools. It runs non-strict, with tokens, so
// that every mistake is put into words here, once, the same for every command: parseArgs' own
// strict errors differ in wording and cannot say "bad --top '-1'".
import { parseArgs } from 'node:util';
import { UsageError } from './commandIO.js';
import { HELP_OPTION, type CommandSpec, type OptionSpec } from './commandSpec.js';
import { escapeControls } from './terminalText.js';

export type OptionValues = Record<string, string | true | undefined>;

export interface ParsedArgs {
  /** By long name; a flag is `true`, an option with a value its (last) value. */
  readonly values: OptionValues;
  readonly operands: readonly string[];
  /** `-h` / `--help` was given: show the help, whatever else is there. */
  readonly help: boolean;
}

export interface ParseOptions {
  /** Stop at the first operand or `--`: the rest belongs to someone else (the agent). */
  readonly stopAtOperand?: boolean;
}

/** Parses `args` (argv after the command's name); a mistake throws a one-line UsageError. */
export function parseCommandArgs(spec: CommandSpec, args: readonly string[], opts: ParseOptions = {}): ParsedArgs & { rest: readonly string[] } {
  const known = [...spec.options, HELP_OPTION];
  const config: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const o of known) config[o.name] = { type: o.value === undefined ? 'boolean' : 'string', ...(o.short ? { short: o.short } : {}) };
  const { tokens } = parseArgs({ args: [...args], options: config, strict: false, allowPositionals: true, tokens: true });

  const values: OptionValues = {};
  const operands: string[] = [];
  let rest: readonly string[] = [];
  let mistake: UsageError | undefined;
  for (const token of tokens) {
    if (token.kind === 'option-terminator' || token.kind === 'positional') {
      if (opts.stopAtOperand) {
        rest = args.slice(token.index);
        break;
      }
      if (token.kind === 'positional') {
        if (spec.operands === '') mistake ??= new UsageError(`unexpected argument '${quote(token.value)}'${helpHint(spec)}`);
        else operands.push(token.value);
      }
      continue;
    }
    const option = known.find((o) => o.name === token.name);
    if (option === HELP_OPTION) return { values, operands, help: true, rest };
    if (option === undefined) {
      mistake ??= new UsageError(`unknown option '${quote(token.rawName)}'${helpHint(spec)}`);
      continue;
    }
    if (option.value === undefined) {
      if (token.value !== undefined) mistake ??= new UsageError(`option '--${option.name}' takes no value`);
      values[option.name] = true;
      continue;
    }
    // `--run --json`: the next word is another option, so --run was given no value. A word such as
    // `-1` is a value (and is judged as one: "bad --top '-1'").
    const value = token.value;
    if (value === undefined || value === '' || (!token.inlineValue && isKnownOption(value, known))) {
      mistake ??= new UsageError(`option '--${option.name}' needs a value (${option.value})`);
      continue;
    }
    values[option.name] = value;
  }
  if (mistake) throw mistake;
  return { values, operands, help: false, rest };
}

function isKnownOption(word: string, known: readonly OptionSpec[]): boolean {
  if (word === '--') return true;
  if (word.startsWith('--')) {
    const name = word.slice(2).split('=')[0];
    return known.some((o) => o.name === name);
  }
  return word.length >= 2 && word.startsWith('-') && known.some((o) => o.short === word[1]);
}

function helpHint(spec: CommandSpec): string {
  return ` (rec ${spec.name === '' ? '' : spec.name + ' '}--help lists what it takes)`;
}

/** User input quoted back in a message is escaped like any other text bound for a terminal. */
export function quote(text: string): string {
  return escapeControls(text);
}
