// Help, the README's usage block and the parser come from one spec per command: this holds them
// together, so that an option added to one shows up in all three or the suite fails.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { HELP_OPTION, RUN_SPEC, SUBCOMMAND_SPECS, type CommandSpec, type OptionSpec } from '../../../src/commands/commandSpec.js';
import { HELP_MAX_WIDTH, commandHelp, synopses, topHelp } from '../../../src/commands/help.js';
import { parseCommandArgs } from '../../../src/commands/parseCommandArgs.js';

const ALL_SPECS: CommandSpec[] = [RUN_SPEC, ...SUBCOMMAND_SPECS];
const readmeUsage = (): string => {
  const readme = readFileSync(join(import.meta.dirname, '../../../README.md'), 'utf8');
  const commands = readme.slice(readme.indexOf('## Commands'));
  return /```\n([\s\S]*?)```/.exec(commands)![1]!;
};
const each = ALL_SPECS.flatMap((spec) => spec.options.map((o) => [spec.name || '<agent>', o.name, spec, o] as const));

/** An argv that gives the option as the parser expects it. */
function argvFor(o: OptionSpec, short = false): string[] {
  const flag = short ? `-${o.short}` : `--${o.name}`;
  return o.value === undefined ? [flag] : [flag, 'x'];
}

describe('one spec: parser, help and README agree', () => {
  it.each(each)('rec %s --%s: the parser takes it, its help lists it, rec --help and README show it', (_cmd, _name, spec, o) => {
    const parsed = parseCommandArgs(spec, argvFor(o), { stopAtOperand: spec === RUN_SPEC });
    expect(parsed.values[o.name]).toBe(o.value === undefined ? true : 'x');
    if (o.short) expect(parseCommandArgs(spec, argvFor(o, true)).values[o.name]).toBe(o.value === undefined ? true : 'x');
    const help = commandHelp(spec, 200);
    expect(help).toContain(`--${o.name}${o.value ? ' ' + o.value : ''}  `);
    if (o.short) expect(help).toContain(`-${o.short}, --${o.name}`);
    expect(help).toContain(o.help.split(' ').slice(0, 3).join(' '));
    const option = `[--${o.name}${o.value ? ' ' + o.value : ''}]`;
    expect(topHelp(200)).toContain(option);
    expect(readmeUsage()).toContain(option);
  });

  it('an option no spec has is refused, and every command takes -h and --help', () => {
    for (const spec of ALL_SPECS) {
      expect(() => parseCommandArgs(spec, ['--no-such-option'])).toThrow(/^unknown option '--no-such-option'/);
      expect(parseCommandArgs(spec, ['-h']).help).toBe(true);
      expect(parseCommandArgs(spec, ['--help']).help).toBe(true);
      expect(commandHelp(spec, 200)).toContain(`-h, --help`);
    }
    expect(HELP_OPTION.name).toBe('help');
  });

  it("README's usage block is exactly rec --help's usage block", () => {
    expect(readmeUsage()).toBe(synopses(HELP_MAX_WIDTH).join('\n') + '\n');
    expect(topHelp(HELP_MAX_WIDTH)).toContain(synopses(HELP_MAX_WIDTH, '  ').join('\n'));
  });

  it.each([40, 80, 200])('at %i columns no help line is wider than the terminal (nor than HELP_MAX_WIDTH)', (cols) => {
    const limit = Math.min(cols, HELP_MAX_WIDTH);
    for (const text of [topHelp(cols), ...ALL_SPECS.map((s) => commandHelp(s, cols))]) {
      for (const line of text.trimEnd().split('\n')) expect(stringWidth(line), line).toBeLessThanOrEqual(limit);
    }
  });
});
