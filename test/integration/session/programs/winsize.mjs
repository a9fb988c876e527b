#!/usr/bin/env node
// @ts-check
// Prints its window size at start and on every SIGWINCH.
const print = () => process.stdout.write(`SIZE ${process.stdout.columns}x${process.stdout.rows}\r\n`);
process.stdout.on('resize', print);
print();
setInterval(() => {}, 1 << 30);
