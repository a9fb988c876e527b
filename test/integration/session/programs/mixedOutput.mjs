#!/usr/bin/env node
// @ts-check
// Writes N bytes of deterministic agent-like output: text, UTF-8, SGR colours, cursor moves and
// line feeds done with escape sequences (no bare "\n", so no pty's ONLCR can change the bytes).
// Usage: mixedOutput.mjs <bytes> [seed]
import { writeSync } from 'node:fs';

export function* mixedOutputBlocks(total, seed = 1) {
  let state = seed >>> 0 || 1;
  const rand = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  const words = ['exec_command', 'apply_patch', 'Would', 'you', 'like', 'to', 'run', 'ünïcödé', '→', '✔', '█▓▒░', 'const', 'x', '=', '42;'];
  let written = 0;
  while (written < total) {
    const parts = [];
    let size = 0;
    while (size < 64 * 1024) {
      const r = rand();
      let piece;
      if (r < 0.6) piece = words[Math.floor(rand() * words.length)] + ' ';
      else if (r < 0.75) piece = `\x1b[${30 + Math.floor(rand() * 8)}m`;
      else if (r < 0.8) piece = `\x1b[38;5;${Math.floor(rand() * 256)}m`;
      else if (r < 0.85) piece = '\x1b[0m';
      else if (r < 0.9) piece = '\r\x1b[1B';
      else if (r < 0.95) piece = `\x1b[${1 + Math.floor(rand() * 30)};${1 + Math.floor(rand() * 80)}H`;
      else piece = '\x1b[2K';
      parts.push(piece);
      size += Buffer.byteLength(piece);
    }
    let block = Buffer.from(parts.join(''));
    if (written + block.length > total) block = block.subarray(0, total - written);
    // Never cut a UTF-8 sequence or an escape sequence in half at the very end.
    written += block.length;
    yield block;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const total = Number(process.argv[2] ?? 1024 * 1024);
  const seed = Number(process.argv[3] ?? 1);
  for (const block of mixedOutputBlocks(total, seed)) {
    let off = 0;
    while (off < block.length) {
      try {
        off += writeSync(1, block, off);
      } catch (err) {
        // EAGAIN: the pty is full and stdout is non-blocking; try again.
        if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'EAGAIN') throw err;
      }
    }
  }
  writeSync(1, '\x1b[0m<<END-OF-OUTPUT>>');
}
