#!/usr/bin/env -S MALLOC_ARENA_MAX=1 REC_CALLER_MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX} node --max-semi-space-size=1 --v8-pool-size=2
// Thin launcher: the compiled CLI lives in dist/ (built by `npm ci` through the prepare script).
//
// rec's own process uses one glibc malloc arena (MALLOC_ARENA_MAX=1 in the shebang): each thread
// (V8's helpers, libuv's pool) would otherwise get an arena of its own, which cost 3-4 MB of peak
// RSS on a 100 MB passthrough and no measurable speed. glibc reads the variable once, at start, so
// it is put back below: the agent and everything else rec starts get the caller's environment.
//
// Agent runs get a 1 MB young generation (the shebang's flag): the relay allocates a buffer per pty
// read, and with V8's default (up to 16 MB per semi-space) dead buffers wait long enough to add
// tens of MB to rec's peak RSS. Two V8 background threads instead of Node's default four: this is
// a relay with one busy thread, and each idle thread's malloc arena costs ~2 MB of RSS.
// The batch commands want the opposite — a large young generation
// makes their parsing ~40% cheaper — so they run in a Node without the flag (a second start-up,
// negligible next to reading a corpus).
if ('REC_CALLER_MALLOC_ARENA_MAX' in process.env) {
  const caller = process.env.REC_CALLER_MALLOC_ARENA_MAX;
  delete process.env.REC_CALLER_MALLOC_ARENA_MAX;
  // env -S cannot tell an unset variable from an empty one; an empty value means nothing to glibc.
  if (caller) process.env.MALLOC_ARENA_MAX = caller;
  else delete process.env.MALLOC_ARENA_MAX;
}

const BATCH_COMMANDS = new Set(['merge', 'stats']);
const cli = new URL('../dist/cli.js', import.meta.url);

if (BATCH_COMMANDS.has(process.argv[2]) && process.execArgv.includes('--max-semi-space-size=1')) {
  const { spawnSync } = await import('node:child_process');
  const { fileURLToPath } = await import('node:url');
  const result = spawnSync(process.execPath, [fileURLToPath(cli), ...process.argv.slice(2)], { stdio: 'inherit' });
  if (result.signal) process.kill(process.pid, result.signal);
  process.exit(result.status ?? 1);
} else {
  await import(cli.href);
}
