// The hard-linked copy the doctor hands one agent home's install to the next with, on real files.
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keepDaemonPackage, seedDaemonPackage } from '../../../src/agents/codex/bench/daemonPackage.js';
import { linkTree } from '../../../src/lab/linkTree.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rec-linktree-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A daemon install as Codex lays it out: a large binary, small state files, `current` pointing at the release by absolute path. */
function install(codexHome: string): string {
  const pkg = join(codexHome, 'packages', 'app-server-daemon');
  const release = join(pkg, 'releases', '0.171.0');
  mkdirSync(join(release, 'bin'), { recursive: true });
  writeFileSync(join(release, 'bin', 'codex'), Buffer.alloc(2 << 20, 7));
  symlinkSync('bin/codex', join(release, 'codex'));
  writeFileSync(join(pkg, 'auto-update-version'), '0.171.0');
  symlinkSync(release, join(pkg, 'current'));
  return pkg;
}

describe('linkTree', () => {
  it('links large files, copies small ones, keeps relative links and points an absolute one into the copy', () => {
    const src = install(join(dir, 'a'));
    const dst = join(dir, 'b');
    linkTree(src, dst);
    const big = (root: string) => statSync(join(root, 'releases', '0.171.0', 'bin', 'codex'));
    expect(big(dst).ino).toBe(big(src).ino);
    expect(statSync(join(dst, 'auto-update-version')).ino).not.toBe(statSync(join(src, 'auto-update-version')).ino);
    expect(readFileSync(join(dst, 'auto-update-version'), 'utf8')).toBe('0.171.0');
    expect(readlinkSync(join(dst, 'releases', '0.171.0', 'codex'))).toBe('bin/codex');
    expect(readlinkSync(join(dst, 'current'))).toBe(join(dst, 'releases', '0.171.0'));
  });
});

describe("Codex's daemon install, kept once and handed on", () => {
  it("the first home's install is kept; the next home gets it with its own current; nothing is kept twice", () => {
    const cache = join(dir, 'cache');
    const first = join(dir, 'first');
    seedDaemonPackage(cache, first); // nothing kept yet: nothing given
    expect(existsSync(join(first, 'packages'))).toBe(false);
    install(first);
    keepDaemonPackage(cache, first);
    rmSync(first, { recursive: true });
    const next = join(dir, 'next');
    seedDaemonPackage(cache, next);
    const pkg = join(next, 'packages', 'app-server-daemon');
    expect(readlinkSync(join(pkg, 'current'))).toBe(join(pkg, 'releases', '0.171.0'));
    expect(lstatSync(join(pkg, 'current', 'bin', 'codex')).size).toBe(2 << 20);
    keepDaemonPackage(cache, next);
    expect(readlinkSync(join(cache, 'packages', 'app-server-daemon', 'current'))).toBe(join(cache, 'packages', 'app-server-daemon', 'releases', '0.171.0'));
  });
});
