// stdin is not a terminal (a pipe, a file, CI): there are no keys to watch and no screen to model,
// so the agent runs directly, with the caller's stdio, and nothing is recorded.
import { spawn } from 'node:child_process';
import { signalNumber, toExitStatus } from '../session/exitStatus.js';
import type { CommandIO } from './commandIO.js';

const FORWARDED_SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGINT', 'SIGQUIT'];

export function runDirect(file: string, args: readonly string[], io: CommandIO): Promise<number> {
  io.stderr.write('rec: stdin is not a terminal; running the agent directly, nothing is recorded\n');
  return new Promise((resolve) => {
    const child = spawn(file, [...args], { stdio: 'inherit', env: io.env, cwd: io.cwd });
    const forward = (sig: NodeJS.Signals) => () => child.kill(sig);
    const handlers = FORWARDED_SIGNALS.map((sig) => [sig, forward(sig)] as const);
    for (const [sig, h] of handlers) process.on(sig, h);
    const done = (code: number) => {
      for (const [sig, h] of handlers) process.off(sig, h);
      resolve(code);
    };
    child.on('error', (err) => {
      io.stderr.write(`rec: cannot start ${file}: ${err.message}\n`);
      done(126);
    });
    child.on('exit', (code, signal) =>
      done(toExitStatus({ exitCode: code ?? 0, signal: signal ? signalNumber(signal) : undefined })),
    );
  });
}
