// @ts-check
// The passthrough's input: agent-like output from the test suite's deterministic generator
// (test/integration/session/programs/mixedOutput.mjs), written once to a file and replayed with
// `cat`, so that what is measured is the passthrough and not the generator (which needs a core of
// its own at these rates and would cap all three variants alike).
import { closeSync, existsSync, openSync, renameSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, dataDir } from './commands.mjs';

/** The end-of-output marker, the same one the generator prints. */
export const END_MARKER = '<<END-OF-OUTPUT>>';
const TRAILER = Buffer.from(`\x1b[0m${END_MARKER}`);

/** Path of a file of `bytes` bytes of mixed output (plus the trailer), generated if not there yet. */
export async function mixedFile(bytes, seed) {
  const path = join(dataDir(), `mixed-${bytes}-${seed}.out`);
  if (existsSync(path) && statSync(path).size === bytes + TRAILER.length) return path;
  const { mixedOutputBlocks } = await import(join(ROOT, 'test/integration/session/programs/mixedOutput.mjs'));
  const partial = `${path}.${process.pid}.part`;
  const fd = openSync(partial, 'w', 0o600);
  try {
    for (const block of mixedOutputBlocks(bytes, seed)) writeSync(fd, block);
    writeSync(fd, TRAILER);
  } finally {
    closeSync(fd);
  }
  renameSync(partial, path);
  return path;
}
