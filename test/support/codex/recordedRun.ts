// Codex's part of the recorded-session replay (test/support/recordedRun.ts) of its recordings
// (test/fixtures/codex/<version>/recorded, made by scripts/record-codex-fixtures.mjs): the rollout goes
// into a temporary $CODEX_HOME/sessions/<yyyy>/<mm>/<dd> as Codex wrote it, anchored at the first
// turn (its task_started record at the first "working" status on screen, or its end at the next
// "idle" status when that places it later: estimateStart).
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { IGNORED_KEY_SETTLE_MS, SESSION_POLL_MS } from '../../../src/agents/common/agentRecorder.js';
import { CodexRecorder } from '../../../src/agents/codex/recorder.js';
import type { RecEvent } from '../../../src/core/events.js';
import type { ScreenSnapshot } from '../../../src/core/screen.js';
import type { Cast } from '../castReplay.js';
import type { Journey } from '../journey.js';
import { fixturesDir, verifiedVersions } from '../agentVersions.js';
import { agentReplaySettings, replayRecording, type AgentReplayOptions, type FrameCheck, type SessionLayout } from '../recordedRun.js';
import { readRolloutCalls, type RolloutCall } from './rolloutCalls.js';

/** The pinned version's recordings (each verified version's: RECORDED_BY_VERSION). */
export const RECORDED_DIR = join(fixturesDir('codex'), 'recorded');
/** The recordings of every verified version, oldest first: each keeps replaying after a newer one is pinned. */
export const RECORDED_BY_VERSION = verifiedVersions('codex').map((v) => ({ version: v.version, recorded: join(v.fixtures, 'recorded') }));
/** The work dir the recorder script ran Codex in; the rollouts' session_meta names it. */
export const RECORDED_CWD = '/tmp/rec-codex-fx/work';

const RolloutLine = z.object({ timestamp: z.string(), type: z.string(), payload: z.record(z.string(), z.unknown()) }).loose();
type RolloutLine = z.infer<typeof RolloutLine>;

/** Codex's status OSC: `ESC ] 7501 ; state=working:…` is drawn once the turn started. */
const FIRST_WORKING = /\x1b\]7501;state=working\b/;
/** And `state=idle` once it has ended (the composer is free again). */
const IDLE = /\x1b\]7501;state=idle\b/;

/** Records Codex (0.169.0 and 0.171.0) writes only because of a key: a turn started or cut, a call's outcome, a typed message. */
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
  /** What `rec merge` and `rec stats` of the run gave. */
  readonly journey: Journey;
}

/** Codex takes the shared options only. */
export type ReplayOptions = AgentReplayOptions;

export async function replayRecorded(name: string, options: ReplayOptions = {}): Promise<RecordedRun> {
  const dir = options.dir ?? RECORDED_DIR;
  const rolloutFile = join(dir, `${name}.rollout.jsonl`);
  const raw = readFileLines(rolloutFile);
  const parsed = raw.map((text) => RolloutLine.parse(JSON.parse(text)));
  const layout = (cast: Cast, home: string): SessionLayout => {
    const firstTurn = parsed.find((r) => r.type === 'event_msg' && r.payload.type === 'task_started');
    const firstWorking = cast.events.find((e) => e.kind === 'o' && FIRST_WORKING.test(e.data));
    if (!firstTurn || !firstWorking) throw new Error(`${name}: no turn start to align the rollout with the cast`);
    const turnEnd = parsed.find((r) => r.type === 'event_msg' && (r.payload.type === 'task_complete' || r.payload.type === 'turn_aborted'));
    const idle = cast.events.find((e) => e.kind === 'o' && e.t > firstWorking.t && IDLE.test(e.data));
    const meta = parsed[0]!;
    const day = new Date(meta.timestamp);
    const sessionDir = join(home, 'sessions', String(day.getUTCFullYear()), pad(day.getUTCMonth() + 1), pad(day.getUTCDate()));
    mkdirSync(sessionDir, { recursive: true });
    const sessionFile = join(sessionDir, `rollout-${meta.timestamp.replace(/[:.]/g, '-')}-${String(meta.payload.id)}.jsonl`);
    return {
      cwd: RECORDED_CWD,
      env: { CODEX_HOME: home },
      lines: raw.map((text, i) => ({ text, ts: Date.parse(parsed[i]!.timestamp), causedByKey: causedByKey(parsed[i]!) })),
      keyTimes: cast.events.filter((e) => e.kind === 'i').map((e) => e.t),
      estimateStartMs: estimateStart(Date.parse(firstTurn.timestamp), firstWorking.t, turnEnd && idle ? { ts: Date.parse(turnEnd.timestamp), t: idle.t } : undefined),
      write: (index) => appendFileSync(sessionFile, raw[index]! + '\n'),
    };
  };
  return replayRecording(
    {
      agent: 'codex',
      dir,
      name,
      layout,
      recorder: (context, clock) => new CodexRecorder(context, { clock }),
      ...agentReplaySettings(options),
      // The recording stops with Codex's last screen; it stays a moment longer (Codex was killed right
      // after it was captured), long enough for the recorder's settle checks and polls to run on it.
      lingerMs: IGNORED_KEY_SETTLE_MS + SESSION_POLL_MS,
    },
    ({ cast, db, runId, screen, frames, keysSent, forwarded, journey }) => ({
      journey,
      cast,
      events: db.listEvents({ runId }),
      calls: readRolloutCalls(rolloutFile),
      frames,
      finalScreen: screen.snapshot(),
      agentRecords: db.listAgentRecords(runId).length,
      rolloutLines: raw.length,
      keysSent,
      forwarded,
    }),
  );
}

/**
 * The cast's t = 0 on the rollout's clock, from the first turn: its start (task_started at the first
 * "working" status) and, when the turn ended on screen, its end (task_complete or turn_aborted at the
 * next "idle" status), whichever places the rollout later. Codex 0.169.0 stamps task_started as it
 * draws "working"; 0.171.0 draws "working" first and stamps task_started some 0.3 s later, so the
 * start alone would put the turn's records, its "aborted by user" outputs too, ahead of the key
 * that caused them, further than the causality correction (castAlignment.ts) attributes to a key.
 * No record is placed before the screen shows what it records.
 */
function estimateStart(turnStartedMs: number, workingT: number, end: { ts: number; t: number } | undefined): number {
  const fromStart = turnStartedMs - workingT * 1000;
  return end ? Math.min(fromStart, end.ts - end.t * 1000) : fromStart;
}

function readFileLines(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
}

const pad = (n: number) => String(n).padStart(2, '0');
