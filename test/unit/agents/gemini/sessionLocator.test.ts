// Which chat file is this run's when rec scans for it, on real files in a temp Gemini home: two
// sessions in one folder given the same words, where our own file trails the screen (a loaded
// machine) and only the twin's holds them yet. Whether another Gemini works beside the run is the
// chooser's probe (agentsBeside.ts, proven on real processes in its own test), answered here.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionWitness } from '../../../../src/agents/common/agentProfile.js';
import type { GeminiPrompt } from '../../../../src/agents/gemini/screenParser.js';
import { isGeminiProcess, SessionChooser } from '../../../../src/agents/gemini/sessionLocator.js';
import { geminiStringsFor } from '../../../../src/agents/gemini/strings/index.js';

const CWD = '/work/project';
const WORDS = 'please run the marker command for me';
const STRINGS = geminiStringsFor('0.61.0');

let base: string | undefined;
const choosers: SessionChooser[] = [];
afterEach(() => {
  for (const c of choosers.splice(0)) c.dispose();
  if (base) rmSync(base, { recursive: true, force: true });
  base = undefined;
});

const metadata = (sessionId: string) => JSON.stringify({ sessionId, projectHash: 'h', startTime: new Date().toISOString(), lastUpdated: new Date().toISOString(), kind: 'main' });
const userLine = (text: string) => JSON.stringify({ id: `u-${text.length}-${Math.random()}`, timestamp: new Date().toISOString(), type: 'user', content: [{ text }] });

/** A Gemini home with this cwd's chats folder; `write(name, lines)` puts a chat file in it. */
function world() {
  base = mkdtempSync(join(tmpdir(), 'rec-gmlocator-'));
  const gemini = join(base, '.gemini');
  const chats = join(gemini, 'tmp', 'project', 'chats');
  mkdirSync(chats, { recursive: true });
  writeFileSync(join(gemini, 'projects.json'), JSON.stringify({ projects: { [CWD]: 'project' } }));
  const env = { HOME: base, GEMINI_CLI_HOME: '' };
  const write = (name: string, lines: readonly string[]) => {
    const file = join(chats, `session-2026-11-29T06-00-${name}.jsonl`);
    writeFileSync(file, lines.map((l) => l + '\n').join(''));
    return file;
  };
  const chooser = (beside: boolean | undefined) => {
    const c = new SessionChooser(env, CWD, new Date(Date.now() - 1_000), () => beside);
    choosers.push(c);
    return c;
  };
  return { write, chooser };
}

const witness = (extra: Partial<SessionWitness<GeminiPrompt>> = {}): SessionWitness<GeminiPrompt> => ({ userMessages: [WORDS], shownEver: [WORDS], ...extra });
const filesOf = (choice: ReturnType<SessionChooser['choose']>) => (choice.type === 'fits' ? choice.files.map((f) => f.file).sort() : choice.type);

describe("Gemini's chat file, found by scanning, beside a twin given the same words", () => {
  it('our own file not written yet and another Gemini works here: the twin is no lone fit, the two tie', () => {
    const w = world();
    const twins = w.write('aaaaaaaa', [metadata('aaaaaaaa-1'), userLine(WORDS)]);
    const ours = w.write('bbbbbbbb', [metadata('bbbbbbbb-1')]);
    expect(filesOf(w.chooser(true).choose(witness(), STRINGS))).toEqual([twins, ours].sort());
  });

  it('where rec cannot tell whether another Gemini works here, it is taken as one', () => {
    const w = world();
    const twins = w.write('aaaaaaaa', [metadata('aaaaaaaa-1'), userLine(WORDS)]);
    const ours = w.write('bbbbbbbb', [metadata('bbbbbbbb-1')]);
    expect(filesOf(w.chooser(undefined).choose(witness(), STRINGS))).toEqual([twins, ours].sort());
  });

  it('no other Gemini works here: the file holding the words is the lone fit (a resumed run leaves an empty file of its own)', () => {
    const w = world();
    const resumed = w.write('aaaaaaaa', [metadata('aaaaaaaa-1'), userLine(WORDS)]);
    w.write('bbbbbbbb', [metadata('bbbbbbbb-1')]);
    expect(filesOf(w.chooser(false).choose(witness(), STRINGS))).toEqual([resumed]);
  });

  it("a candidate holding a message this run's screen never showed is another session's: the fit stands alone", () => {
    const w = world();
    const ours = w.write('aaaaaaaa', [metadata('aaaaaaaa-1'), userLine(WORDS)]);
    w.write('bbbbbbbb', [metadata('bbbbbbbb-1'), userLine('something else entirely, typed in another pane')]);
    expect(filesOf(w.chooser(true).choose(witness(), STRINGS))).toEqual([ours]);
  });

  it('a message the screen showed earlier in the run (scrolled off since) still makes a trailing file that holds it a rival', () => {
    const w = world();
    const earlier = 'an earlier message of this run, long since scrolled away';
    const twins = w.write('aaaaaaaa', [metadata('aaaaaaaa-1'), userLine(WORDS)]);
    // Ours holds the earlier message, and not yet the words now on screen.
    const ours = w.write('bbbbbbbb', [metadata('bbbbbbbb-1'), userLine(earlier)]);
    const choice = w.chooser(true).choose(witness({ userMessages: [WORDS], shownEver: [earlier, WORDS] }), STRINGS);
    expect(filesOf(choice)).toEqual([twins, ours].sort());
  });

  it('both hold the words: they tie, beside or not', () => {
    const w = world();
    const a = w.write('aaaaaaaa', [metadata('aaaaaaaa-1'), userLine(WORDS)]);
    const b = w.write('bbbbbbbb', [metadata('bbbbbbbb-1'), userLine(WORDS)]);
    expect(filesOf(w.chooser(false).choose(witness(), STRINGS))).toEqual([a, b].sort());
    expect(filesOf(w.chooser(true).choose(witness(), STRINGS))).toEqual([a, b].sort());
  });
});

describe('isGeminiProcess', () => {
  it.each([
    [['gemini'], true],
    [['node', '/usr/lib/node_modules/@google/gemini-cli/bundle/gemini.js', '--resume', 'latest'], true],
    [['/usr/bin/node', '--max-old-space-size=4096', '/home/u/.npm/_npx/x/node_modules/@google/gemini-cli/dist/index.js'], true],
    [['/work/p/node_modules/.bin/gemini', '-y'], true],
    [['node', '/work/p/gemini-notes/index.js'], false],
    [['vim', 'gemini.md'], false],
    [['less', 'gemini'], false],
    [['bash'], false],
  ] as const)('%j → %s', (argv, expected) => {
    expect(isGeminiProcess(argv)).toBe(expected);
  });
});
