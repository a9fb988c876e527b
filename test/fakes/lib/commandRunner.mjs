// @ts-check
// Runs an approved command the way the agents do (bash -c in the cwd, own process group), with its
// output and exit status going to files: the background finisher of "Run in background" can then
// pick up a command the exited TUI left running.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How often the background finisher checks whether a detached command has finished. */
export const STATUS_POLL_MS = 100;

/** Commands still running that the fake did not hand to the background: stopped when it exits. */
const running = new Set();
/** Commands handed to the background finisher, which still needs their files after this exits. */
let detached = 0;
process.on('exit', () => {
  for (const pid of running) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // ESRCH: that command finished meanwhile.
    }
  }
  if (workDir && detached === 0) rmSync(workDir, { recursive: true, force: true });
});

let workDir;
function scratch() {
  workDir ??= mkdtempSync(join(tmpdir(), 'fake-agent-'));
  return workDir;
}

/**
 * Starts `cmd`. Returns { pid, outputFile, statusFile, done: Promise<{exitCode, output}>, kill() }.
 * `done` never rejects; a killed command resolves with its signal's status.
 */
export function runCommand(cmd, cwd) {
  const dir = scratch();
  const id = `${Date.now()}-${Math.random().toString(16).slice(2, 8)}`;
  const outputFile = join(dir, `${id}.out`);
  const statusFile = join(dir, `${id}.status`);
  const fd = openSync(outputFile, 'w');
  // The status is written by the shell itself so that it survives this process exiting.
  const script = `${cmd}\n__fake_status=$?\necho $__fake_status > '${statusFile}'\nexit $__fake_status`;
  const child = spawn('/bin/bash', ['-c', script], { cwd, stdio: ['ignore', fd, fd], detached: true });
  closeSync(fd);
  running.add(child.pid);
  let killed = false;
  const done = new Promise((resolve) => {
    child.on('error', (err) => resolve({ exitCode: 127, output: String(err.message) + '\n' }));
    child.on('exit', (code, signal) => {
      running.delete(child.pid);
      const output = readFileSync(outputFile, 'utf8');
      resolve({ exitCode: code ?? 128 + (signal === 'SIGKILL' ? 9 : 15), output, killed });
    });
  });
  return {
    pid: child.pid,
    outputFile,
    statusFile,
    done,
    kill() {
      killed = true;
      try {
        process.kill(-(/** @type {number} */ (child.pid)), 'SIGKILL'); // spawned detached: its pid is its group's
      } catch {
        // ESRCH: the command already finished.
      }
    },
    /** Leaves the command running when this process exits (Run in background). */
    detach() {
      running.delete(child.pid);
      detached += 1;
      child.unref();
    },
  };
}

/** For the background finisher: waits until a detached command wrote its status, then reads it. */
export async function waitForStatusFile(statusFile, outputFile) {
  while (!existsSync(statusFile) || readFileSync(statusFile, 'utf8').trim() === '') {
    await new Promise((r) => setTimeout(r, STATUS_POLL_MS));
  }
  return { exitCode: Number(readFileSync(statusFile, 'utf8').trim()), output: readFileSync(outputFile, 'utf8') };
}
