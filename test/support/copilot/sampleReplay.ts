// Replays a recording of the real GitHub Copilot CLI 1.0.102 (test/fixtures/copilot/1.0.102/recorded)
// through the real CopilotRecorder, step by step, on the shared sample replay (../sampleReplay.ts):
// the test shows the recorded frames in order, hands over keys as the pipeline would, and appends
// events.jsonl's lines to a real file under a temporary COPILOT_HOME that the recorder finds by
// scanning. The recording's `<BASE>` is put back as the folder it stood for, in the events and on
// the screens alike (the frames were drawn with that path's width), and the run's cwd is named after
// it; nothing of it is read from disk. Its rows go to a memory sink.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { CopilotRecorder } from '../../../src/agents/copilot/recorder.js';
import type { RecorderClock } from '../../../src/agents/common/recorderClock.js';
import type { ScreenSnapshot } from '../../../src/core/screen.js';
import { readScreenFrames, type ScreenFrame } from '../castReplay.js';
import { SampleReplay } from '../sampleReplay.js';
import { blankScreen, TestScreen } from '../testScreen.js';
import { RECORDED_CWD, RECORDED_DIR, restoreBase } from './recordedRun.js';

/** Replays not ended by exit() (a test that stops early, or fails): their temp homes go after each test. */
const open = new Set<AgentReplay>();
afterEach(() => {
  for (const r of open) r.dispose();
});

/** An events.jsonl line: the envelope's type is all the replay looks at. */
type EventLine = { type: string };

export class AgentReplay extends SampleReplay<CopilotRecorder, EventLine> {
  readonly cwd = RECORDED_CWD;
  readonly eventsFile: string;
  readonly recorder: CopilotRecorder;
  protected readonly sessionFile: string;
  protected readonly lines: string[];
  private readonly _frames: ScreenFrame[];

  /**
   * `launch`: a later start of the recording (`resume-continue`'s second, `copilot --continue`): its
   * frames, and the file as the earlier start left it, the run starting just before its session.resume.
   * `alterLines`: the file's lines as another run of the same scenario wrote them (another order).
   */
  constructor(
    readonly name: string,
    readonly launch?: number,
    alterLines?: (lines: string[]) => string[],
    /** The recorder's clock (a VirtualClock the test moves), else the real one. */
    clock?: RecorderClock,
  ) {
    super('copilot', new TestScreen(blankScreen()));
    open.add(this);
    // A session that never got a prompt (the folder trust dialog refused) wrote no events.jsonl.
    const events = join(RECORDED_DIR, `${name}.events.jsonl`);
    const lines = (existsSync(events) ? readFileSync(events, 'utf8') : '')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map(restoreBase);
    this.lines = alterLines ? alterLines(lines) : lines;
    this._frames = readScreenFrames(join(RECORDED_DIR, launch === undefined ? `${name}.screen.txt` : `${name}.launch${launch}.screen.txt`));
    const first = this.lines[0] === undefined ? undefined : (JSON.parse(this.lines[0]) as { data: { sessionId: string } });
    // The later start's part begins at its launch-th session.resume: what comes before, the file already holds.
    const resumes = this.lines.flatMap((l, i) => (l.startsWith('{"type":"session.resume"') ? [i] : []));
    const startsAt = launch === undefined ? 0 : resumes[launch - 2];
    if (startsAt === undefined) throw new Error(`${name}: no start ${launch ?? 1} in its events`);
    const startLine = JSON.parse(this.lines[startsAt] ?? '{}') as { timestamp?: string };
    const copilotHome = join(this.home, 'copilot-home');
    const dir = join(copilotHome, 'session-state', first?.data.sessionId ?? 'none');
    mkdirSync(dir, { recursive: true });
    this.eventsFile = join(dir, 'events.jsonl');
    this.sessionFile = this.eventsFile;
    let written = 0;
    if (startsAt > 0) this.append(() => ++written === startsAt);
    this.recorder = new CopilotRecorder(
      {
        runId: `replay-${name}`,
        cwd: this.cwd,
        env: { COPILOT_HOME: copilotHome, HOME: this.home },
        // Just before Copilot started: every record of the file from here on is this run's.
        startedAt: new Date(startLine.timestamp === undefined ? Date.now() : Date.parse(startLine.timestamp) - 1_000),
        screen: this.screen,
        sink: this.sink,
        hooks: this.hooks.event,
        debug: () => {},
      },
      // One session alone: what the screen shows counts at once.
      { witnessSettleMs: 0, ...(clock ? { clock } : {}) },
    );
  }

  /** The session's call ids, in the order the model asked for them. */
  callIds(): string[] {
    return this.lines.flatMap((l) => {
      const r = JSON.parse(l) as { type: string; data: { toolRequests?: Array<{ toolCallId: string }> } };
      return r.type === 'assistant.message' ? (r.data.toolRequests ?? []).map((t) => t.toolCallId) : [];
    });
  }

  /** Shows the recorded frame of this label (its rows only). */
  show(label: string): void {
    const frame = this._frames.find((f) => f.label === label);
    if (!frame) throw new Error(`${this.name}: no frame '${label}' (${this._frames.map((f) => f.label).join(', ')})`);
    const lines = frame.text.split('\n').slice(0, frame.rows).map((l) => restoreBase(l).trimEnd());
    const plain = blankScreen(frame.cols, lines.length);
    this.screen.show({ ...plain, lines } satisfies ScreenSnapshot);
  }

  /** Appends events.jsonl's lines up to and including the `nth` (1-based) line of `type` not appended yet; all when omitted. */
  appendThrough(type?: string, nth = 1): void {
    if (type === undefined) return this.append();
    let seen = 0;
    this.append((line) => line.type === type && ++seen === nth);
  }

  override dispose(): void {
    open.delete(this);
    super.dispose();
  }
}
