import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Database } from '../../../src/store/sqliteDriver.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawn, type Spawned } from '../../../src/lab/spawn.js';
import { createRecSandbox, REC_BIN, type RecSandbox } from '../../support/rec.js';
import { mixedOutputBlocks } from './programs/mixedOutput.mjs';
import { waitUntil } from '../../../src/lab/pollUntil.js';

const PROGRAMS = join(import.meta.dirname, 'programs');
const END = '<<END-OF-OUTPUT>>';

let sandbox: RecSandbox;
beforeEach(() => {
  sandbox = createRecSandbox();
});
afterEach(() => sandbox.dispose());

function expectedHash(bytes: number, seed: number): string {
  const hash = createHash('sha256');
  for (const block of mixedOutputBlocks(bytes, seed)) hash.update(block);
  hash.update('\x1b[0m' + END);
  return hash.digest('hex');
}

describe('passthrough', () => {
  it('passes 50 MB of mixed text and escape sequences through byte for byte', async () => {
    const size = 50 * 1024 * 1024;
    const p = sandbox.spawnRec(['--', process.execPath, join(PROGRAMS, 'mixedOutput.mjs'), String(size), '7'], {
      screen: false,
      timeoutMs: 120_000,
    });
    expect(await p.expectExit()).toEqual({ exitCode: 0, signal: undefined });
    const out = Buffer.from(p.output, 'utf8');
    const end = out.lastIndexOf(END);
    expect(end).toBeGreaterThan(0);
    const relayed = out.subarray(0, end + END.length);
    expect(relayed.length).toBe(size + Buffer.byteLength('\x1b[0m' + END));
    expect(createHash('sha256').update(relayed).digest('hex')).toBe(expectedHash(size, 7));
    // vitest's own limit must exceed the harness's wait above, or a loaded machine fails the test at
    // the global 30 s before the wait could report what it saw.
  }, 150_000);

  it('relays a bare line feed unchanged (no second ONLCR on the outer terminal)', async () => {
    const p = sandbox.spawnRec(['--', 'sh', '-c', 'stty -opost; printf "a\\nb\\n<done>"']);
    await p.expectExit();
    expect(p.output).toContain('a\nb\n<done>');
    expect(p.output).not.toContain('a\r\n');
  });

  it('loses no byte of 1 MB written by a child that exits at once', async () => {
    const p = sandbox.spawnRec(
      ['--', process.execPath, '-e', "process.stdout.write('x'.repeat(1 << 20) + '<tail>')"],
      { screen: false, timeoutMs: 60_000 },
    );
    await p.expectExit();
    const xs = p.output.match(/x/g)?.length ?? 0;
    expect(xs).toBe(1 << 20);
    expect(p.output).toContain('<tail>');
  });

  it('loses no byte when rec is behind the agent, which exits with output still queued', async () => {
    // A terminal slower than the agent blocks rec in its writes; rec then reads nothing while the
    // agent writes on and exits. Stopping rec is that state made exact: the payload lies in the
    // agent's pty, the agent has exited, and only then does rec run again. (Pausing the outer
    // terminal instead makes the payload race the two ptys' buffers, whose room varies by run.)
    const ppidFile = join(sandbox.dir, 'rec-pid');
    const go = join(sandbox.dir, 'go');
    const done = join(sandbox.dir, 'agent-done');
    spawnSync('mkfifo', [go]);
    const script = [
      `const fs = require('fs');`,
      `fs.writeFileSync(${JSON.stringify(ppidFile)}, String(process.ppid));`,
      `fs.readFileSync(${JSON.stringify(go)});`,
      `process.stdout.write('y'.repeat(8 * 1024) + '<slow-tail>');`,
      `fs.writeFileSync(${JSON.stringify(done)}, String(process.pid));`,
    ].join(' ');
    const p = sandbox.spawnRec(['--', process.execPath, '-e', script], { screen: false });
    const recPid = await waitForPid(ppidFile);
    process.kill(recPid, 'SIGSTOP');
    try {
      await waitUntil(() => (processState(recPid) === 'T' ? true : undefined), { what: 'rec stopped', timeoutMs: 15_000 });
      await writeFile(go, ''); // opens the fifo for writing: the agent's read returns at its close
      const agentPid = await waitForPid(done);
      await waitUntil(() => (['Z', 'gone'].includes(processState(agentPid)) ? true : undefined), {
        what: 'the agent to exit',
        timeoutMs: 15_000,
      });
    } finally {
      process.kill(recPid, 'SIGCONT');
    }
    await p.expectExit();
    expect(p.output.match(/y/g)?.length ?? 0).toBe(8 * 1024);
    expect(p.output).toContain('<slow-tail>');
  });

  it('delivers Ctrl+C, Ctrl+Z, Ctrl+\\ and Esc to the agent as keys', async () => {
    const p = sandbox.spawnRec(['--', process.execPath, join(PROGRAMS, 'keyEcho.mjs')]);
    await p.expect('READY');
    p.sendKey('ctrl-c');
    await p.expect('<3>');
    p.sendKey('ctrl-z');
    await p.expect('<26>');
    p.sendKey('ctrl-backslash');
    await p.expect('<28>');
    p.sendKey('esc');
    await p.expect('<27>');
    p.send('q');
    expect(await p.expectExit()).toEqual({ exitCode: 0, signal: undefined });
  });

  it('delivers a 256 KB paste whole and in order, past the pty buffer', async () => {
    const size = 256 * 1024;
    const payload = Buffer.alloc(size);
    for (let i = 0; i < size; i++) payload[i] = 0x61 + (i % 26); // letters only: no control keys
    const p = sandbox.spawnRec(['--', process.execPath, join(PROGRAMS, 'inputHash.mjs'), String(size)], {
      screen: false,
      timeoutMs: 60_000,
    });
    await p.expect('READY');
    p.send(payload);
    await p.expect(`GOT ${size} ${createHash('sha256').update(payload).digest('hex')}`);
    await p.expectExit();
  });

  it('passes a window resize to the agent at once', async () => {
    const p = sandbox.spawnRec(['--', process.execPath, join(PROGRAMS, 'winsize.mjs')], { cols: 80, rows: 24 });
    await p.expect('SIZE 80x24');
    p.resize(132, 43);
    await p.expect('SIZE 132x43');
    p.kill('SIGTERM');
    await p.expectExit();
  });

  it('gives the agent the caller cwd, environment and TERM', async () => {
    const p = sandbox.spawnRec(['--', 'sh', '-c', 'echo "cwd=$(pwd) term=$TERM marker=$REC_TEST_MARKER"'], {
      env: { REC_TEST_MARKER: 'm-42' },
    });
    await p.expect(`cwd=${sandbox.dir} term=xterm-256color marker=m-42`);
    await p.expectExit();
  });

  // The launcher runs rec itself with one malloc arena and a 1 MB young generation (bin/rec.js);
  // those settings are rec's own: the agent gets the caller's value, set, empty or unset.
  it.each([
    ['unset', undefined, 'unset'],
    ['empty', '', '[]'],
    ['4', '4', '[4]'],
  ])("gives the agent the caller's MALLOC_ARENA_MAX (%s), while rec itself runs with 1", async (_name, callerValue, shown) => {
    const env: NodeJS.ProcessEnv = { MALLOC_ARENA_MAX: callerValue };
    const script =
      'echo "agent=${MALLOC_ARENA_MAX+[}${MALLOC_ARENA_MAX-unset}${MALLOC_ARENA_MAX+]} leak=${REC_CALLER_MALLOC_ARENA_MAX-none}";' +
      ' echo "rec=$(tr "\\0" "\\n" < /proc/$PPID/environ | grep "^MALLOC_ARENA_MAX=")";' +
      ' echo "flags=$(tr "\\0" " " < /proc/$PPID/cmdline | grep -o -- "--max-semi-space-size=1")"';
    const p = sandbox.spawnRec(['--', 'sh', '-c', script], { env });
    await p.expect(`agent=${shown} leak=none`);
    await p.expect('rec=MALLOC_ARENA_MAX=1');
    await p.expect('flags=--max-semi-space-size=1');
    await p.expectExit();
  });
});

describe('exit status', () => {
  it.each([0, 3])('exits with the agent exit code %i', async (code) => {
    const p = sandbox.spawnRec(['--', 'sh', '-c', `exit ${code}`]);
    expect((await p.expectExit()).exitCode).toBe(code);
  });

  it('exits with 128+signal when the agent dies by a signal', async () => {
    const p = sandbox.spawnRec(['--', 'sh', '-c', 'kill -TERM $$']);
    expect((await p.expectExit()).exitCode).toBe(128 + 15);
  });

  it('records the run with its exit code in the sidecar', async () => {
    const p = sandbox.spawnRec(['--', 'sh', '-c', 'exit 5']);
    await p.expectExit();
    const db = new Database(sandbox.dbPath, { readonly: true });
    const runs = db.prepare('select agent, exit_code, ended_at, argv from runs').all() as Array<Record<string, unknown>>;
    db.close();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ agent: 'other', exit_code: 5 });
    expect(runs[0]!.ended_at).toBeTruthy();
  });
});

describe('terminal mode', () => {
  it('is identical before and after a run', async () => {
    const sh = spawnShell(`stty -g; echo ===; ${process.execPath} ${REC_BIN} -- true; echo ===; stty -g`);
    await sh.expectExit();
    const states = sttyStates(sh.output);
    expect(states).toHaveLength(2);
    expect(states[1]).toBe(states[0]);
  });

  it('is identical before and after rec is sent SIGTERM', async () => {
    const sh = spawnShell(
      `stty -g; echo ===; ${process.execPath} ${REC_BIN} -- sh -c 'echo "recpid=$PPID"; exec sleep 100'; echo "rc=$?"; echo ===; stty -g`,
    );
    await sh.expect(/recpid=(\d+)/);
    process.kill(Number(sh.match![1]), 'SIGTERM');
    await sh.expect('rc=143');
    await sh.expectExit();
    const states = sttyStates(sh.output);
    expect(states).toHaveLength(2);
    expect(states[1]).toBe(states[0]);
  });
});

describe('debug log', () => {
  it('REC_DEBUG=1 writes the debug log to its file, never to the terminal', async () => {
    const log = join(sandbox.dir, 'debug.log');
    const p = sandbox.spawnRec(['--', 'sh', '-c', 'echo agent-output'], { env: { REC_DEBUG: '1', REC_DEBUG_LOG: log } });
    await p.expect('agent-output');
    await p.expectExit();
    expect(readFileSync(log, 'utf8')).toMatch(/run \w{8} agent started \d+ ms after rec's own start/);
    expect(p.output).not.toContain('agent started');
  });
});

describe('signals and crashes', () => {
  it('SIGHUP to rec ends the agent and then rec, with 128+1', async () => {
    const p = sandbox.spawnRec(['--', 'sh', '-c', 'echo "recpid=$PPID"; exec sleep 100']);
    await p.expect(/recpid=(\d+)/);
    process.kill(Number(p.match![1]), 'SIGHUP');
    expect((await p.expectExit()).exitCode).toBe(128 + 1);
  });

  it('restores the terminal mode when rec itself crashes', async () => {
    const sh = spawn(
      'sh',
      ['-c', `stty -g; echo ===; REC_FAULT_INJECT=crash ${REC_BIN} -- sleep 100; echo "rc=$?"; echo ===; stty -g`],
      { env: sandbox.env, cwd: sandbox.dir },
    );
    await sh.expect(/rc=(\d+)/);
    expect(sh.match![1]).not.toBe('0');
    expect(sh.output).toContain('injected crash fault');
    await sh.expectExit();
    const states = sttyStates(sh.output);
    expect(states).toHaveLength(2);
    expect(states[1]).toBe(states[0]);
    sh.dispose();
  });
});

describe('bad input and missing pieces', () => {
  it('runs the agent directly, without recording, when stdin is not a terminal', () => {
    const r = spawnSync(process.execPath, [REC_BIN, '--', 'cat'], { input: 'piped-text\n', env: sandbox.env, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('piped-text\n');
    expect(r.stderr).toMatch(/not a terminal.*nothing is recorded/);
  });

  it('names a missing agent binary and how to install it, exit 127', () => {
    const r = spawnSync(process.execPath, [REC_BIN, 'codex'], {
      env: { ...sandbox.env, PATH: '/nonexistent', REC_CODEX_BIN: '' },
      encoding: 'utf8',
    });
    expect(r.status).toBe(127);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/codex not found.*npm install -g @openai\/codex/);
  });

  it('rejects an unknown rec flag with a one-line error, exit 2', () => {
    const r = spawnSync(process.execPath, [REC_BIN, '--bogus', 'codex'], { env: sandbox.env, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe("rec: unknown option '--bogus' (rec --help lists what it takes)\n");
  });

  it('passes agent arguments that look like rec flags through untouched', async () => {
    const p = sandbox.spawnRec(['--agent-bin', '/bin/sh', 'codex', '-c', 'echo "ARGS=$*"', 'sh', '--db', 'x.db', '--help']);
    await p.expect('ARGS=--db x.db --help');
    await p.expectExit();
  });

  it('keeps the agent working when the database cannot be written, and says so once after it exits', async () => {
    // A regular file where the database's folder should be: nothing can be created there.
    writeFileSync(join(sandbox.dir, 'not-a-folder'), 'x');
    const db = join(sandbox.dir, 'not-a-folder', 'rec.db');
    const p = sandbox.spawnRec(['--db', db, '--', 'sh', '-c', 'echo agent-ran; exit 4']);
    await p.expect('agent-ran');
    expect((await p.expectExit()).exitCode).toBe(4);
    const notes = p.output.match(/rec: recording was incomplete/g) ?? [];
    expect(notes).toHaveLength(1);
    expect(p.output).toContain(`store: rec database ${db}`);
  });

  it('keeps the agent working when the database file is damaged, and leaves the file as it was', async () => {
    const db = join(sandbox.dir, 'damaged.db');
    const garbage = Buffer.alloc(8192, 0x5a);
    writeFileSync(db, garbage);
    const p = sandbox.spawnRec(['--db', db, '--', 'sh', '-c', 'echo agent-ran; exit 0']);
    await p.expect('agent-ran');
    expect((await p.expectExit()).exitCode).toBe(0);
    expect(p.output).toMatch(/rec: recording was incomplete.*store: rec database .*damaged\.db/);
    expect(readFileSync(db).equals(garbage)).toBe(true);
  });
});

function spawnShell(script: string): Spawned {
  // A plain shell in its own pty, running rec in the foreground the way a user would.
  return spawn('sh', ['-c', script], { env: sandbox.env, cwd: sandbox.dir });
}

/** The `stty -g` lines of the output: the state before and after. */
function sttyStates(output: string): string[] {
  return output
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => /^[0-9a-f]+(:[0-9a-f]+){10,}$/.test(l));
}

/** A process's state letter from /proc (T stopped, Z exited but not reaped), or 'gone'. */
function processState(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return 'gone';
  }
}

/** How often waitForPid looks again: files have no change event worth trusting across mounts. */
const FILE_POLL_MS = 20;

/**
 * Waits for a pid the child writes, whole: a file seen between its creation and its write reads as
 * '', and Number('') is 0, which process.kill takes for the whole process group (the test runner).
 */
async function waitForPid(path: string, timeoutMs = 15_000): Promise<number> {
  return waitUntil(
    () => {
      const pid = existsSync(path) ? Number(readFileSync(path, 'utf8')) : NaN;
      return Number.isInteger(pid) && pid > 1 ? pid : undefined;
    },
    { what: `a pid in ${path}`, timeoutMs, intervalMs: FILE_POLL_MS },
  );
}
