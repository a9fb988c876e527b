#!/usr/bin/env node
// @ts-check
// A user's own Codex hook, for the e2e suite and the fixture recorder: it answers the way its
// arguments say, as a hook a user or another wrapper installs would (docs/codex-auto-review.md §6).
//
//   userHook.mjs deny [MESSAGE]    PermissionRequest: {"behavior":"deny","message":MESSAGE} (none without MESSAGE)
//   userHook.mjs allow             PermissionRequest: {"behavior":"allow"}
//   userHook.mjs block REASON      PreToolUse: {"permissionDecision":"deny","permissionDecisionReason":REASON}
//   userHook.mjs exit2 [STDERR]    exit code 2 with STDERR, Codex's other way to refuse
//   userHook.mjs silent            nothing on stdout: no decision (as rec's own hook)
//
// `--log FILE` first appends each payload to FILE as a JSON line.
import { appendFileSync } from 'node:fs';

const argv = process.argv.slice(2);
const log = argv[0] === '--log' ? argv[1] : undefined;
const [answer = 'silent', message] = log === undefined ? argv : argv.slice(2);

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', () => {
  if (log) appendFileSync(log, `${input.trim()}\n`);
  if (answer === 'exit2') {
    process.stderr.write(message ?? '');
    process.exit(2);
  }
  const out = {
    deny: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', ...(message ? { message } : {}) } },
    allow: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    block: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: message ?? '' },
  }[answer];
  if (out) process.stdout.write(JSON.stringify({ hookSpecificOutput: out }));
  process.exit(0);
});
