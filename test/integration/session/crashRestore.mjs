// @ts-check
// Child program for the crash test of the terminal restore: feeds the given output through the
// compiled guard (dist/) as run.ts does, writes it, then dies of an uncaught exception before
// restore() could run. Only the guard's exit hook can put the modes back then.
//   crashRestore.mjs OUTPUT
import { writeSync } from 'node:fs';

// dist/ is src/ compiled, without .d.ts files: the module is typed from its source.
const { guardTerminalModes } = /** @type {typeof import('../../../src/session/terminalRestore.ts')} */ (
  await import(new URL('../../../dist/session/terminalRestore.js', import.meta.url).href)
);

const output = Buffer.from(process.argv[2] ?? '', 'latin1');
const guard = guardTerminalModes(process.stdout);
writeSync(1, output);
guard.scan(output);
setImmediate(() => {
  throw new Error('a bug in rec');
});
