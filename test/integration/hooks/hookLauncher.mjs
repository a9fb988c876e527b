#!/usr/bin/env node
// @ts-check
// Runs the compiled `rec hook` command the way cli.ts will (build first: npx tsc -p tsconfig.json).
// Used by the hook tests and scripts/bench-hooks.mjs: `hookLauncher.mjs [hook] <agent> <event>`.
const args = process.argv.slice(2);
if (args[0] === 'hook') args.shift();
// dist/ is src/ compiled, without .d.ts files: the module is typed from its source.
const { hookCommand } = /** @type {typeof import('../../../src/commands/hook.ts')} */ (
  await import(new URL('../../../dist/commands/hook.js', import.meta.url).href)
);
process.exitCode = await hookCommand(args, {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
});
