// What a command gets to talk to the world. Commands return an exit code; only cli.ts exits.
import type { Writable } from 'node:stream';

export interface CommandIO {
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /**
   * The terminal behind stderr, when there is one: for drawing the progress bar, whose own
   * escape sequences must reach it as they are (`stderr` may escape control characters).
   */
  readonly terminal?: NodeJS.WritableStream;
}

/** A usage error: one line, exit status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * A reader that goes away early (`rec events --json | head -1`) makes stdout fail with EPIPE after
 * our write returned; without a listener Node would crash with a stack trace. The listener stays
 * for the life of the process, since the error arrives after the command returned.
 */
export function ignoreBrokenPipe(io: CommandIO): void {
  if (io.stdout.listeners('error').includes(onStdoutError)) return;
  io.stdout.on('error', onStdoutError);
}

function onStdoutError(err: NodeJS.ErrnoException): void {
  // EPIPE: the reader closed the pipe; there is no one left to tell. Anything else is a real problem.
  if (err.code === 'EPIPE') return;
  process.stderr.write(`rec: cannot write output: ${err.message}\n`);
}
