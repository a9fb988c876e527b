// Child program for the crash test of the terminal restore: feeds the given output through the
// compiled guard (dist/) as run.ts does, writes it, then dies of an uncaught exception before
// restore() could run. Only the guard's exit hook can put the modes back then.
//   crashRestore.mjs OUTPUT
import { writeSync } from 'node:fs';
import { guardTerminalModes } from '../../../dist/session/terminalRestore.js';

const output = Buffer.from(process.argv[2] ?? '', 'latin1');
const guard = guardTerminalModes(process.stdout);
writeSync(1, output);
guard.scan(output);
setImmediate(() => {
  throw new Error('a bug in rec');
});
