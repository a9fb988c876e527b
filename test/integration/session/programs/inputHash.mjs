#!/usr/bin/env node
// @ts-check
// Reads exactly N bytes of input in raw mode and prints their count and sha256 (a paste must arrive
// whole and in order, however the relay had to split its writes).
import { createHash } from 'node:crypto';
const want = Number(process.argv[2]);
const hash = createHash('sha256');
let got = 0;
process.stdin.setRawMode(true);
process.stdout.write('READY\r\n');
process.stdin.on('data', (buf) => {
  const take = buf.subarray(0, want - got);
  hash.update(take);
  got += take.length;
  if (got >= want) {
    process.stdout.write(`GOT ${got} ${hash.digest('hex')}\r\n`);
    process.stdin.setRawMode(false);
    process.exit(0);
  }
});
