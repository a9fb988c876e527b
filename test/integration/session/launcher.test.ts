// The launcher (bin/rec.js, shell and JavaScript at once) starts Node with the flags each command
// wants, in one process: agent runs get the passthrough's 1 MB young generation (checked in
// passthrough.test.ts), merge and stats get Node's defaults and no second Node start.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRecSandbox, REC_BIN, type RecSandbox } from '../../support/rec.js';
import { waitUntil } from '../../../src/lab/pollUntil.js';

/** How long the launched process may take to reach its blocking read (a loaded CI machine). */
const START_TIMEOUT_MS = 20_000;

let sandbox: RecSandbox | undefined;
/** The launched process group, stopped after each test: a failed one may still wait on its FIFO. */
let group: number | undefined;
afterEach(() => {
  if (group !== undefined) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // ESRCH: it exited, as it should.
    }
  }
  group = undefined;
  sandbox?.dispose();
});

/** The process's argv, once it has exec'd into Node (before that it is /bin/sh). */
async function nodeCmdline(pid: number): Promise<string[]> {
  let argv: string[] = [];
  const probe = () => {
    argv = existsSync(`/proc/${pid}/cmdline`) ? readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0') : [];
    return argv[0]?.endsWith('node') ? argv : undefined;
  };
  return waitUntil(probe, { what: `pid ${pid} to become node`, timeoutMs: START_TIMEOUT_MS, last: () => JSON.stringify(argv) });
}

describe('launcher', () => {
  it.each(['merge', 'stats'])('runs `rec %s` in one Node process with Node’s default young generation', async (command) => {
    sandbox = createRecSandbox();
    // A FIFO holds the command in its first read, so its process can be looked at while it runs.
    const fifo = join(sandbox.dir, 'session.jsonl');
    execFileSync('mkfifo', [fifo]);
    const child = spawn(REC_BIN, [command, fifo, '--no-progress'], {
      env: sandbox.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    group = child.pid;
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    let exitCode: number | null | undefined;
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve((exitCode = code))));

    const argv = await nodeCmdline(child.pid!);
    expect(argv).toContain(REC_BIN);
    expect(argv).toContain(command);
    expect(argv.some((a) => a.startsWith('--max-semi-space-size'))).toBe(false);
    // No second Node: the process that reads the session is the one that was launched.
    expect(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim()).toBe('');

    // Never a blocking open: if rec is gone (it never opened the FIFO for reading), a blocking open
    // would hang this worker for good. Non-blocking, it fails with ENXIO until rec reads.
    const fd = await waitUntil(
      () => {
        if (exitCode !== undefined) throw new Error(`rec ${command} exited (${exitCode}) before it read the FIFO; stderr: ${stderr}`);
        try {
          return openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENXIO') return undefined;
          throw err;
        }
      },
      { what: `rec ${command} to open the FIFO for reading`, timeoutMs: START_TIMEOUT_MS },
    );
    writeSync(fd, '{"type":"user","uuid":"u1","parentUuid":null,"isSidechain":false,"sessionId":"s1","message":{"role":"user","content":"hi"},"timestamp":"2026-01-01T00:00:00Z"}\n');
    closeSync(fd);
    expect(await exited).toBe(0);
    // Its run-time V8 tuning (src/merge/batchV8Tuning.ts) is one this V8 knows: nothing on stderr.
    expect(stderr).toBe('');
    expect(stdout).toMatch(command === 'merge' ? /"agent": ?"claude"/ : /^1 session \(claude 1\), /);
  });
});
