// Which rollout is this run's when rec scans for it, on real rollouts in a temp CODEX_HOME: a lone
// fit is handed in only while no other Codex works in the folder. Codex creates a rollout only with
// its first turn, so a twin's, given the same words, may be the only one holding them while ours is
// not written yet. Whether another Codex works beside the run is the chooser's probe
// (agentsBeside.ts, proven on real processes in its own test), answered here.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isCodexProcess, RolloutChooser } from '../../../../src/agents/codex/sessionLocator.js';
import { codexStringsFor } from '../../../../src/agents/codex/strings/index.js';

const CWD = '/work/project';
const WORDS = 'please run the marker command for me';
const STRINGS = codexStringsFor('0.171.0');

let base: string | undefined;
afterEach(() => {
  if (base) rmSync(base, { recursive: true, force: true });
  base = undefined;
});

/** A CODEX_HOME with today's sessions folder; `write(id, words)` puts a rollout of this cwd in it. */
function world() {
  base = mkdtempSync(join(tmpdir(), 'rec-cxchooser-'));
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  const day = join(base, 'sessions', String(now.getFullYear()), pad(now.getMonth() + 1), pad(now.getDate()));
  mkdirSync(day, { recursive: true });
  const env = { CODEX_HOME: base };
  const write = (id: string, words: readonly string[]) => {
    const stamp = new Date().toISOString();
    const lines = [
      { timestamp: stamp, type: 'session_meta', payload: { id, session_id: id, timestamp: stamp, cwd: CWD, originator: 'codex-tui', cli_version: '0.171.0' } },
      ...words.map((text) => ({ timestamp: stamp, type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } })),
    ];
    const file = join(day, `rollout-2026-11-29T06-00-00-${id}.jsonl`);
    writeFileSync(file, lines.map((l) => JSON.stringify(l) + '\n').join(''));
    return file;
  };
  const chooser = (beside: boolean | undefined) => new RolloutChooser(env, CWD, new Date(Date.now() - 1_000), () => beside);
  return { write, chooser };
}

const filesOf = (choice: ReturnType<RolloutChooser['choose']>) => (choice.type === 'fits' ? choice.files.map((f) => f.file).sort() : choice.type);

describe("Codex's rollout, found by scanning, beside a twin given the same words", () => {
  it('another Codex works here: a lone fit is held back, and says why', () => {
    const w = world();
    w.write('01a2aaaa-0000-7000-8000-000000000001', [WORDS]);
    const choice = w.chooser(true).choose({ userMessages: [WORDS] }, STRINGS);
    expect(choice).toEqual({ type: 'fits', files: [], heldBack: 'another Codex works in this folder' });
  });

  it('where rec cannot tell whether another Codex works here, it is taken as one', () => {
    const w = world();
    w.write('01a2aaaa-0000-7000-8000-000000000001', [WORDS]);
    expect(filesOf(w.chooser(undefined).choose({ userMessages: [WORDS] }, STRINGS))).toEqual([]);
  });

  it('no other Codex works here: the lone fit is handed in', () => {
    const w = world();
    const ours = w.write('01a2aaaa-0000-7000-8000-000000000001', [WORDS]);
    w.write('01a2bbbb-0000-7000-8000-000000000002', ['something else entirely']);
    expect(filesOf(w.chooser(false).choose({ userMessages: [WORDS] }, STRINGS))).toEqual([ours]);
  });

  it('two fit equally: both are handed in (a tie), beside or not', () => {
    const w = world();
    const a = w.write('01a2aaaa-0000-7000-8000-000000000001', [WORDS]);
    const b = w.write('01a2bbbb-0000-7000-8000-000000000002', [WORDS]);
    expect(filesOf(w.chooser(true).choose({ userMessages: [WORDS] }, STRINGS))).toEqual([a, b].sort());
    expect(filesOf(w.chooser(false).choose({ userMessages: [WORDS] }, STRINGS))).toEqual([a, b].sort());
  });
});

describe('isCodexProcess', () => {
  it.each([
    [['node', '/work/p/node_modules/.bin/codex'], true],
    [['/work/p/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex'], true],
    [['node', '/usr/lib/node_modules/@openai/codex/bin/codex.js', 'resume', '--last'], true],
    [['codex', '--yolo'], true],
    [['/home/u/.codex/packages/app-server-daemon/releases/0.171.0-x86_64-unknown-linux-musl/bin/codex', 'app-server', '--listen', 'unix://'], false],
    [['vim', 'codex'], false],
    [['node', '/work/p/scripts/codex-report.js'], false],
  ] as const)('%j → %s', (argv, expected) => {
    expect(isCodexProcess(argv)).toBe(expected);
  });
});
