#!/usr/bin/env node
// Runs the compiled `rec hook` command the way cli.ts will (build first: npx tsc -p tsconfig.json).
// Used by the hook tests and scripts/bench-hooks.mjs: `hookLauncher.mjs [hook] <agent> <event>`.
const args = process.argv.slice(2);
if (args[0] === 'hook') args.shift();
const { hookCommand } = await import('../../../dist/commands/hook.js');
process.exitCode = await hookCommand(args, {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
});
