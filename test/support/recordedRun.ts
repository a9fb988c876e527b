// What every agent's recorded-session replay shares: one recording (<name>.cast, <name>.screen.txt
// and the agent's session file, made by scripts/record-<agent>-fixtures.mjs) replayed through the
// pipeline's real parts. The pty output goes into a ScreenModel, the keys through the InputRelay to
// the agent's recorder writing to a real sidecar file, and the session file is written into a
// temporary home as the agent wrote it, on the recording's clock (castAlignment.ts) plus an optional
// lag, all on a VirtualClock. The run ends as rec ends one (exitAfterReplay), and what it recorded
// must come out of `rec merge` and `rec stats`.
//
// What differs per agent is its kit's (test/support/<agent>/recordedRun.ts): where its session files go,
// which of their lines a key caused, and how the file's clock is lined up with the cast's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RECONCILE_AFTER_EXIT_MS, type Recorder, type RecorderContext } from '../../src/agents/agentAdapter.js';
import type { HookMessage } from '../../src/core/hookMessage.js';
import { Emitter } from '../../src/core/lifecycle.js';
import type { ScreenSnapshot } from '../../src/core/screen.js';
import { ScreenModel } from '../../src/screen/screenModel.js';
import { createEventSink } from '../../src/store/eventSink.js';
import { openSidecar, type SidecarDb } from '../../src/store/sidecarDb.js';
import { alignToCast, type StampedLine } from './castAlignment.js';
import { keysWhileDrawing, quickerKeys, readCast, readScreenFrames, replayCast, screenText, type Cast, type CastEvent, type ScreenFrame } from './castReplay.js';
import { expectJourney, type Journey } from './journey.js';
import { VirtualClock } from './virtualClock.js';

type ReplayedAgent = 'claude' | 'codex' | 'copilot' | 'gemini';

export interface FrameCheck {
  readonly frame: ScreenFrame;
  /** The replayed screen at the frame's time, as screenText() prints it. */
  readonly replayed: string;
  readonly replayedSize: string;
}

/** The agent's session files as the recording has them, laid out in the replay's home. */
export interface SessionLayout {
  /** The work dir the run row and the recorder name. */
  readonly cwd: string;
  /** The recorder's environment: where it finds the session files (HOME, CODEX_HOME, a session id). */
  readonly env: NodeJS.ProcessEnv;
  /** Every line of every session file, in the order the replay writes them, on the agent's clock. */
  readonly lines: readonly StampedLine[];
  /** The cast times (s) of the keys that can cause a line. */
  readonly keyTimes: readonly number[];
  /** The estimate of the cast's t = 0 on the agent's clock that alignToCast starts from. */
  readonly estimateStartMs: number;
  /** Writes lines[index] where the agent wrote it. */
  readonly write: (index: number) => void;
}

export interface RecordedReplayOptions {
  readonly agent: ReplayedAgent;
  /** The folder of the recordings and the scenario's name in it. */
  readonly dir: string;
  readonly name: string;
  /** Reads the session files of the recording and lays them out under `home`. */
  readonly layout: (cast: Cast, home: string) => SessionLayout;
  readonly recorder: (context: RecorderContext, clock: VirtualClock) => Recorder;
  /** Every session line written this much later than the recording says (the agent's writer trailing the screen). */
  readonly lagMs?: number;
  /**
   * Quicker than recorded (castReplay.ts quickerTimes): every key comes this long after the screen
   * it answers was drawn whole, where the recording waited longer, the agent's output and files
   * moved with it.
   */
  readonly keyDelayMs?: number;
  /** Every key that followed a frame written in pieces comes after its first piece (castReplay.ts keysWhileDrawing). */
  readonly keysWhileDrawing?: boolean;
  /** Quicker still: everything, the agent's output and files too, this many times as fast (a quicker model and machine). */
  readonly speedup?: number;
  /** How long the last screen stays after the cast ends: the recorder's settle time plus a poll. */
  readonly lingerMs: number;
  /**
   * The recording was altered so that rec cannot read its prompts: `miss` events are what it is
   * for. Any other replay that reports a miss fails (a wrong miss is as bad as a wrong rejection).
   */
  readonly missesExpected?: boolean;
  /** Alters the agent's output as the cast has it (a prompt's strings changed, as a new release might). */
  readonly alterOutput?: (data: string) => string;
  /** The user's keys as another user pressed them (events in any order: they are sorted by time). */
  readonly alterKeys?: (events: readonly CastEvent[]) => CastEvent[];
  /** What the agent did as it exited, before rec reconciles (e.g. Gemini deleting its chat file). */
  readonly atExit?: () => void;
  /**
   * The agent wrote every line before it exited (it deleted its file as it quit): a lag never
   * pushes one past the recording's end.
   */
  readonly linesBeforeExit?: boolean;
  /**
   * The instants to look at the screen at, given the recorded frames, and what to do with each; by
   * default each recorded frame's, kept in the run's `frames`.
   */
  readonly probes?: (cast: Cast, frames: readonly ScreenFrame[]) => { readonly at: readonly ScreenFrame[]; readonly onFrame: (probe: ScreenFrame, screen: ScreenSnapshot) => void };
  /** Goes further down the user's path (e.g. `rec report --run`) while the run's sidecar and session files are still there. */
  readonly afterJourney?: JourneyStep;
}

export type JourneyStep = (run: { readonly dbPath: string; readonly runId: string; readonly journey: Journey }) => Promise<void>;

/**
 * What every agent kit's `replayRecorded(name, options)` takes; a kit's ReplayOptions extends it
 * with its own extras only.
 */
export interface AgentReplayOptions {
  /** The recordings folder (one of the kit's RECORDED_BY_VERSION); the pinned version's by default. */
  readonly dir?: string;
  /**
   * Every session-file line written this much later than recorded (the agent's writer trailing the
   * screen, a loaded machine delaying its writes and rec's reads). The recorder must record the same events.
   */
  readonly fileLagMs?: number;
  /** Every key this long after the screen it answers (when the recording waited longer): a quicker user (see RecordedReplayOptions). */
  readonly keyDelayMs?: number;
  /** Keys sent while the screen they answer is drawn only in part (see RecordedReplayOptions). */
  readonly keysWhileDrawing?: boolean;
  /** Alters the agent's output as the cast has it: rec then misses the prompts it no longer reads (misses expected). */
  readonly alterOutput?: (data: string) => string;
  /** The user's keys as another user pressed them (see RecordedReplayOptions). */
  readonly alterKeys?: (events: readonly CastEvent[]) => CastEvent[];
  /** Goes further down the user's path after merge and stats (see replayRecording). */
  readonly afterJourney?: JourneyStep;
}

/** A kit's AgentReplayOptions as replayRecording takes them (all but `dir`, which the kit reads its files from too). */
export function agentReplaySettings(o: AgentReplayOptions): Pick<RecordedReplayOptions, 'lagMs' | 'keyDelayMs' | 'keysWhileDrawing' | 'alterOutput' | 'missesExpected' | 'alterKeys' | 'afterJourney'> {
  return {
    ...(o.fileLagMs !== undefined ? { lagMs: o.fileLagMs } : {}),
    ...(o.keyDelayMs !== undefined ? { keyDelayMs: o.keyDelayMs } : {}),
    ...(o.keysWhileDrawing === true ? { keysWhileDrawing: true } : {}),
    ...(o.alterOutput ? { alterOutput: o.alterOutput, missesExpected: true } : {}),
    ...(o.alterKeys ? { alterKeys: o.alterKeys } : {}),
    ...(o.afterJourney ? { afterJourney: o.afterJourney } : {}),
  };
}

/** The replayed run, while its sidecar is open. */
export interface ReplayedRun {
  readonly cast: Cast;
  readonly db: SidecarDb;
  readonly runId: string;
  readonly screen: ScreenModel;
  /** Each recorded frame with the replayed screen at its time (empty when `probes` took the frames). */
  readonly frames: FrameCheck[];
  readonly keysSent: Buffer;
  readonly forwarded: Buffer;
  /** What `rec merge` and `rec stats` of the run gave. */
  readonly journey: Journey;
}

/** When each recorded instant is replayed: as recorded, or quicker (keyDelayMs, speedup). */
function retiming(cast: Cast, o: Pick<RecordedReplayOptions, 'keyDelayMs' | 'speedup'>): (t: number) => number {
  const keys = o.keyDelayMs === undefined ? (t: number) => t : quickerKeys(cast, o.keyDelayMs);
  const speedup = o.speedup ?? 1;
  return (t) => keys(t) / speedup;
}

/** Replays one recording and hands its run to `collect` before everything is closed and removed. */
export async function replayRecording<T>(o: RecordedReplayOptions, collect: (run: ReplayedRun) => T): Promise<T> {
  const recorded = readCast(join(o.dir, `${o.name}.cast`));
  const alter = o.alterOutput;
  const altered = alter ? { ...recorded, events: recorded.events.map((e) => (e.kind === 'o' ? { ...e, data: alter(e.data) } : e)) } : recorded;
  const rekeyed = o.alterKeys ? { ...altered, events: [...o.alterKeys(altered.events)].sort((a, b) => a.t - b.t) } : altered;
  const cast = o.keysWhileDrawing === true ? { ...rekeyed, events: keysWhileDrawing(rekeyed.events) } : rekeyed;
  const home = mkdtempSync(join(tmpdir(), `rec-${o.agent}-recorded-`));
  try {
    const layout = o.layout(cast, home);
    const alignment = alignToCast(layout.lines, layout.keyTimes, layout.estimateStartMs);
    const db = openReplaySidecar(home);
    const runId = `replay-${o.name}`;
    db.startRun({ id: runId, agent: o.agent, argv: [], cwd: layout.cwd, started_at: new Date(alignment.startMs).toISOString() });
    const sink = createEventSink(db, { run_id: runId, agent: o.agent });
    const screen = new ScreenModel({ cols: cast.cols, rows: cast.rows });
    const clock = new VirtualClock(alignment.startMs);
    const recorder = o.recorder(replayContext({ runId, cwd: layout.cwd, env: layout.env, startMs: alignment.startMs, screen, sink }), clock);
    const frames: FrameCheck[] = [];
    const recordedFrames = readScreenFrames(join(o.dir, `${o.name}.screen.txt`));
    const probes = o.probes?.(cast, recordedFrames) ?? {
      at: recordedFrames,
      onFrame: (frame: ScreenFrame, snapshot: ScreenSnapshot) => frames.push({ frame, replayed: screenText(snapshot), replayedSize: `${snapshot.cols}x${snapshot.rows}` }),
    };
    const at = retiming(cast, o);
    const end = at(cast.events.at(-1)?.t ?? 0);
    const lineTime = (t: number) => (o.linesBeforeExit ? Math.min(t + (o.lagMs ?? 0) / 1000, Math.max(t, end)) : t + (o.lagMs ?? 0) / 1000);
    // The probes at their new times, each handed on as the frame it was made for.
    const probeOf = new Map<ScreenFrame, ScreenFrame>(probes.at.map((p) => [{ ...p, t: at(p.t) }, p]));
    try {
      const { forwarded, keysSent } = await replayCast({
        cast: { ...cast, events: cast.events.map((e) => ({ ...e, t: at(e.t) })) },
        screen,
        keys: recorder,
        clock,
        startMs: alignment.startMs,
        lines: alignment.lines.map((l, i) => ({ at: lineTime(at(l.at)), text: String(i) })),
        writeLine: (index) => layout.write(Number(index)),
        frames: [...probeOf.keys()],
        onFrame: (probe, snapshot) => probes.onFrame(probeOf.get(probe)!, snapshot),
      });
      await exitAfterReplay({ recorder, clock, screen, lingerMs: o.lingerMs, ...(o.atExit ? { atExit: o.atExit } : {}) });
      if (sink.failure) throw new Error(`sidecar: ${sink.failure}`);
      const misses = db.listEvents({ runId }).filter((e) => e.type === 'miss');
      if (misses.length > 0 && o.missesExpected !== true) {
        throw new Error(`${o.name}: ${misses.length} miss(es) reported on a recording rec reads: ${misses.map((m) => `${m.call_id} (${JSON.stringify((m.native as { decision?: unknown } | null)?.decision)})`).join(', ')}`);
      }
      // Where the user goes next: what the replay recorded comes out of merge and stats of its run.
      const journey = await expectJourney({ dbPath: db.path, runId, inProcess: true });
      await o.afterJourney?.({ dbPath: db.path, runId, journey });
      return collect({ cast, db, runId, screen, frames, keysSent, forwarded, journey });
    } finally {
      recorder.dispose();
      screen.dispose();
      db.close();
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** A replay's sidecar: a real file in the replay's temporary folder, as `rec <agent>` writes one. */
function openReplaySidecar(dir: string): SidecarDb {
  const opened = openSidecar(join(dir, 'rec.db'));
  if (!opened.ok) throw new Error(opened.error);
  return opened.db;
}

/** The recorder's context as rec gives it, without hooks (the recorder finds the session file itself); its debug log goes to stdout with REC_REPLAY_DEBUG=1. */
function replayContext(o: { runId: string; cwd: string; env: NodeJS.ProcessEnv; startMs: number; screen: ScreenModel; sink: RecorderContext['sink'] }): RecorderContext {
  return {
    runId: o.runId,
    cwd: o.cwd,
    env: o.env,
    startedAt: new Date(o.startMs),
    screen: o.screen,
    sink: o.sink,
    hooks: new Emitter<HookMessage>().event,
    debug: process.env.REC_REPLAY_DEBUG === '1' ? (m: string) => console.log(m) : () => {},
  };
}

/**
 * The run's end, as rec ends one: the agent's last screen stays a moment (long enough for the
 * recorder's settle checks and polls), then handleExit is told to stop RECONCILE_AFTER_EXIT_MS after
 * the exit.
 */
async function exitAfterReplay(o: { recorder: Recorder; clock: VirtualClock; screen: ScreenModel; lingerMs: number; atExit?: () => void }): Promise<void> {
  const idle = () => o.screen.whenIdle();
  // The agent did it as it quit (Gemini deletes its file before it exits), so before the recorder's
  // timers run out on the last screen.
  o.atExit?.();
  await o.clock.advanceTo(o.clock.now() + o.lingerMs, idle);
  const stop = new AbortController();
  o.clock.setTimeout(() => stop.abort(), RECONCILE_AFTER_EXIT_MS);
  await o.clock.runUntil(o.recorder.handleExit({ exitCode: 0 }, stop.signal), RECONCILE_AFTER_EXIT_MS * 2, idle);
}
