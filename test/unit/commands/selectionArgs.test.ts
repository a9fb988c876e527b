import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/commands/commandIO.js';
import { EVENT_AGENTS, EVENT_TYPES, MERGE_SPEC, RUNS_SPEC, STATS_SPEC } from '../../../src/commands/commandSpec.js';
import { parseCommandArgs } from '../../../src/commands/parseCommandArgs.js';
import { toSelectionArgs } from '../../../src/commands/selectionArgs.js';
import { EventType } from '../../../src/core/events.js';
import { AGENT_NAMES } from '../../../src/agents/registry.js';
import { MergeAgent } from '../../../src/merge/mergedSession.js';

const merge = (...args: string[]) => toSelectionArgs(parseCommandArgs(MERGE_SPEC, args));
const stats = (...args: string[]) => toSelectionArgs(parseCommandArgs(STATS_SPEC, args));

describe('toSelectionArgs', () => {
  it('takes files, --run, --agent, --since, --db, --jobs and -o, in any order and form', () => {
    const a = merge('a.jsonl', '--run', 'r1', '--agent=gemini', '--since', '7d', '--db', 'x.db', '-j', '2', '-o', 'out', 'b.jsonl');
    expect(a.selection).toMatchObject({ files: ['a.jsonl', 'b.jsonl'], runId: 'r1', agent: 'gemini' });
    expect(a.selection.since).toBeInstanceOf(Date);
    expect([a.db, a.jobs, a.output, a.progress]).toEqual(['x.db', 2, 'out', true]);
    expect(merge('-oout', '--jobs=3', '--no-progress', '--', '--weird-file.jsonl')).toMatchObject({ output: 'out', jobs: 3, progress: false, selection: { files: ['--weird-file.jsonl'] } });
  });

  it('says each mistake in one line naming the option and what it accepts', () => {
    const message = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        expect(err).toBeInstanceOf(UsageError);
        return (err as Error).message;
      }
      throw new Error('no UsageError');
    };
    expect(message(() => merge('--json'))).toBe("unknown option '--json' (rec merge --help lists what it takes)");
    expect(message(() => stats('-o', 'x'))).toBe("unknown option '-o' (rec stats --help lists what it takes)");
    expect(message(() => merge('--agent', 'vim'))).toBe(`bad --agent 'vim': expected one of ${AGENT_NAMES.join(', ')}`);
    expect(message(() => merge('--since', 'yesterday'))).toMatch(/^bad --since 'yesterday': expected an age \(30s, 30m, 2h, 7d, 1w\) or a date/);
    expect(message(() => merge('--jobs', '0'))).toBe("bad --jobs '0': expected a whole number from 1 to 64");
    expect(message(() => stats('--top', '-1'))).toBe("bad --top '-1': expected a whole number, 1 or more");
    expect(message(() => merge('--run'))).toBe("option '--run' needs a value (ID)");
    expect(message(() => merge('--run', '--jsonl'))).toBe("option '--run' needs a value (ID)");
    expect(message(() => merge('--jsonl=yes'))).toBe("option '--jsonl' takes no value");
    expect(message(() => parseCommandArgs(RUNS_SPEC, ['extra']))).toBe("unexpected argument 'extra' (rec runs --help lists what it takes)");
    // User input quoted back is escaped like any text bound for a terminal.
    expect(message(() => merge('--agent', 'x\x1b]0;pwned\x07'))).toBe(`bad --agent 'x\\x1b]0;pwned\\x07': expected one of ${AGENT_NAMES.join(', ')}`);
  });

  it('-h / --help wins over any mistake around it', () => {
    expect(parseCommandArgs(RUNS_SPEC, ['--bogus', '-h']).help).toBe(true);
    expect(parseCommandArgs(MERGE_SPEC, ['--jobs', 'x', '--help']).help).toBe(true);
  });
});

describe('the spec lists that mirror zod enums', () => {
  it('equal them (spelled out so that rec hook and rec <agent> load no zod)', () => {
    expect([...EVENT_TYPES]).toEqual(EventType.options);
  });

  it('take the agents from the registry, and every one of them is a valid agent name', () => {
    expect([...EVENT_AGENTS]).toEqual([...AGENT_NAMES, 'other']);
    for (const a of EVENT_AGENTS) expect(MergeAgent.safeParse(a).success).toBe(true);
  });
});
