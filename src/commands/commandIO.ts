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
