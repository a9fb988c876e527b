// `rec runs` and `rec events` on a real database file: tables for people, JSON Lines for programs.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_NAMES } from '../../../src/agents/registry.js';
import { eventsCommand } from '../../../src/commands/events.js';
import { parseSince } from '../../../src/commands/optionValues.js';
import { runsCommand } from '../../../src/commands/runs.js';
import { RecEvent } from '../../../src/core/events.js';
import { Run } from '../../../src/store/run.js';
import { openSidecar } from '../../../src/store/sidecarDb.js';
import { captureIO } from '../../support/commandIO.js';

// A zone with a half-hour offset makes "local time" visible in the assertions.
process.env.TZ = 'Asia/Kolkata';

let dir: string;
let dbPath: string;
let codexRun: string;
let geminiRun: string;
let rejectionId: string;
const now = new Date('2025-01-02T04:00:00.000Z');
const longCommand = `bash -lc "${'echo hello; '.repeat(20)}"`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rec-store-cmd-'));
  dbPath = join(dir, 'rec.db');
  const opened = openSidecar(dbPath);
  if (!opened.ok) throw new Error(opened.error);
  const db = opened.db;
  codexRun = db.startRun({ id: 'aaaa1111' + 'x'.repeat(18), agent: 'codex', argv: ['codex', '--model', 'gpt 5', longCommand], cwd: '/w', started_at: '2025-01-02T03:00:00.000Z' });
  db.finishRun(codexRun, { ended_at: '2025-01-02T03:03:05.000Z', exit_code: 0, signal: null, failed_parts: [{ part: 'screen', error: 'boom' }] });
  geminiRun = db.startRun({ id: 'aaaa2222' + 'y'.repeat(18), agent: 'gemini', argv: ['gemini'], cwd: '/w', started_at: '2025-01-02T03:30:00.000Z' });
  db.finishRun(geminiRun, { ended_at: '2025-01-02T03:31:00.000Z', exit_code: null, signal: 15 });
  const codex = { run_id: codexRun, agent: 'codex' as const, agent_version: '0.169.0' };
  db.insertEvent(codex, { ts: '2025-01-02T03:01:00.000Z', type: 'prompt', call_id: 'call_1', prompt: { title: 'Allow command?', details: {}, options: [] } });
  rejectionId = db.insertEvent(codex, {
    ts: '2025-01-02T03:02:00.000Z', type: 'rejection', kind: 'command', trigger: 'esc', decided_by: 'user', call_id: 'call_1',
    tool_name: 'shell', tool_input: { command: longCommand }, option_label: 'No, and tell Codex what to do differently',
    reason: 'not\u001b[31m now\nplease', reason_source: 'inline', evidence: ['screen', 'keys'],
  });
  db.insertEvent({ run_id: geminiRun, agent: 'gemini' }, { ts: '2025-01-02T03:30:30.000Z', type: 'interruption', kind: 'response', trigger: 'ctrl_c' });
  db.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lines = (text: string) => text.split('\n').filter((l) => l !== '');

describe('rec runs', () => {
  it('prints an aligned table: short ids, local times, duration, exit, event counts, failed parts, truncated command', async () => {
    const io = captureIO();
    expect(await runsCommand(['--db', dbPath], io)).toBe(0);
    const [header, first, second, ...rest] = lines(io.out());
    expect(rest).toEqual([]);
    expect(header).toMatch(/^ID\s+STARTED\s+DURATION\s+AGENT\s+VERSION\s+EXIT\s+EVENTS\s+FAILED\s+COMMAND$/);
    expect(first).toMatch(/^aaaa2222\s+2025-01-02 09:00:00\s+1m00s\s+gemini\s+-\s+sig15\s+1\s+-\s+gemini$/);
    expect(second).toMatch(/^aaaa1111\s+2025-01-02 08:30:00\s+3m05s\s+codex\s+-\s+0\s+2\s+screen\s+codex --model 'gpt 5' 'bash -lc/);
    // Piped (as here), nothing is cut; on a terminal the command is (test/integration/commands).
    expect(second).toContain('echo hello; '.repeat(20).trimEnd());
    // Aligned: every row's STARTED column begins where the header's does.
    const col = header!.indexOf('STARTED');
    expect(first!.slice(col, col + 10)).toBe('2025-01-02');
    expect(second!.slice(col, col + 10)).toBe('2025-01-02');
    expect(io.err()).toBe('');
  });

  it('--json prints one Run per line, newest first; --limit caps it', async () => {
    const io = captureIO();
    expect(await runsCommand(['--db', dbPath, '--json'], io)).toBe(0);
    const runs = lines(io.out()).map((l) => Run.parse(JSON.parse(l)));
    expect(runs.map((r) => r.id)).toEqual([geminiRun, codexRun]);
    expect(runs[1]!.argv).toEqual(['codex', '--model', 'gpt 5', longCommand]);
    const limited = captureIO();
    expect(await runsCommand(['--json', '--limit=1', `--db=${dbPath}`], limited)).toBe(0);
    expect(lines(limited.out())).toHaveLength(1);
  });

  it('finds the database through REC_DB', async () => {
    const io = captureIO({ REC_DB: dbPath });
    expect(await runsCommand(['--json'], io)).toBe(0);
    expect(lines(io.out())).toHaveLength(2);
  });

  it('an empty database: a friendly line for people, nothing for --json', async () => {
    const empty = join(dir, 'empty.db');
    const opened = openSidecar(empty);
    if (opened.ok) opened.db.close();
    const people = captureIO();
    expect(await runsCommand(['--db', empty], people)).toBe(0);
    expect(people.out()).toBe(`No runs recorded yet in ${empty}.\n`);
    const programs = captureIO();
    expect(await runsCommand(['--db', empty, '--json'], programs)).toBe(0);
    expect(programs.out()).toBe('');
  });
});

describe('rec events', () => {
  it('prints an aligned table with type, kind, trigger, option, call_id, truncated input and a cleaned reason', async () => {
    const io = captureIO();
    expect(await eventsCommand(['--db', dbPath], io, now)).toBe(0);
    const [header, prompt, rejection, interruption] = lines(io.out());
    expect(header).toMatch(/^ID\s+TIME\s+RUN\s+AGENT\s+TYPE\s+KIND\s+TRIGGER\s+OPTION\s+CALL_ID\s+TOOL\s+INPUT\s+REASON$/);
    expect(prompt).toMatch(/^\w{8}\s+2025-01-02 08:31:00\s+aaaa1111\s+codex\s+prompt\s+-\s+-\s+-\s+call_1\s+-\s+-\s+-$/);
    expect(rejection).toContain(rejectionId.slice(0, 8));
    // People see the command itself, not the argument object (--json keeps the object whole).
    expect(rejection).toMatch(/rejection\s+command\s+esc\s+No, and tell Codex what to do differently\s+call_1\s+shell\s+bash -lc "echo hello;/);
    expect(rejection).toMatch(/\s+not\\x1b\[31m now\\nplease$/); // shown escaped: no escape byte or newline reaches the terminal
    expect(rejection).not.toContain('\u001b');
    expect(interruption).toMatch(/aaaa2222\s+gemini\s+interruption\s+response\s+ctrl_c/);
  });

  it('--json prints events that parse with RecEvent', async () => {
    const io = captureIO();
    expect(await eventsCommand(['--db', dbPath, '--json'], io, now)).toBe(0);
    const events = lines(io.out()).map((l) => RecEvent.parse(JSON.parse(l)));
    expect(events.map((e) => e.type)).toEqual(['prompt', 'rejection', 'interruption']);
    expect(events[1]).toMatchObject({ id: rejectionId, tool_input: { command: longCommand }, evidence: ['screen', 'keys'], agent_version: '0.169.0' });
  });

  it('filters by run prefix, agent, type and since (relative and ISO)', async () => {
    const ids = async (...args: string[]) => {
      const io = captureIO();
      expect(await eventsCommand(['--db', dbPath, '--json', ...args], io, now)).toBe(0);
      return lines(io.out()).map((l) => RecEvent.parse(JSON.parse(l)).type);
    };
    expect(await ids('--run', 'aaaa1111')).toEqual(['prompt', 'rejection']);
    expect(await ids('--run', codexRun)).toEqual(['prompt', 'rejection']);
    expect(await ids('--agent', 'gemini')).toEqual(['interruption']);
    expect(await ids('--type', 'rejection')).toEqual(['rejection']);
    expect(await ids('--since', '30m')).toEqual(['interruption']); // now is 04:00Z
    expect(await ids('--since', '2025-01-02T03:01:30Z')).toEqual(['rejection', 'interruption']);
    expect(await ids('--agent', 'codex', '--type', 'interruption')).toEqual([]);
  });

  it('no match: a friendly line for people, nothing for --json', async () => {
    const people = captureIO();
    expect(await eventsCommand(['--db', dbPath, '--agent', 'claude'], people, now)).toBe(0);
    expect(people.out()).toBe('No events match.\n');
    const programs = captureIO();
    expect(await eventsCommand(['--db', dbPath, '--agent', 'claude', '--json'], programs, now)).toBe(0);
    expect(programs.out()).toBe('');
  });

  it('an ambiguous or unknown --run prefix is one line on stderr and exit 2', async () => {
    const ambiguous = captureIO();
    expect(await eventsCommand(['--db', dbPath, '--run', 'aaaa'], ambiguous, now)).toBe(2);
    expect(ambiguous.err()).toMatch(/^rec events: run id 'aaaa' is ambiguous: it matches (aaaa2222, aaaa1111|aaaa1111, aaaa2222); give more characters\n$/);
    const none = captureIO();
    expect(await eventsCommand(['--db', dbPath, '--run', 'zz'], none, now)).toBe(2);
    expect(none.err()).toBe(`rec events: no run matches 'zz' in ${dbPath} (rec runs lists the recorded runs)\n`);
    expect(none.out()).toBe('');
  });
});

describe('rec runs / rec events: bad input', () => {
  it.each([
    [['--bogus'], "unknown option '--bogus' (rec runs --help lists what it takes)"],
    [['--limit', 'x'], "bad --limit 'x': expected a whole number, 0 or more"],
    [['--limit', '-1'], "bad --limit '-1': expected a whole number, 0 or more"],
    [['--limit'], "option '--limit' needs a value (N)"],
    [['--json=yes'], "option '--json' takes no value"],
    [['extra'], "unexpected argument 'extra' (rec runs --help lists what it takes)"],
  ])('rec runs %j: one line on stderr, exit 2', async (args, message) => {
    const io = captureIO();
    expect(await runsCommand(['--db', dbPath, ...args], io)).toBe(2);
    expect(io.err()).toBe(`rec runs: ${message}\n`);
    expect(io.out()).toBe('');
  });

  it.each([
    [['--type', 'rejected'], /^rec events: bad --type 'rejected': expected one of prompt, approval, rejection, skipped, interruption, miss\n$/],
    [['--agent', 'vim'], new RegExp(`^rec events: bad --agent 'vim': expected one of ${[...AGENT_NAMES, 'other'].join(', ')}\\n$`)],
    [['--since', 'last week'], /^rec events: bad --since 'last week': expected an age \(30s, 30m, 2h, 7d, 1w\) or a date/],
    [['--since', '2025-02-30'], /^rec events: bad --since '2025-02-30'/],
    [['--nope'], /^rec events: unknown option '--nope' \(rec events --help lists what it takes\)\n$/],
  ])('rec events %j: one line on stderr, exit 2', async (args, pattern) => {
    const io = captureIO();
    expect(await eventsCommand(['--db', dbPath, ...args], io, now)).toBe(2);
    expect(io.err()).toMatch(pattern);
    expect(io.out()).toBe('');
  });

  it('a missing database: one line naming it, exit 1, and no file created', async () => {
    const missing = join(dir, 'nothing', 'rec.db');
    for (const command of [runsCommand, eventsCommand]) {
      const io = captureIO();
      expect(await command(['--db', missing], io)).toBe(1);
      expect(io.err()).toBe(`rec ${command === runsCommand ? 'runs' : 'events'}: rec database ${missing}: does not exist (nothing recorded yet; run \`rec <agent>\` first)\n`);
    }
    expect(existsSync(missing)).toBe(false);
    expect(existsSync(join(dir, 'nothing'))).toBe(false);
  });

  it('a file that is not a database: one line, exit 1', async () => {
    const junk = join(dir, 'junk.db');
    writeFileSync(junk, 'not a database at all, just text\n'.repeat(40));
    const io = captureIO();
    expect(await eventsCommand(['--db', junk], io)).toBe(1);
    expect(io.err()).toMatch(new RegExp(`^rec events: rec database ${junk}: is not an SQLite database.*\\n$`));
  });
});

describe('parseSince', () => {
  const at = new Date('2025-06-01T12:00:00.000Z');
  it('takes relative ages', () => {
    expect(parseSince('45s', at).toISOString()).toBe('2025-06-01T11:59:15.000Z');
    expect(parseSince('30m', at).toISOString()).toBe('2025-06-01T11:30:00.000Z');
    expect(parseSince('2h', at).toISOString()).toBe('2025-06-01T10:00:00.000Z');
    expect(parseSince('7d', at).toISOString()).toBe('2025-05-25T12:00:00.000Z');
    expect(parseSince('1w', at).toISOString()).toBe('2025-05-25T12:00:00.000Z');
  });
  it('takes ISO dates: a bare date is local midnight, a zone is honoured', () => {
    expect(parseSince('2025-01-31', at).toISOString()).toBe('2025-01-30T18:30:00.000Z'); // Asia/Kolkata midnight
    expect(parseSince('2025-01-31T14:00:00Z', at).toISOString()).toBe('2025-01-31T14:00:00.000Z');
    expect(parseSince('2025-01-31 14:00', at).toISOString()).toBe('2025-01-31T08:30:00.000Z');
  });
});

describe('the built CLI', () => {
  const run = promisify(execFile);
  it('`rec events --json` and `rec runs --json` through bin/rec.js', async () => {
    const root = join(import.meta.dirname, '..', '..', '..');
    const events = await run(process.execPath, [join(root, 'bin', 'rec.js'), 'events', '--db', dbPath, '--json', '--type', 'rejection']);
    expect(lines(events.stdout).map((l) => RecEvent.parse(JSON.parse(l)).id)).toEqual([rejectionId]);
    const runs = await run(process.execPath, [join(root, 'bin', 'rec.js'), 'runs', '--db', dbPath, '--json']);
    expect(lines(runs.stdout)).toHaveLength(2);
    const bad = await run(process.execPath, [join(root, 'bin', 'rec.js'), 'events', '--db', dbPath, '--bogus']).catch((e: { code: number; stderr: string }) => e);
    expect(bad).toMatchObject({ code: 2 });
    expect((bad as { stderr: string }).stderr).toBe("rec events: unknown option '--bogus' (rec events --help lists what it takes)\n");
  });

  it('a reader that closes the pipe early (`| head -n 1`) gets no crash and no stack trace', async () => {
    const root = join(import.meta.dirname, '..', '..', '..');
    const big = join(dir, 'big.db');
    const opened = openSidecar(big);
    if (!opened.ok) throw new Error(opened.error);
    const runId = opened.db.startRun({ agent: 'codex', argv: ['codex'], cwd: '/', started_at: now.toISOString() });
    // Far more than a pipe's 64 KiB buffer, so the writer is still writing when head exits.
    for (let i = 0; i < 500; i++) {
      opened.db.insertEvent({ run_id: runId, agent: 'codex' }, { ts: now.toISOString(), type: 'interruption', kind: 'response', partial_output: 'x'.repeat(1000) });
    }
    opened.db.close();
    const errFile = join(dir, 'epipe.err');
    const script = `"${process.execPath}" "${join(root, 'bin', 'rec.js')}" events --db "${big}" --json 2>"${errFile}" | head -n 1 >/dev/null`;
    await run('sh', ['-c', script]);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(errFile, 'utf8')).toBe('');
  });
});
