// The session-file follower with companion files (Claude's subagents/agent-*.jsonl): files that
// appear after following started are found by discover(), each line is handed out once with the
// file it came from, and a main file a hook names drops the companions of the one found by a scan;
// and a file deleted by its agent is still read whole through the descriptor held open.
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JsonlLine } from '../../../../src/agents/common/jsonlFollower.js';
import { HeldFiles } from '../../../../src/agents/common/heldFiles.js';
import { SessionFileFollower } from '../../../../src/agents/common/sessionFileFollower.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rec-follower-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Companions: the .jsonl files in `<main without .jsonl>/` (a stand-in for Claude's layout). */
function companionsOf(main: string): string[] {
  const sub = main.replace(/\.jsonl$/, '');
  try {
    return readdirSync(sub).filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(sub, f));
  } catch {
    return [];
  }
}

function follower(): { f: SessionFileFollower; seen: Array<Pick<JsonlLine, 'file' | 'lineNo' | 'text'>> } {
  const seen: Array<Pick<JsonlLine, 'file' | 'lineNo' | 'text'>> = [];
  const f = new SessionFileFollower((l) => seen.push({ file: l.file, lineNo: l.lineNo, text: l.text }), companionsOf);
  return { f, seen };
}

describe('SessionFileFollower with companion files', () => {
  it('follows a companion that appears after the main file, from its first line, each line once with its own file', () => {
    const main = join(dir, 's.jsonl');
    writeFileSync(main, '{"n":1}\n');
    const { f, seen } = follower();
    f.follow(main, false);
    f.discover();
    f.poll();
    expect(seen).toEqual([{ file: main, lineNo: 1, text: '{"n":1}' }]);

    mkdirSync(join(dir, 's'));
    const sub = join(dir, 's', 'agent-a.jsonl');
    writeFileSync(sub, '{"a":1}\n{"a":');
    // poll() reads only files already found: the new one waits for discover() (no listing on a key's path).
    f.poll();
    expect(seen).toHaveLength(1);
    appendFileSync(main, '{"n":2}\n');
    f.discover();
    f.poll();
    appendFileSync(sub, '2}\n');
    f.discover();
    f.poll();
    // The main file first on each poll (what started a subagent is read before what it did).
    expect(seen).toEqual([
      { file: main, lineNo: 1, text: '{"n":1}' },
      { file: main, lineNo: 2, text: '{"n":2}' },
      { file: sub, lineNo: 1, text: '{"a":1}' },
      { file: sub, lineNo: 2, text: '{"a":2}' },
    ]);
  });

  it('a main file a hook names replaces the scanned one and its companions', () => {
    const scanned = join(dir, 'old.jsonl');
    const named = join(dir, 'new.jsonl');
    writeFileSync(scanned, '');
    writeFileSync(named, '');
    mkdirSync(join(dir, 'old'));
    writeFileSync(join(dir, 'old', 'agent-x.jsonl'), '{"old":1}\n');
    const { f, seen } = follower();
    f.follow(scanned, false);
    f.follow(named, true);
    f.discover();
    appendFileSync(join(dir, 'old', 'agent-x.jsonl'), '{"old":2}\n');
    f.poll();
    expect(f.file).toBe(named);
    expect(seen).toEqual([]);
  });

  it('discover() before any main file is known does nothing', () => {
    const { f, seen } = follower();
    f.discover();
    f.poll();
    expect(seen).toEqual([]);
  });
});

describe('a file named before it exists (Claude --fork-session writes a new transcript that starts with a copy of the history)', () => {
  it('hands out the records stamped before the run, and the unstamped ones after them, as earlier; the run’s own from its first stamp on', async () => {
    const { isoTimestampOf, runStartOffset } = await import('../../../../src/agents/common/runPart.js');
    const file = join(dir, 'fork.jsonl');
    const since = new Date('2026-11-26T06:00:00.000Z');
    const from = runStartOffset(file, since, isoTimestampOf);
    expect(typeof from).toBe('object');
    const lines: Array<{ text: string; earlier: boolean }> = [];
    const f = new SessionFileFollower((l) => lines.push({ text: l.text, earlier: l.earlier === true }), () => []);
    f.follow(file, true, from);
    f.poll(); // not there yet
    const stamped = (t: string, n: number) => JSON.stringify({ n, timestamp: t });
    writeFileSync(file, [JSON.stringify({ n: 0, type: 'summary' }), stamped('2026-11-25T10:00:00.000Z', 1), JSON.stringify({ n: 2, type: 'cost-state' }), ''].join('\n'));
    f.poll();
    appendFileSync(file, [stamped('2026-11-26T06:00:01.000Z', 3), JSON.stringify({ n: 4, type: 'mode' }), ''].join('\n'));
    f.poll();
    expect(lines.map((l) => [JSON.parse(l.text).n, l.earlier])).toEqual([[0, false], [1, true], [2, true], [3, false], [4, false]]);
  });
});

describe('a file the agent deletes as it quits (Gemini, a session with nothing to resume)', () => {
  it('keeps reading the followed file through its open descriptor: what was appended just before the deletion still comes out', () => {
    const file = join(dir, 'chat.jsonl');
    writeFileSync(file, '{"n":1}\n');
    const { f, seen } = follower();
    f.follow(file, false);
    appendFileSync(file, '{"n":2}\n');
    unlinkSync(file);
    f.poll();
    expect(seen.map((l) => l.text)).toEqual(['{"n":1}', '{"n":2}']);
    f.close();
  });

  it('follows a file through a descriptor held from before it was deleted (heldFiles.ts), from its first line', () => {
    const file = join(dir, 'chat.jsonl');
    writeFileSync(file, '{"n":1}\n');
    const held = new HeldFiles();
    held.hold([file, join(dir, 'never-there.jsonl')]);
    expect([...held.entries()].map(([name]) => name)).toEqual([file]);
    appendFileSync(file, '{"n":2}\n');
    unlinkSync(file);
    const { f, seen } = follower();
    f.follow(file, false, 0, held.take(file));
    expect(held.take(file)).toBeUndefined();
    expect(seen.map((l) => l.text)).toEqual(['{"n":1}', '{"n":2}']);
    f.close();
    held.dispose();
  });

  it('a file replaced under its name is read on from the new one; after close() nothing more is read', () => {
    const file = join(dir, 'chat.jsonl');
    writeFileSync(file, '{"n":1}\n');
    const { f, seen } = follower();
    f.follow(file, false);
    writeFileSync(join(dir, 'next.jsonl'), '{"n":1}\n{"n":2}\n');
    renameSync(join(dir, 'next.jsonl'), file);
    f.poll();
    appendFileSync(file, '{"n":3}\n');
    f.close();
    f.poll();
    expect(seen.map((l) => l.text)).toEqual(['{"n":1}', '{"n":2}']);
  });
});
