// Replays a recording of the real GitHub Copilot CLI 1.0.102 (test/fixtures/copilot/1.0.102/recorded)
// through the real CopilotRecorder, step by step: the test shows the recorded frames in order,
// hands over keys as the pipeline would, and appends events.jsonl's lines to a real file under a
// temporary COPILOT_HOME that the recorder finds by scanning. The recording's `<BASE>` is put back
// as the folder it stood for, in the events and on the screens alike (the frames were drawn with
// that path's width), and the run's cwd is named after it; nothing of it is read from disk. Its rows
// go to a memory sink.
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { CopilotRecorder } from '../../../src/agents/copilot/recorder.js';
import { Emitter } from '../../../src/core/lifecycle.js';
import type { HookMessage } from '../../../src/core/hookMessage.js';
import { keyEvent } from '../../../src/lab/keys.js';
import { COPILOT_VERSIONS } from '../../../src/agents/copilot/strings/index.js';
import { readScreenFrames, type ScreenFrame } from '../castReplay.js';
import { MemorySink } from '../memorySink.js';
import type { ScreenSnapshot } from '../../../src/core/screen.js';
import { blankScreen, TestScreen } from '../testScreen.js';

/** Copilot is not in the registry yet (an agent being built): its one version fact says where its recordings are. */
export const RECORDED_DIR = join(import.meta.dirname, '../../..', COPILOT_VERSIONS.at(-1)!.fixtures, 'recorded');
/** What `<BASE>` stood for when the recordings were made (their README). */
const RECORDED_BASE = '/tmp/rec-copilot-fx';
/** A recording ending with its turn open makes the recorder wait for it at exit; nothing asserted depends on it. */
const RECONCILE_IN_TESTS_MS = 300;

const open = new Set<CopilotReplay>();
afterEach(() => {
  for (const r of open) r.dispose();
});

export class CopilotReplay {
  readonly sink = new MemorySink();
  readonly home: string;
  readonly cwd: string;
  readonly eventsFile: string;
  readonly recorder: CopilotRecorder;
  private readonly _screen = new TestScreen(blankScreen());
  private readonly _lines: string[];
  private readonly _frames: ScreenFrame[];
  private _next = 0;

  /**
   * `launch`: a later start of the recording (`resume-continue`'s second, `copilot --continue`): its
   * frames, and the file as the earlier start left it, the run starting just before its session.resume.
   * `alterLines`: the file's lines as another run of the same scenario wrote them (another order).
   */
  constructor(
    readonly name: string,
    readonly launch?: number,
    alterLines?: (lines: string[]) => string[],
  ) {
    open.add(this);
    this.home = mkdtempSync(join(tmpdir(), 'rec-copilot-replay-'));
    this.cwd = `${RECORDED_BASE}/work`;
    // A session that never got a prompt (the folder trust dialog refused) wrote no events.jsonl.
    const events = join(RECORDED_DIR, `${name}.events.jsonl`);
    const lines = (existsSync(events) ? readFileSync(events, 'utf8') : '')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => l.replaceAll('<BASE>', RECORDED_BASE));
    this._lines = alterLines ? alterLines(lines) : lines;
    this._frames = readScreenFrames(join(RECORDED_DIR, launch === undefined ? `${name}.screen.txt` : `${name}.launch${launch}.screen.txt`));
    const first = this._lines[0] === undefined ? undefined : (JSON.parse(this._lines[0]) as { data: { sessionId: string }; timestamp: string });
    // The later start's part begins at its launch-th session.resume: what comes before, the file already holds.
    const resumes = this._lines.flatMap((l, i) => (l.startsWith('{"type":"session.resume"') ? [i] : []));
    const startsAt = launch === undefined ? 0 : resumes[launch - 2];
    if (startsAt === undefined) throw new Error(`${name}: no start ${launch ?? 1} in its events`);
    const startLine = JSON.parse(this._lines[startsAt] ?? '{}') as { timestamp?: string };
    const copilotHome = join(this.home, 'copilot-home');
    const dir = join(copilotHome, 'session-state', first?.data.sessionId ?? 'none');
    mkdirSync(dir, { recursive: true });
    this.eventsFile = join(dir, 'events.jsonl');
    for (; this._next < startsAt; this._next++) appendFileSync(this.eventsFile, this._lines[this._next]! + '\n');
    this.recorder = new CopilotRecorder(
      {
        runId: `replay-${name}`,
        cwd: this.cwd,
        env: { COPILOT_HOME: copilotHome, HOME: this.home },
        // Just before Copilot started: every record of the file is this run's.
        startedAt: new Date(startLine.timestamp === undefined ? Date.now() : Date.parse(startLine.timestamp) - 1_000),
        screen: this._screen,
        sink: this.sink,
        hooks: new Emitter<HookMessage>().event,
        debug: () => {},
      },
      // One session alone: what the screen shows counts at once.
      { witnessSettleMs: 0 },
    );
  }

  /** The session's call ids, in the order the model asked for them. */
  callIds(): string[] {
    return this._lines.flatMap((l) => {
      const r = JSON.parse(l) as { type: string; data: { toolRequests?: Array<{ toolCallId: string }> } };
      return r.type === 'assistant.message' ? (r.data.toolRequests ?? []).map((t) => t.toolCallId) : [];
    });
  }

  /** Shows the recorded frame of this label (its rows only: an exit's screen that follows it is not part of it). */
  show(label: string): void {
    const frame = this._frames.find((f) => f.label === label);
    if (!frame) throw new Error(`${this.name}: no frame '${label}' (${this._frames.map((f) => f.label).join(', ')})`);
    const lines = frame.text.split('\n').slice(0, frame.rows).map((l) => l.replaceAll('<BASE>', RECORDED_BASE).trimEnd());
    const plain = blankScreen(frame.cols, lines.length);
    this._screen.show({ ...plain, lines } satisfies ScreenSnapshot);
  }

  /** Appends events.jsonl's lines up to and including the `nth` (1-based) line of `type` not appended yet; all when omitted. */
  appendThrough(type?: string, nth = 1): void {
    let seen = 0;
    while (this._next < this._lines.length) {
      const line = this._lines[this._next++]!;
      appendFileSync(this.eventsFile, line + '\n');
      if (type !== undefined && line.startsWith(`{"type":"${type}"`) && ++seen === nth) return;
    }
  }

  press(...keys: string[]): void {
    for (const k of keys) this.recorder.handleKey(keyEvent(k));
  }

  async exit(): Promise<void> {
    this.appendThrough();
    await this.recorder.handleExit({ exitCode: 0 }, AbortSignal.timeout(RECONCILE_IN_TESTS_MS));
    this.dispose();
  }

  dispose(): void {
    open.delete(this);
    this.recorder.dispose();
    rmSync(this.home, { recursive: true, force: true });
  }
}
