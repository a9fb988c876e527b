#!/usr/bin/env node
// @ts-check
// pexpect's getch.py: raw mode, a ready marker, then the code of every byte it reads, until "q".
process.stdin.setRawMode(true);
process.stdout.write('READY\r\n');
process.stdin.on('data', (buf) => {
  for (const byte of buf) {
    process.stdout.write(`<${byte}>\r\n`);
    if (byte === 0x71) {
      process.stdin.setRawMode(false);
      process.exit(0);
    }
  }
});
