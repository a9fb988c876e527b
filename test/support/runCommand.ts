// Runs a command function with captured stdout/stderr, as cli.ts would.
import { PassThrough } from 'node:stream';
import type { CommandIO } from '../../src/commands/commandIO.js';

export interface CommandRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCommand(
  fn: (args: string[], io: CommandIO) => Promise<number>,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  cwd: string = process.cwd(),
): Promise<CommandRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  // HOME points nowhere by default so discovery never reads the real user's sessions.
  const code = await fn(args, { stdout, stderr, env: { HOME: '/nonexistent-home', ...env }, cwd });
  return { code, stdout: out, stderr: err };
}
