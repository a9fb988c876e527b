#!/bin/sh
':' //; case "$1" in merge|stats|rules|report|export) exec node "$0" "$@";; esac
':' //; REC_CALLER_MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX+=$MALLOC_ARENA_MAX}
':' //; MALLOC_ARENA_MAX=1 REC_CALLER_MALLOC_ARENA_MAX=${REC_CALLER_MALLOC_ARENA_MAX:-unset} exec node --max-semi-space-size=1 --v8-pool-size=2 "$0" "$@"
// The lines above are shell and JavaScript at once (to JavaScript, each is a string and a
// comment): /bin/sh runs them and starts Node on this file with the flags each command wants, in
// the same process (exec), so no command pays for a second Node start.
// The compiled CLI lives in dist/ (built by `npm ci` through the prepare script).
// This file cannot start with // @ts-check: TypeScript reads the pragma only before the first
// statement, and any line there that JavaScript skips is a command /bin/sh would start (a fork on
// every run). tsconfig.js.json (checkJs) type-checks it all the same.
//
// Agent runs (the passthrough):
// - one glibc malloc arena (MALLOC_ARENA_MAX=1): each thread (V8's helpers, libuv's pool) would
//   otherwise get an arena of its own, which costs peak RSS and buys no measurable speed
//   (docs/benchmarks.md). glibc reads the variable once, at start, so it is put back below: the
//   agent and everything else rec starts get the caller's environment, set or unset.
// - a 1 MB young generation: the relay allocates a buffer per pty read, and with V8's default (up
//   to 16 MB per semi-space) dead buffers wait long enough to add much to rec's peak RSS.
// - two V8 background threads instead of Node's default four: this is a relay with one busy
//   thread, and each idle thread's malloc arena costs RSS.
// The batch commands (merge, stats, rules, report, export) want the opposite: a large young generation makes their
// parsing much cheaper (docs/merge.md), so they get Node's defaults.
// The lines above pass the caller's value as "=VALUE" (set, maybe empty) or "unset".
const callerArena = process.env.REC_CALLER_MALLOC_ARENA_MAX;
if (callerArena !== undefined) {
  delete process.env.REC_CALLER_MALLOC_ARENA_MAX;
  if (callerArena.startsWith('=')) process.env.MALLOC_ARENA_MAX = callerArena.slice(1);
  else delete process.env.MALLOC_ARENA_MAX;
}

await import(new URL('../dist/cli.js', import.meta.url).href);
