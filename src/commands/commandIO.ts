// What a command gets to talk to the world. Commands return an exit code; only cli.ts exits.
import type { Writable } from 'node:stream';

export interface CommandIO {
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

/** A usage error: one line, exit status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
