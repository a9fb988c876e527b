// @ts-check
// Sections owned by other scripts (scripts/bench-hooks.mjs, scripts/bench-hook-client.mjs,
// scripts/bench-merge.mjs, scripts/bench-export.mjs): run them as they are, show their output, and
// keep it in the JSON results.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './commands.mjs';

export const EXTERNAL_SECTIONS = {
  hooks: 'scripts/bench-hooks.mjs',
  'hook-client': 'scripts/bench-hook-client.mjs',
  merge: 'scripts/bench-merge.mjs',
  export: 'scripts/bench-export.mjs',
};

/** Runs one external bench script; resolves with its exit code and output, or `skipped` if absent. */
export function benchExternal(name) {
  const rel = EXTERNAL_SECTIONS[name];
  const path = join(ROOT, rel);
  if (!existsSync(path)) {
    console.log(`\n(${name}) ${rel} does not exist yet: skipped`);
    return Promise.resolve({ script: rel, skipped: true });
  }
  console.log(`\n(${name}) node ${rel}`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (d) => {
      out.push(d);
      process.stdout.write(d);
    });
    child.stderr.on('data', (d) => process.stderr.write(d));
    child.on('error', (err) => resolve({ script: rel, exitCode: null, error: err.message }));
    child.on('exit', (code, signal) => resolve({ script: rel, exitCode: code, signal: signal ?? undefined, output: Buffer.concat(out).toString('utf8') }));
  });
}
