// What a person sees from every reporting command, on a real terminal (a pty) 80 and 200 columns
// wide: help everywhere, tables that fit, one --run for every command, one-line mistakes with
// exit status 2, and nothing from a session file or the sidecar reaching the terminal raw.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_NAMES } from '../../../src/agents/registry.js';
import { openSidecar } from '../../../src/store/sidecarDb.js';
import type { ExitStatus } from '../../../src/lab/spawn.js';
import { HOSTILE, findUnsafe } from '../../support/hostileStrings.js';
import { REC_BIN, REPO_ROOT, createRecSandbox, type RecSandbox } from '../../support/rec.js';

let sandbox: RecSandbox;
let codexRun: string;
let commandRun: string;
let transcript: string;
const CALL_ID = 'call_0123456789abcdefghijklmn';

beforeAll(() => {
  sandbox = createRecSandbox();
  mkdirSync(join(sandbox.dir, 'data'), { recursive: true });
  const opened = openSidecar(sandbox.dbPath);
  if (!opened.ok) throw new Error(opened.error);
  const db = opened.db;
  const started = new Date(Date.now() - 60_000).toISOString();
  codexRun = db.startRun({ id: 'aaaa1111' + 'x'.repeat(18), agent: 'codex', argv: ['codex', '--model', 'gpt-5', `fix the build ${HOSTILE} ${'and more '.repeat(20)}`], cwd: '/w', started_at: started });
  db.finishRun(codexRun, { ended_at: new Date().toISOString(), exit_code: 0, signal: null, failed_parts: [{ part: 'screen', error: HOSTILE }] });
  const codex = { run_id: codexRun, agent: 'codex' as const, agent_version: `0.169.0${HOSTILE}` };
  db.insertEvent(codex, { ts: started, type: 'prompt', call_id: CALL_ID, prompt: { title: HOSTILE, details: {}, options: [] } });
  db.insertEvent(codex, {
    ts: started, type: 'rejection', kind: 'command', trigger: 'esc', decided_by: 'user', call_id: CALL_ID,
    tool_name: 'shell', tool_input: { command: `bash -lc "${HOSTILE} ${'echo hello; '.repeat(20)}"` }, option_label: `No ${HOSTILE}`,
    reason: `not now ${HOSTILE}`, reason_source: 'inline', evidence: ['screen', 'keys'],
  });
  commandRun = db.startRun({ id: 'aaaa2222' + 'y'.repeat(18), agent: 'other', argv: ['true'], cwd: '/w', started_at: new Date().toISOString() });
  db.finishRun(commandRun, { ended_at: new Date().toISOString(), exit_code: 0, signal: null });
  db.close();

  // A Claude transcript whose refused command is hostile, and two lines that are not JSON and
  // quote raw escape bytes into their diagnostics.
  const fixture = readFileSync(join(REPO_ROOT, 'test/fixtures/logs/claude/02-bash-reject-No.jsonl'), 'utf8');
  const hostileJson = JSON.stringify(`${HOSTILE} ${'rm -rf build; '.repeat(15)}`).slice(1, -1);
  transcript = join(sandbox.dir, 'hostile.jsonl');
  writeFileSync(transcript, fixture.replaceAll('echo mock-bash-ran > <SCRATCH>/ws/bash-out.txt', hostileJson) + `{"type":"user","x\x1b]0;pwned\x07\x0e\n\x1b[2Jnot json \u009b31m \u202Egnp.exe\n`);
});
afterAll(() => sandbox.dispose());

interface Shown {
  readonly status: ExitStatus;
  readonly lines: string[];
  readonly text: string;
}

/** Runs `rec <args>` on a pty `cols` wide and returns what the terminal received, line by line. */
async function show(cols: number, args: string[]): Promise<Shown> {
  const p = sandbox.spawnRec(args, { cols, rows: 50, screen: false });
  const status = await p.expectExit();
  const text = p.output;
  return { status, text, lines: text.split('\r\n').filter((l, i, all) => l !== '' || i < all.length - 1) };
}

/** Tables and help fit the terminal; a diagnostic (`rec <command>: …`) is one line the terminal may wrap. */
function expectFits(shown: Shown, cols: number): void {
  for (const line of shown.lines.filter((l) => !l.startsWith('rec '))) expect(stringWidth(line), JSON.stringify(line)).toBeLessThanOrEqual(cols);
  expect(findUnsafe(shown.text)).toBeUndefined();
}

const ROW_START = /^[0-9a-z]{8} {2}\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} {2}/;

describe.each([80, 200])('on a terminal %i columns wide', (cols) => {
  it.each([[['--help']], [['help']], [['runs', '--help']], [['events', '-h']], [['merge', '--help']], [['stats', '--help']], [['report', '--help']], [['hook', '--help']], [['prune', '--help']], [['help', 'stats']], [['--db', 'x.db', '--help']]])(
    'rec %j: help on stdout, exit 0, no line wider than the terminal',
    async (args) => {
      const shown = await show(cols, args);
      expect(shown.status.exitCode).toBe(0);
      expect(shown.text).toMatch(/usage:/);
      expectFits(shown, cols);
    },
  );

  it('rec runs: ids and start times whole, hostile argv and version shown escaped, every line fits', async () => {
    const shown = await show(cols, ['runs']);
    expect(shown.status.exitCode).toBe(0);
    expectFits(shown, cols);
    expect(shown.lines[0]).toMatch(/^ID {2,}STARTED {2,}/);
    expect(shown.lines.slice(1).filter((l) => ROW_START.test(l)).map((l) => l.slice(0, 8))).toEqual([commandRun.slice(0, 8), codexRun.slice(0, 8)]);
    expect(shown.text).toContain('…'); // the long command was cut to fit
    if (cols === 200) expect(shown.text).toContain('fix the build \\x1b]0;pwned\\x07');
  });

  it('rec events: ids, times and types whole, hostile text shown escaped, every line fits', async () => {
    const shown = await show(cols, ['events', '--run', codexRun.slice(0, 5)]);
    expect(shown.status.exitCode).toBe(0);
    expectFits(shown, cols);
    const rows = shown.lines.slice(1);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toMatch(ROW_START);
    expect(rows[1]).toMatch(/ rejection {2,}command {2,}/);
    if (cols === 200) {
      expect(shown.lines[0]).toContain('CALL_ID');
      expect(rows[1]).toContain(CALL_ID); // an id is never cut
      expect(rows[1]).toContain('\\x1b]0;pwned\\x07');
    }
  });

  it('rec stats on a hostile transcript: a short summary, only tables with rows, escaped diagnostics, every line fits', async () => {
    const shown = await show(cols, ['stats', transcript, '--db', sandbox.dbPath]);
    expect(shown.status.exitCode).toBe(0);
    expectFits(shown, cols);
    expect(shown.text).toMatch(/^1 session \(claude 1\), 1 tool call, 2 diagnostics\.\s+1 rejection,/m);
    expect(shown.text).toContain('Most refused commands');
    expect(shown.text).not.toContain('(none)');
    expect(shown.text).toMatch(/empty tables? left out; --all shows every table/);
    expect(shown.text).toContain(`hostile.jsonl:7: error: invalid_json: not JSON: Unexpected token '\\x1b', "\\x1b[2Jnot js"... is not valid JSON`);
    if (cols === 200) expect(shown.text).toContain('\\x1b]0;pwned\\x07');
    const all = await show(cols, ['stats', transcript, '--all']);
    expect(all.text).toContain('(none)');
    expectFits(all, cols);
  });

  it('rec prune --dry-run: a table of what would go that fits, nothing deleted', async () => {
    const shown = await show(cols, ['prune', '--dry-run', '--before', '0s']);
    expect(shown.status.exitCode).toBe(0);
    expect(findUnsafe(shown.text)).toBeUndefined();
    // The table fits; the sentences around it are prose, which the terminal wraps.
    for (const line of shown.lines.filter((l) => ROW_START.test(l) || l.startsWith('ID '))) expect(stringWidth(line)).toBeLessThanOrEqual(cols);
    expect(shown.lines[0]).toMatch(/^Would delete 2 runs \(2 events, 0 agent records\) started before /);
    expect(shown.lines.filter((l) => ROW_START.test(l))).toHaveLength(2);
    expect(shown.text).toContain('Nothing was deleted (--dry-run).');
  });

  it('rec merge -o DIR on a hostile transcript: the diagnostics on the terminal are escaped', async () => {
    const shown = await show(cols, ['merge', transcript, '-o', join(sandbox.dir, `out-${cols}`)]);
    expect(shown.status.exitCode).toBe(0);
    expect(findUnsafe(shown.text)).toBeUndefined();
    expect(shown.lines).toHaveLength(2);
    expect(shown.lines[0]).toMatch(/^rec merge: .*hostile\.jsonl:6: error: invalid_json: not JSON: /);
  });

  it.each([
    [['events', '--since', 'yesterday'], "rec events: bad --since 'yesterday': expected an age (30s, 30m, 2h, 7d, 1w) or a date (2025-01-31, 2025-01-31T14:00)"],
    [['merge', '--since', 'banana'], "rec merge: bad --since 'banana': expected an age (30s, 30m, 2h, 7d, 1w) or a date (2025-01-31, 2025-01-31T14:00)"],
    [['stats', '--top', '-1'], "rec stats: bad --top '-1': expected a whole number, 1 or more"],
    [['runs', '--limit'], "rec runs: option '--limit' needs a value (N)"],
    [['events', '--json=yes'], "rec events: option '--json' takes no value"],
    [['events', '--agent', '\x1b]0;pwned\x07'], `rec events: bad --agent '\\x1b]0;pwned\\x07': expected one of ${AGENT_NAMES.join(', ')}, other`],
    [['hook'], 'rec hook: missing AGENT and EVENT (rec hook AGENT EVENT; rec hook --help says more)'],
    [['hook', 'foo', 'bar'], `rec hook: bad AGENT 'foo': expected one of ${AGENT_NAMES.join(', ')}`],
    [['merge', '--run', 'zzzz'], `rec merge: no run matches 'zzzz' in DB (rec runs lists the recorded runs)`],
    [['stats', '--run', 'zzzz'], `rec stats: no run matches 'zzzz' in DB (rec runs lists the recorded runs)`],
    [['events', '--run', 'zzzz'], `rec events: no run matches 'zzzz' in DB (rec runs lists the recorded runs)`],
    [['prune', '--run', 'zzzz'], `rec prune: no run matches 'zzzz' in DB (rec runs lists the recorded runs)`],
    [['prune', '--before', 'soon'], "rec prune: bad --before 'soon': expected an age (30s, 30m, 2h, 7d, 1w) or a date (2025-01-31, 2025-01-31T14:00)"],
  ])('rec %j: one line naming the mistake, exit 2', async (args, message) => {
    const shown = await show(cols, args);
    expect(shown.status.exitCode).toBe(2);
    expect(shown.lines).toEqual([message.replace('DB', sandbox.dbPath)]);
  });

  it('an ambiguous --run prefix is one line listing the matches, exit 2, in every command', async () => {
    for (const command of ['events', 'merge', 'stats', 'prune']) {
      const shown = await show(cols, [command, '--run', 'aaaa']);
      expect(shown.status.exitCode).toBe(2);
      expect(shown.lines).toEqual([`rec ${command}: run id 'aaaa' is ambiguous: it matches aaaa2222, aaaa1111; give more characters`]);
    }
  });

  it('rec merge / rec stats --run PREFIX of a run with nothing to read: one line saying why, exit 1', async () => {
    for (const command of ['merge', 'stats']) {
      const shown = await show(cols, [command, '--run', commandRun.slice(0, 6)]);
      expect(shown.status.exitCode).toBe(1);
      expect(shown.text).toContain(`rec ${command}: run ${commandRun.slice(0, 8)} ran a command (rec -- true), not an agent: it has no agent session to read`);
    }
    const codex = await show(cols, ['merge', '--run', codexRun]);
    expect(codex.status.exitCode).toBe(1);
    expect(codex.lines).toEqual([`rec merge: run ${codexRun.slice(0, 8)} (codex): no session file of the agent is known for it, and the database holds no copy of one; nothing to read`]);
  });

  it('messages name the real cause: no such file, a folder given as the database', async () => {
    const missing = await show(cols, ['merge', join(sandbox.dir, 'nope.jsonl')]);
    expect(missing.status.exitCode).toBe(1);
    expect(missing.lines).toEqual([`rec merge: ${join(sandbox.dir, 'nope.jsonl')}: error: missing_file: no such file`]);
    const folder = await show(cols, ['runs', '--db', sandbox.dir]);
    expect(folder.status.exitCode).toBe(1);
    expect(folder.lines).toEqual([`rec runs: rec database ${sandbox.dir}: is a folder, not a database file`]);
  });
});

describe('a command or agent binary that cannot be found', () => {
  // argv cannot hold NUL; every other hostile string can be a command name.
  const hostileName = HOSTILE.replaceAll('\x00', '');

  it('rec -- <hostile name>: "command not found" with the name escaped, exit 127', () => {
    const r = spawnSync(process.execPath, [REC_BIN, '--', hostileName], { env: sandbox.env, encoding: 'utf8' });
    expect(r.status).toBe(127);
    expect(r.stderr).toMatch(/^rec: .*: command not found\n$/);
    expect(r.stderr).toContain('\\x1b]0;pwned\\x07');
    expect(findUnsafe(r.stderr)).toBeUndefined();
  });

  it('rec codex with a hostile REC_CODEX_BIN: the override is named escaped, exit 127', () => {
    const r = spawnSync(process.execPath, [REC_BIN, 'codex'], { env: { ...sandbox.env, REC_CODEX_BIN: hostileName }, encoding: 'utf8' });
    expect(r.status).toBe(127);
    expect(r.stderr).toMatch(/^rec: codex not found: no executable .* \(from REC_CODEX_BIN\)/);
    expect(findUnsafe(r.stderr)).toBeUndefined();
  });
});

/** A read-only file system needs a mount of its own: root, in a private mount namespace. */
const canMountReadOnly = process.getuid?.() === 0 && spawnSync('unshare', ['-m', 'true']).status === 0;

/** `rec <args>` with a read-only tmpfs mounted at `dir`, seen by that rec alone. */
function recOnReadOnlyMount(dir: string, args: string[]): { status: number | null; stderr: string } {
  mkdirSync(dir, { recursive: true });
  const mountThenRun = 'mount -t tmpfs -o ro tmpfs "$1" && shift && exec "$@"';
  const r = spawnSync('unshare', ['-m', 'sh', '-c', mountThenRun, 'sh', dir, REC_BIN, ...args], { env: sandbox.env, encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
}

describe('rec merge -o on a read-only file system', () => {
  it.runIf(canMountReadOnly)('a folder that cannot be made, and a file that cannot be written: one line naming EROFS, exit 1', () => {
    const ro = join(sandbox.dir, 'read-only');
    const fixture = join(REPO_ROOT, 'test/fixtures/logs/claude/02-bash-reject-No.jsonl');
    const folder = recOnReadOnlyMount(ro, ['merge', fixture, '-o', join(ro, 'out')]);
    expect(folder).toEqual({ status: 1, stderr: `rec merge: -o ${join(ro, 'out')}: cannot create the folder: EROFS: read-only file system\n` });
    const file = recOnReadOnlyMount(ro, ['merge', fixture, '-o', ro]);
    expect(file.status).toBe(1);
    expect(file.stderr).toMatch(new RegExp(`^rec merge: -o ${ro}: cannot write claude-[0-9a-f-]+\\.json: EROFS: read-only file system\\n$`));
  });
});

describe('rec merge -o where no folder can be made', () => {
  it('under /proc: one line with the cause, exit 1, at once (Node’s recursive mkdir never returns there)', async () => {
    const shown = await show(80, ['merge', transcript, '-o', '/proc/rec-no-such-folder/out']);
    expect(shown.status.exitCode).toBe(1);
    expect(shown.lines).toEqual(['rec merge: -o /proc/rec-no-such-folder/out: cannot create the folder: ENOENT: no such file or directory']);
  });
});

describe('help into a pipe whose reader has left (`rec --help | head -1`)', () => {
  it.each([['--help'], ['help', 'merge'], ['runs', '--help'], ['merge', '--help'], ['hook', '--help'], ['--version']])(
    'rec %s: exit 0, no stack trace',
    async (...args) => {
      const child = spawn(REC_BIN, args, { stdio: ['ignore', 'pipe', 'pipe'], env: sandbox.env });
      // Closed before rec (still starting) writes a byte: its first write meets EPIPE.
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    },
  );
});

describe('--json is exact', () => {
  it('rec events --json and rec runs --json give back the hostile strings unaltered', async () => {
    const { execFileSync } = await import('node:child_process');
    const events = execFileSync(REC_BIN, ['events', '--json', '--type', 'rejection'], { env: sandbox.env }).toString('utf8').trim().split('\n');
    expect(JSON.parse(events[0]!)).toMatchObject({ reason: `not now ${HOSTILE}`, option_label: `No ${HOSTILE}` });
    const runs = execFileSync(REC_BIN, ['runs', '--json'], { env: sandbox.env }).toString('utf8').trim().split('\n');
    expect(runs.map((l) => JSON.parse(l).argv.at(-1))).toContain(`fix the build ${HOSTILE} ${'and more '.repeat(20)}`);
  });
});
