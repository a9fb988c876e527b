// A CommandIO whose output is captured, for running `rec runs` / `rec events` in-process.
import { PassThrough } from 'node:stream';
import type { CommandIO } from '../../src/commands/commandIO.js';

export interface CapturedIO extends CommandIO {
  out(): string;
  err(): string;
}

export function captureIO(env: NodeJS.ProcessEnv = {}, cwd = '/'): CapturedIO {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  return { stdout, stderr, env, cwd, out: () => out, err: () => err };
}
