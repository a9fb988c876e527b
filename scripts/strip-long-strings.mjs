#!/usr/bin/env node
// @ts-check
// Copies a corpus of session files with every JSON string of 256 characters or more replaced by
// "x": the same records, lines and structure, without the long texts and outputs. Merging this
// copy shows what `rec merge` costs when long strings cost nothing (docs/merge.md, "Current
// figures"): the bound on what any cheaper handling of long strings could win.
//
//   node scripts/gen-corpus.mjs /tmp/corpus && node scripts/strip-long-strings.mjs /tmp/corpus /tmp/corpus-short
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const LONG = 256;
const [src, dst] = process.argv.slice(2);
if (!src || !dst) {
  console.error('usage: node scripts/strip-long-strings.mjs SRC_DIR DST_DIR');
  process.exit(2);
}

const strip = (v) => {
  if (typeof v === 'string') return v.length >= LONG ? 'x' : v;
  if (Array.isArray(v)) return v.map(strip);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, strip(x)]));
  return v;
};
// A line that is not JSON is copied as it is.
const stripLine = (line) => {
  try {
    return line === '' ? line : JSON.stringify(strip(JSON.parse(line)));
  } catch {
    return line;
  }
};

let before = 0;
let after = 0;
const walk = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) walk(path);
    else if (e.isFile()) {
      const text = readFileSync(path, 'utf8');
      const out = text.split('\n').map(stripLine).join('\n');
      before += Buffer.byteLength(text);
      after += Buffer.byteLength(out);
      const to = join(dst, relative(src, path));
      mkdirSync(dirname(to), { recursive: true });
      writeFileSync(to, out);
    }
  }
};
walk(src);
console.log(`${(before / 1e6).toFixed(0)} MB → ${(after / 1e6).toFixed(0)} MB under ${dst}`);
