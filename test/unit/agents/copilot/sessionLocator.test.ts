// Which events.jsonl is this run's, on real files in a temp COPILOT_HOME built from the 1.0.102
// recordings: each recording's events, its <BASE> made the temp folder, in a session folder named
// after its session id. The run's start is placed by the recording's own stamps.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CopilotSessionChooser, inOrder, peekEvents, promptShowsRequest } from '../../../../src/agents/copilot/sessionLocator.js';
import { parseCopilotScreen } from '../../../../src/agents/copilot/screenParser.js';
import type { CopilotPrompt } from '../../../../src/agents/copilot/promptBox.js';
import { COPILOT_1_0_102 } from '../../../../src/agents/copilot/strings/v1_0_102.js';
import type { SessionWitness } from '../../../../src/agents/common/agentProfile.js';
import { readScreenFrames } from '../../../support/castReplay.js';

const DIR = join(import.meta.dirname, '../../../fixtures/copilot/1.0.102/recorded');
const OTHER_ID = '0badc0de-0000-4000-8000-000000000001';

const fixtureLines = (name: string) => readFileSync(join(DIR, `${name}.events.jsonl`), 'utf8').split('\n').filter((l) => l !== '');
const idOf = (lines: readonly string[]) => (JSON.parse(lines[0]!) as { data: { sessionId: string } }).data.sessionId;
/** When the recording wrote its first record of `type`. */
const stampOf = (name: string, type: string, nth = 0) =>
  Date.parse(fixtureLines(name).map((l) => JSON.parse(l) as { type: string; timestamp: string }).filter((r) => r.type === type)[nth]!.timestamp);

/** The prompt the recording's `prompt` frame shows, as the screen parser reads it. */
function promptOf(name: string): CopilotPrompt {
  const frame = readScreenFrames(join(DIR, `${name}.screen.txt`)).find((f) => f.label === 'prompt')!;
  const lines = frame.text.split('\n').slice(0, frame.rows).map((l) => l.trimEnd());
  const screen = parseCopilotScreen({ cols: frame.cols, rows: lines.length, lines, styles: [], cursor: { x: 0, y: 0 }, seq: 0 }, COPILOT_1_0_102);
  return screen.prompt!;
}

let base: string | undefined;
afterEach(() => {
  if (base) rmSync(base, { recursive: true, force: true });
  base = undefined;
});

/** A COPILOT_HOME and a work dir in a temp folder. */
function world() {
  base = mkdtempSync(join(tmpdir(), 'rec-cplocator-'));
  const b = base;
  const cwd = join(b, 'work');
  mkdirSync(cwd, { recursive: true });
  const env = { COPILOT_HOME: join(b, 'home', '.copilot') };
  const root = join(env.COPILOT_HOME, 'session-state');
  return {
    cwd,
    env,
    /** Writes a recording's events as a session folder's events.jsonl (its lines edited, its id or mtime changed). */
    session(name: string, o: { id?: string; edit?: (lines: string[]) => string[]; mtime?: Date; locks?: number[] } = {}): string {
      let lines = fixtureLines(name);
      const id = o.id ?? idOf(lines);
      lines = (o.edit ? o.edit(lines) : lines).map((l) => l.replaceAll('<BASE>', b).replaceAll(idOf(fixtureLines(name)), id));
      const dir = join(root, id);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'workspace.yaml'), `id: ${id}\n`);
      for (const pid of o.locks ?? []) writeFileSync(join(dir, `inuse.${pid}.lock`), '');
      const file = join(dir, 'events.jsonl');
      writeFileSync(file, lines.join('\n') + '\n');
      if (o.mtime) utimesSync(file, o.mtime, o.mtime);
      return file;
    },
  };
}

const witness = (userMessages: string[], more: Partial<SessionWitness<CopilotPrompt>> = {}): SessionWitness<CopilotPrompt> => ({ userMessages, ...more });
const files = (choice: ReturnType<CopilotSessionChooser['choose']>) => (choice.type === 'fits' ? choice.files.map((f) => [f.file, f.from]) : choice);

describe('copilot 1.0.102 session locator: a new session', () => {
  it('the one events.jsonl of this cwd that holds the shown message, from byte 0', () => {
    const w = world();
    const file = w.session('bash-reject-esc');
    const chooser = new CopilotSessionChooser(w.env, w.cwd, new Date(stampOf('bash-reject-esc', 'session.start') - 500));
    expect(files(chooser.choose(witness(['SCENARIO bash'])))).toEqual([[file, 0]]);
    // Nothing shown long enough yet: nothing fits, whatever the folder holds.
    expect(files(chooser.choose(witness([])))).toEqual([]);
    expect(files(chooser.choose(witness(['SCENARIO other'])))).toEqual([]);
  });

  it('the id Copilot prints as it exits names the file; a session that sent no prompt has none', () => {
    const w = world();
    const file = w.session('bash-reject-esc');
    const id = idOf(fixtureLines('bash-reject-esc'));
    const chooser = new CopilotSessionChooser(w.env, w.cwd, new Date(stampOf('bash-reject-esc', 'session.start') - 500));
    expect(chooser.choose(witness([], { sessionId: id }))).toEqual({ type: 'named', file: { file, from: 0 } });
    // The folder exists from the start; events.jsonl only with the first prompt.
    mkdirSync(join(w.env.COPILOT_HOME, 'session-state', OTHER_ID));
    expect(chooser.choose(witness(['SCENARIO bash'], { sessionId: OTHER_ID }))).toEqual({ type: 'named_gone', sessionId: OTHER_ID });
    expect(chooser.choose(witness([], { sessionId: '../../etc' }))).toEqual({ type: 'named_gone', sessionId: '../../etc' });
  });

  it('the cwd is compared as a folder: a symlink to the work dir is the same cwd, another folder is not', () => {
    const w = world();
    const file = w.session('bash-reject-esc');
    const since = new Date(stampOf('bash-reject-esc', 'session.start') - 500);
    const link = join(base!, 'link');
    symlinkSync(w.cwd, link);
    expect(files(new CopilotSessionChooser(w.env, link, since).choose(witness(['SCENARIO bash'])))).toEqual([[file, 0]]);
    mkdirSync(join(base!, 'elsewhere'));
    expect(files(new CopilotSessionChooser(w.env, join(base!, 'elsewhere'), since).choose(witness(['SCENARIO bash'])))).toEqual([]);
  });
});

describe('copilot 1.0.102 session locator: two sessions side by side in one folder', () => {
  const since = () => new Date(Math.min(stampOf('bash-reject-esc', 'session.start'), stampOf('bash-approve-enter', 'session.start')) - 500);

  it('given the same words, both fit equally: ambiguous', () => {
    const w = world();
    const ours = w.session('bash-reject-esc');
    const twin = w.session('bash-approve-enter');
    const fits = files(new CopilotSessionChooser(w.env, w.cwd, since()).choose(witness(['SCENARIO bash'])));
    expect(new Set(fits as unknown[])).toEqual(new Set([[ours, 0], [twin, 0]]));
  });

  it('a prompt this run refused leaves out the twin that approved the same call', () => {
    const w = world();
    const ours = w.session('bash-reject-esc');
    w.session('bash-approve-enter');
    const refused = [promptOf('bash-reject-esc')];
    expect(files(new CopilotSessionChooser(w.env, w.cwd, since()).choose(witness(['SCENARIO bash'], { refused })))).toEqual([[ours, 0]]);
  });

  it('a refused prompt whose request is still undecided in our file counts (the file trails the key)', () => {
    const w = world();
    const ours = w.session('bash-reject-esc', { edit: (lines) => lines.slice(0, lines.findIndex((l) => l.includes('"type":"permission.requested"')) + 1) });
    w.session('bash-approve-enter');
    const refused = [promptOf('bash-reject-esc')];
    expect(files(new CopilotSessionChooser(w.env, w.cwd, since()).choose(witness(['SCENARIO bash'], { refused })))).toEqual([[ours, 0]]);
  });

  it('the prompt on screen: a twin given the same words that asked another command fits less', () => {
    const w = world();
    const ours = w.session('bash-reject-esc');
    w.session('bash-reject-esc', { id: OTHER_ID, edit: (lines) => lines.map((l) => l.replaceAll('mock-bash-ran', 'other-command')) });
    const prompt = promptOf('bash-reject-esc');
    expect(files(new CopilotSessionChooser(w.env, w.cwd, since()).choose(witness(['SCENARIO bash'], { prompt })))).toEqual([[ours, 0]]);
  });

  it('the inuse lock of a process of this run breaks a tie, and only a tie', () => {
    const w = world();
    const ours = w.session('bash-reject-esc', { locks: [4242] });
    const twin = w.session('bash-approve-enter', { locks: [777] });
    const runPids = () => new Set([4241, 4242]);
    const chooser = new CopilotSessionChooser(w.env, w.cwd, since(), { runPids });
    expect(files(chooser.choose(witness(['SCENARIO bash'])))).toEqual([[ours, 0]]);
    // A lock fits nothing by itself: the locked twin that approved the call this run refused stays out.
    const twinsPids = new CopilotSessionChooser(w.env, w.cwd, since(), { runPids: () => new Set([777]) });
    expect(files(twinsPids.choose(witness(['SCENARIO bash'], { refused: [promptOf('bash-reject-esc')] })))).toEqual([[ours, 0]]);
    // No lock of ours (a resumed session before its first prompt, or a stale one): the tie stands.
    const strangers = new CopilotSessionChooser(w.env, w.cwd, since(), { runPids: () => new Set([1]) });
    expect(new Set(files(strangers.choose(witness(['SCENARIO bash']))) as unknown[])).toEqual(new Set([[ours, 0], [twin, 0]]));
  });
});

describe('copilot 1.0.102 session locator: a twin running beside the run', () => {
  const since = () => new Date(stampOf('bash-reject-esc', 'session.start') - 500);
  it("a lone fit locked by another live Copilot, and by none of this run's, is the twin's: left out while ours is not written yet", async () => {
    const w = world();
    const chooser = new CopilotSessionChooser(w.env, w.cwd, since(), { runPids: () => new Set([process.pid]) });
    let twin = '';
    // A live process outside this run stands for the twin's native binary.
    const twinProcess = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)'], { stdio: 'ignore' });
    try {
      await new Promise((resolve, reject) => twinProcess.once('spawn', resolve).once('error', reject));
      twin = w.session('bash-reject-esc', { locks: [twinProcess.pid!] });
      expect(files(chooser.choose(witness(['SCENARIO bash'])))).toEqual([]);
      // Our own lock in it too (a resumed session both held): ours.
      writeFileSync(join(twin, '..', `inuse.${process.pid}.lock`), '');
      expect(files(chooser.choose(witness(['SCENARIO bash'])))).toEqual([[twin, 0]]);
    } finally {
      twinProcess.kill('SIGKILL');
    }
    // The lock's process is gone (a Copilot that crashed): a stale lock says nothing.
    await new Promise((resolve) => (twinProcess.exitCode !== null || twinProcess.signalCode !== null ? resolve(undefined) : twinProcess.once('exit', resolve)));
    rmSync(join(twin, '..', `inuse.${process.pid}.lock`));
    expect(files(chooser.choose(witness(['SCENARIO bash'])))).toEqual([[twin, 0]]);
  });
});

describe('copilot 1.0.102 session locator: a resumed session', () => {
  const resumedAt = () => new Date(stampOf('resume-continue', 'session.resume') - 500);
  const resumeLineOffset = (file: string) => {
    const text = readFileSync(file, 'utf8');
    return Buffer.byteLength(text.slice(0, text.indexOf('{"type":"session.resume"')));
  };

  it('the run part begins at the session.resume line; the earlier turns the screen redraws count', () => {
    const w = world();
    const file = w.session('resume-continue');
    const twin = w.session('bash-reject-esc', { id: OTHER_ID, edit: (lines) => lines.map(restampAfter(resumedAt())) });
    const chooser = new CopilotSessionChooser(w.env, w.cwd, resumedAt());
    // The screen shows the earlier turn's message and this run's: only the resumed file holds both.
    expect(files(chooser.choose(witness(['SCENARIO bash', 'SCENARIO bash'])))).toEqual([[file, resumeLineOffset(file)]]);
    expect(new Set(files(chooser.choose(witness(['SCENARIO bash']))) as unknown[])).toEqual(new Set([[file, resumeLineOffset(file)], [twin, 0]]));
    expect(chooser.runStartsAt(file)).toBe(resumeLineOffset(file));
    expect(chooser.choose(witness([], { sessionId: idOf(fixtureLines('resume-continue')) }))).toEqual({ type: 'named', file: { file, from: resumeLineOffset(file) } });
  });

  it('before its first prompt the resumed file is not appended to: not a candidate, and named it starts at its end', () => {
    const w = world();
    const earlier = (lines: string[]) => lines.slice(0, lines.findIndex((l) => l.includes('"type":"session.resume"')));
    const file = w.session('resume-continue', { edit: earlier, mtime: new Date(resumedAt().getTime() - 60_000) });
    const chooser = new CopilotSessionChooser(w.env, w.cwd, resumedAt());
    expect(files(chooser.choose(witness(['SCENARIO bash'])))).toEqual([]);
    expect(chooser.choose(witness([], { sessionId: idOf(fixtureLines('resume-continue')) }))).toEqual({ type: 'named', file: { file, from: readFileSync(file).length } });
    // Touched within the mtime slack but holding nothing stamped since the start: still not one.
    utimesSync(file, new Date(), new Date());
    expect(files(chooser.choose(witness(['SCENARIO bash'])))).toEqual([]);
  });

  it('resumed in another cwd: the session.resume context is what counts, not the session.start one', () => {
    const w = world();
    const moved = (lines: string[]) => lines.map((l) => (l.includes('"type":"session.resume"') ? l.replaceAll('<BASE>/work', '<BASE>/elsewhere') : l));
    const file = w.session('resume-continue', { edit: moved });
    expect(files(new CopilotSessionChooser(w.env, w.cwd, resumedAt()).choose(witness(['SCENARIO bash'])))).toEqual([]);
    mkdirSync(join(base!, 'elsewhere'));
    expect(files(new CopilotSessionChooser(w.env, join(base!, 'elsewhere'), resumedAt()).choose(witness(['SCENARIO bash'])))).toEqual([[file, resumeLineOffset(file)]]);
  });
});

describe('copilot 1.0.102 session locator: files that are not this run\'s', () => {
  it('a session another Copilot started before the run, still writing after it: its part begins with no session.start', () => {
    const w = world();
    const file = w.session('bash-reject-esc');
    // The run started after that session.start and before its first user.message was written.
    const chooser = new CopilotSessionChooser(w.env, w.cwd, new Date(stampOf('bash-reject-esc', 'session.start') + 1_000));
    expect(files(chooser.choose(witness(['SCENARIO bash'])))).toEqual([]);
    expect(peekEvents(file, new Date(stampOf('bash-reject-esc', 'session.start') + 1_000))).toBeUndefined();
  });

  it('a session of an earlier day, not written to since the run started: never read', () => {
    const w = world();
    w.session('bash-reject-esc', { mtime: new Date('2026-01-01T00:00:00Z') });
    const chooser = new CopilotSessionChooser(w.env, w.cwd, new Date(stampOf('bash-reject-esc', 'session.start') - 500));
    expect(files(chooser.choose(witness(['SCENARIO bash'])))).toEqual([]);
  });

  it('no session-state folder yet: nothing, and no throw', () => {
    const w = world();
    expect(files(new CopilotSessionChooser(w.env, w.cwd, new Date()).choose(witness(['SCENARIO bash'])))).toEqual([]);
  });
});

describe('copilot 1.0.102 session locator: the witnesses', () => {
  it('messages count in the screen\'s order; a clipped one by its start', () => {
    expect(inOrder(['a', 'b'], ['a', 'x', 'b'])).toBe(2);
    expect(inOrder(['a', 'b'], ['b', 'a'])).toBe(1);
    expect(inOrder(['b'], ['a', 'b'])).toBe(1);
    const long = 'a message long enough to be clipped by the screen';
    expect(inOrder([long.slice(0, 30)], [long])).toBe(1);
    expect(inOrder([long.slice(0, 10)], [long])).toBe(0);
  });

  it.each(['bash-reject-esc', 'create-reject-esc', 'path-reject-esc', 'url-reject-esc', 'mcp-reject-esc'])('%s: the prompt drawn shows its own permission.requested, not the others\'', (name) => {
    const prompt = promptOf(name);
    const request = (n: string) => {
      const line = fixtureLines(n).find((l) => l.includes('"type":"permission.requested"'))!;
      return (JSON.parse(line) as { data: { permissionRequest: Parameters<typeof promptShowsRequest>[1] } }).data.permissionRequest;
    };
    expect(promptShowsRequest(prompt, request(name))).toBe(true);
    for (const other of ['bash-and-reject-esc', 'create-reject-esc', 'path-reject-esc', 'url-reject-esc', 'mcp-reject-esc'].filter((n) => n !== name)) {
      expect(promptShowsRequest(prompt, request(other))).toBe(false);
    }
  });
});

/** Moves every stamp of a recording to just after `at`, keeping their order: a session started after it. */
function restampAfter(at: Date): (line: string) => string {
  let n = 0;
  return (line) => line.replace(/"timestamp":"[^"]+","parentId":/, () => `"timestamp":"${new Date(at.getTime() + 1_000 + n++).toISOString()}","parentId":`);
}
