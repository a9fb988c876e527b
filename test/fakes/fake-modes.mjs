#!/usr/bin/env node
// @ts-check
// A fake full-screen agent for the terminal-restore tests: turns on the terminal modes named on
// its command line, says it is ready, then either dies by SIGKILL (nothing of its own clean-up
// runs, as when the user or the OOM killer kills an agent) or turns them off again and exits.
//   fake-modes [--die | --wait] MODE…     MODE: one of the names in MODES below, or `all`
// --wait: stay until a signal ends it (Node's default action: no clean-up runs either).
// Neither: turn the modes off again and exit 0. Before its modes it prints `agent-ppid=<ppid>`.
// Every byte is written with writeSync, so it is in the pty before the process dies.
import { writeSync } from 'node:fs';

/** Each mode as a real agent turns it on and off (Ink, crossterm and Claude Code write these). */
export const MODES = {
  alt: ['\x1b[?1049h', '\x1b[?1049l'],
  mouse: ['\x1b[?1000h\x1b[?1002h\x1b[?1003h\x1b[?1006h', '\x1b[?1006l\x1b[?1003l\x1b[?1002l\x1b[?1000l'],
  paste: ['\x1b[?2004h', '\x1b[?2004l'],
  focus: ['\x1b[?1004h', '\x1b[?1004l'],
  kitty: ['\x1b[>1u', '\x1b[<u'],
  cursor: ['\x1b[?25l', '\x1b[?25h'],
  keypad: ['\x1b=', '\x1b>'],
  cursorKeys: ['\x1b[?1h', '\x1b[?1l'],
};

export const READY = '<MODES-ON>';
export const DONE = '<MODES-OFF>';

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const die = args.includes('--die');
  const wait = args.includes('--wait');
  let names = args.filter((a) => !a.startsWith('--'));
  if (names.includes('all')) names = Object.keys(MODES);
  const unknown = names.filter((n) => !(n in MODES));
  if (unknown.length > 0) {
    process.stderr.write(`fake-modes: unknown mode ${unknown.join(', ')}\n`);
    process.exit(2);
  }
  writeSync(1, `agent-ppid=${process.ppid}\r\n` + names.map((n) => MODES[n][0]).join('') + READY);
  if (die) process.kill(process.pid, 'SIGKILL');
  if (wait) setInterval(() => undefined, 1 << 30);
  else {
    // In the reverse order, as a program unwinds what it set up.
    writeSync(1, names.reverse().map((n) => MODES[n][1]).join('') + DONE);
  }
}
