// One recorded Codex 0.169.0 session (test/fixtures/codex/0.169.0/recorded, made by
// scripts/record-codex-fixtures.mjs) replayed through the pipeline's real parts: the pty output into
// a ScreenModel, the keys through the InputRelay to a CodexRecorder writing to an in-memory sidecar
// database, and the rollout written into a temporary $CODEX_HOME/sessions as Codex wrote it, on the
// recording's clock (castAlignment.ts).
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { IGNORED_KEY_SETTLE_MS, SESSION_POLL_MS } from '../../../src/agents/common/agentRecorder.js';
import { CodexRecorder } from '../../../src/agents/codex/recorder.js';
import type { RecEvent } from '../../../src/core/events.js';
import type { ScreenSnapshot } from '../../../src/core/screen.js';
import { ScreenModel } from '../../../src/screen/screenModel.js';
import { createEventSink } from '../../../src/store/eventSink.js';
import { expectJourney } from '../../helpers/journey.js';
import { readRolloutCalls, type RolloutCall } from './rolloutCalls.js';
import { alignToCast, type StampedLine } from '../../helpers/castAlignment.js';
import { readCast, readScreenFrames, replayCast, screenText, type Cast, type ScreenFrame } from '../../helpers/castReplay.js';
import { exitAfterReplay, openReplaySidecar, replayContext } from '../shared/recorderReplay.js';
import { VirtualClock } from '../../helpers/virtualClock.js';
import { fixturesDir } from '../../helpers/agentVersions.js';

export const RECORDED_DIR = join(fixturesDir('codex'), 'recorded');
/** The work dir the recorder script ran Codex in; the rollouts' session_meta names it. */
export const RECORDED_CWD = '/tmp/rec-codex-fx/work';

const RolloutLine = z.object({ timestamp: z.string(), type: z.string(), payload: z.record(z.string(), z.unknown()) }).loose();
type RolloutLine = z.infer<typeof RolloutLine>;

/** Codex's status OSC: `ESC ] 7501 ; state=working:…` is drawn once the turn started. */
const FIRST_WORKING = /\x1b\]7501;state=working\b/;

/** Records Codex 0.169.0 writes only because of a key: a turn started or cut, a call's outcome, a typed message. */
function causedByKey(r: RolloutLine): boolean {
  const p = r.payload;
  if (r.type === 'event_msg') return p.type === 'task_started' || p.type === 'turn_aborted';
  if (r.type !== 'response_item') return false;
  if (p.type === 'function_call_output' || p.type === 'custom_tool_call_output') return true;
  if (p.type !== 'message' || p.role !== 'user') return false;
  const content = z.array(z.object({ text: z.string().optional() }).loose()).safeParse(p.content);
  // Harness messages (<environment_context>, <turn_aborted>) are Codex's own, not the user's.
  return content.success && !content.data.map((c) => c.text ?? '').join('').startsWith('<');
}

export interface FrameCheck {
  readonly frame: ScreenFrame;
  /** The replayed screen at the frame's time, as screenText() prints it. */
  readonly replayed: string;
  readonly replayedSize: string;
}

export interface RecordedRun {
  readonly cast: Cast;
  readonly events: RecEvent[];
  readonly calls: RolloutCall[];
  readonly frames: FrameCheck[];
  readonly finalScreen: ScreenSnapshot;
  readonly agentRecords: number;
  readonly rolloutLines: number;
  readonly keysSent: Buffer;
  readonly forwarded: Buffer;
}

export interface ReplayOptions {
  /**
   * Writes every rollout line this much later than its aligned time (Codex's rollout writer flushes
   * asynchronously; a loaded machine delays it further). The recorder must record the same events.
   */
  readonly rolloutLagMs?: number;
}

export async function replayRecorded(name: string, options: ReplayOptions = {}): Promise<RecordedRun> {
  const cast = readCast(join(RECORDED_DIR, `${name}.cast`));
  const rolloutFile = join(RECORDED_DIR, `${name}.rollout.jsonl`);
  const raw = readFileLines(rolloutFile);
  const parsed = raw.map((text) => RolloutLine.parse(JSON.parse(text)));
  const stamped: StampedLine[] = raw.map((text, i) => ({ text, ts: Date.parse(parsed[i]!.timestamp), causedByKey: causedByKey(parsed[i]!) }));
  const firstTurn = parsed.find((r) => r.type === 'event_msg' && r.payload.type === 'task_started');
  const firstWorking = cast.events.find((e) => e.kind === 'o' && FIRST_WORKING.test(e.data));
  if (!firstTurn || !firstWorking) throw new Error(`${name}: no turn start to align the rollout with the cast`);
  const alignment = alignToCast(
    stamped,
    cast.events.filter((e) => e.kind === 'i').map((e) => e.t),
    Date.parse(firstTurn.timestamp) - firstWorking.t * 1000,
  );

  const home = mkdtempSync(join(tmpdir(), 'rec-codex-recorded-'));
  const meta = parsed[0]!;
  const day = new Date(meta.timestamp);
  const dir = join(home, 'sessions', String(day.getUTCFullYear()), pad(day.getUTCMonth() + 1), pad(day.getUTCDate()));
  mkdirSync(dir, { recursive: true });
  const sessionFile = join(dir, `rollout-${meta.timestamp.replace(/[:.]/g, '-')}-${String(meta.payload.id)}.jsonl`);

  const db = openReplaySidecar(home);
  const runId = `replay-${name}`;
  db.startRun({ id: runId, agent: 'codex', argv: [], cwd: RECORDED_CWD, started_at: new Date(alignment.startMs).toISOString() });
  const sink = createEventSink(db, { run_id: runId, agent: 'codex' });
  const screen = new ScreenModel({ cols: cast.cols, rows: cast.rows });
  const clock = new VirtualClock(alignment.startMs);
  const recorder = new CodexRecorder(replayContext({ runId, cwd: RECORDED_CWD, env: { CODEX_HOME: home }, startMs: alignment.startMs, screen, sink }), { clock });
  const frames: FrameCheck[] = [];
  try {
    const { forwarded, keysSent } = await replayCast({
      cast,
      screen,
      keys: recorder,
      clock,
      startMs: alignment.startMs,
      lines: alignment.lines.map((l) => ({ at: l.at + (options.rolloutLagMs ?? 0) / 1000, text: l.text })),
      writeLine: (text) => appendFileSync(sessionFile, text + '\n'),
      frames: readScreenFrames(join(RECORDED_DIR, `${name}.screen.txt`)),
      onFrame: (frame, snapshot) => frames.push({ frame, replayed: screenText(snapshot), replayedSize: `${snapshot.cols}x${snapshot.rows}` }),
    });
    // The recording stops with Codex's last screen; it stays a moment longer (Codex was killed right
    // after it was captured), long enough for the recorder's settle checks and polls to run on it.
    await exitAfterReplay({ recorder, clock, screen, lingerMs: IGNORED_KEY_SETTLE_MS + SESSION_POLL_MS });
    if (sink.failure) throw new Error(`sidecar: ${sink.failure}`);
    // Where the user goes next: what the replay recorded comes out of merge and stats of its run.
    await expectJourney({ dbPath: db.path, runId, inProcess: true });
    return {
      cast,
      events: db.listEvents({ runId }),
      calls: readRolloutCalls(rolloutFile),
      frames,
      finalScreen: screen.snapshot(),
      agentRecords: db.listAgentRecords(runId).length,
      rolloutLines: raw.length,
      keysSent,
      forwarded,
    };
  } finally {
    recorder.dispose();
    screen.dispose();
    db.close();
    rmSync(home, { recursive: true, force: true });
  }
}

function readFileLines(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
}

const pad = (n: number) => String(n).padStart(2, '0');
