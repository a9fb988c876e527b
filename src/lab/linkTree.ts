// A copy of a folder made of hard links: instant and free of disk space, where a real copy of a large
// tree (Codex's 424 MB daemon package) costs seconds of a loaded disk. Used to hand one isolated
// agent home's installed files to the next; nothing in them is the user's.
import { copyFileSync, linkSync, lstatSync, mkdirSync, readdirSync, readlinkSync, symlinkSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

/** Files below this size are copied, not linked: an agent rewriting one in place changes only its own. */
const LINK_FROM_BYTES = 1 << 20;

/**
 * Recreates `src` at `dst`: large files hard-linked (copied when the two are on different file
 * systems), small ones copied, symbolic links kept, an absolute one into `src` pointed into `dst`.
 */
export function linkTree(src: string, dst: string): void {
  mkdirSync(dst, { recursive: true, mode: lstatSync(src).mode & 0o777 });
  for (const entry of readdirSync(src, { withFileTypes: true })) {
    const from = join(src, entry.name);
    const to = join(dst, entry.name);
    if (entry.isDirectory()) linkTree(from, to);
    else if (entry.isSymbolicLink()) {
      const target = readlinkSync(from);
      symlinkSync(isAbsolute(target) && target.startsWith(src + '/') ? dst + target.slice(src.length) : target, to);
    } else if (entry.isFile()) linkFile(from, to);
  }
}

function linkFile(from: string, to: string): void {
  if (lstatSync(from).size < LINK_FROM_BYTES) {
    copyFileSync(from, to);
    return;
  }
  try {
    linkSync(from, to);
  } catch {
    // Another file system (EXDEV) or one without hard links: a copy is slower, never wrong.
    copyFileSync(from, to);
  }
}
