// Gemini CLI's part of the recorded-session replay (test/support/recordedRun.ts) of its
// recordings (test/fixtures/gemini/0.61.0/recorded, made by scripts/record-gemini-fixtures.mjs): the
// chat file goes into a temporary ~/.gemini/tmp/<slug>/chats as Gemini wrote it (deleted at exit for
// the sessions Gemini deleted), with the records' work dir renamed to the replay's; it is anchored by
// the records whose text the screen shows, and each frame is compared with the screens just before it
// too. No hooks: the recorder finds the chat file through projects.json and the user message the
// screen shows, as it does when the SessionStart hook is missing.
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { IGNORED_KEY_SETTLE_MS, SESSION_POLL_MS } from '../../../src/agents/common/agentRecorder.js';
import { GeminiRecorder } from '../../../src/agents/gemini/recorder.js';
import type { RecEvent } from '../../../src/core/events.js';
import type { ScreenSnapshot } from '../../../src/core/screen.js';
import { EDIT_FILE } from '../../../src/lab/mock/googleGenerateContent/scenarios.js';
import type { StampedLine } from '../castAlignment.js';
import type { Journey } from '../journey.js';
import { screenText, type Cast, type ScreenFrame } from '../castReplay.js';
import { fixturesDir } from '../agentVersions.js';
import { agentReplaySettings, replayRecording, type AgentReplayOptions, type SessionLayout } from '../recordedRun.js';
import { readToolCalls, type SessionToolCall } from './sessionSnapshots.js';

export const RECORDED_DIR = join(fixturesDir('gemini'), 'recorded');
/** The work dir the fixture recorder ran Gemini in; the chat records name it in file paths. */
const RECORDED_CWD = '/tmp/rec-gemini-fx/work';
/** The real Gemini CLI the repository pins: the recorder reads its version from its package.json. */
const GEMINI_BIN = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../node_modules/.bin/gemini');
/** The project's slug under ~/.gemini/tmp (any name: projects.json is what the recorder reads). */
const SLUG = 'work';

/**
 * The sessions Gemini deleted at exit (a deny-only turn or a cut stream: the fixtures' README). The
 * replay deletes the chat file when the cast ends, as Gemini did, before rec's reconciliation.
 */
const DELETED_AT_EXIT = new Set([
  'shell-reject-esc',
  'shell-reject-digit',
  'shell-reject-down-enter',
  'shell-reject-esc-kitty',
  'edit-reject-esc',
  'parallel-writes-reject-first',
  'parallel-shell-esc',
  'stream-esc',
  'stream-ctrlc',
]);

/** Keys that write a record: a prompt sent, a dialog decided, a request cancelled. Typed text writes none. */
const DECISIVE_KEY = /^(\r|\x1b|\x03|[0-9]|\x1b\[27u)$/;
/** How far behind the output the fixture recorder's terminal may have been when it took a frame. */
const FRAME_PARSE_LAG_MS = 20;
/** A probe this much before an output chunk sees the screen without it (steps at equal times sort output first). */
const JUST_BEFORE_S = 1e-6;
/** Chars of a record's text looked for in the output to place it on the cast's clock. */
const ANCHOR_CHARS = 12;

const Stamps = z.looseObject({
  timestamp: z.string().optional(),
  startTime: z.string().optional(),
  lastUpdated: z.string().optional(),
  type: z.string().optional(),
  content: z.unknown().optional(),
  toolCalls: z.array(z.looseObject({ timestamp: z.string().optional() })).optional(),
  $set: z.looseObject({ lastUpdated: z.string().optional() }).optional(),
});
type Stamps = z.infer<typeof Stamps>;

/**
 * When Gemini wrote the line. A message carries the time it was created, and is appended again with
 * the same id and time when updated: a batch's calls are written when it resolves, each call
 * stamped then, so the latest time on the line is its write. `$set` lines carry `lastUpdated`.
 */
function writtenAt(r: Stamps): number | undefined {
  const times = [r.timestamp, r.lastUpdated ?? r.startTime, r.$set?.lastUpdated, ...(r.toolCalls ?? []).map((c) => c.timestamp)];
  const ms = times.filter((t): t is string => t !== undefined).map((t) => Date.parse(t));
  return ms.length > 0 ? Math.max(...ms) : undefined;
}

/** Records a key wrote: the user's messages, "Request cancelled.", a batch's calls (resolved by a decision). */
function causedByKey(r: Stamps): boolean {
  return r.type === 'user' || r.type === 'info' || (r.toolCalls?.length ?? 0) > 0;
}

/** The text a record shows on screen: an info line or the model's answer. */
function shownText(r: Stamps): string | undefined {
  if ((r.type !== 'info' && r.type !== 'gemini') || typeof r.content !== 'string') return undefined;
  const text = r.content.trim();
  return text === '' ? undefined : text.slice(0, ANCHOR_CHARS);
}

/**
 * The cast's t = 0 on Gemini's clock. Every prompt was sent while Gemini was still initializing
 * (it queues it), so the first Enter says nothing; a record whose text the screen shows was written
 * before that output, so each gives a lower bound of the start, and the latest bound is the estimate.
 */
function estimateStartMs(name: string, cast: Cast, parsed: readonly Stamps[]): number {
  let best: number | undefined;
  for (const r of parsed) {
    const text = shownText(r);
    const at = r.timestamp === undefined ? undefined : Date.parse(r.timestamp);
    if (text === undefined || at === undefined) continue;
    const shown = cast.events.find((e) => e.kind === 'o' && e.data.includes(text));
    if (shown) best = Math.max(best ?? -Infinity, at - shown.t * 1000);
  }
  if (best === undefined) throw new Error(`${name}: no record shown on screen to align the chat file with the cast`);
  return best;
}

export interface FrameCheck {
  readonly frame: ScreenFrame;
  /**
   * The replayed screen (as screenText() prints it) at the frame's time, and before each output
   * chunk of the FRAME_PARSE_LAG_MS before it, latest first: the recorder took its frames from its
   * own headless terminal, which parses output asynchronously, so a frame may not show the last
   * chunks received yet.
   */
  readonly replayed: readonly string[];
  readonly replayedSize: string;
}

export interface RecordedRun {
  readonly cast: Cast;
  readonly events: RecEvent[];
  /** The session's tool calls, each in its last written state (paths as the replay wrote them). */
  readonly calls: SessionToolCall[];
  /** Each recorded frame with the replayed screen at its time. */
  readonly frames: readonly FrameCheck[];
  /** The replayed screen once the cast has ended, as screenText() prints it. */
  readonly finalScreen: string;
  readonly agentRecords: number;
  readonly sessionLines: number;
  /** The session id the run row names (the recorder read it from the chat file). */
  readonly sessionId: string | null;
  /** The session id of the chat file's first line. */
  readonly metaSessionId: string;
  readonly keysSent: Buffer;
  readonly forwarded: Buffer;
  /** What `rec merge` and `rec stats` made of the run (replayRecording checked every decision came out). */
  readonly journey: Journey;
}

export interface ReplayOptions extends AgentReplayOptions {
  /** Everything this many times as fast: a quicker model and machine too (shared/recordedRun.ts). */
  readonly speedup?: number;
  /** Every batch of calls written in the reverse order (Gemini's order within a batch is not the model's). */
  readonly reversedBatches?: boolean;
}

/** The line with its batch of calls in the reverse order (a line of fewer than two calls as it is). */
function reverseBatch(line: string): string {
  const record = JSON.parse(line) as { toolCalls?: unknown[] };
  if (!Array.isArray(record.toolCalls) || record.toolCalls.length < 2) return line;
  return JSON.stringify({ ...record, toolCalls: [...record.toolCalls].reverse() });
}

export async function replayRecorded(name: string, options: ReplayOptions = {}): Promise<RecordedRun> {
  const dir = options.dir ?? RECORDED_DIR;
  let raw: string[] = [];
  let sessionIdOfFile = '';
  let chatFile = '';
  const seen = new Map<ScreenFrame, { replayed: string[]; size: string }>();
  let recordedFrames: readonly ScreenFrame[] = [];
  const layout = (cast: Cast, home: string): SessionLayout => {
    const cwd = join(home, 'work');
    // The work dir as the fixture recorder set it up (env.ts): a refused edit is checked on disk.
    mkdirSync(cwd);
    writeFileSync(join(cwd, EDIT_FILE.name), EDIT_FILE.content);
    // The records' absolute paths name the recorder's work dir: they name this replay's instead.
    raw = readFileSync(join(dir, `${name}.session.jsonl`), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => l.split(RECORDED_CWD).join(cwd))
      .map((l) => (options.reversedBatches ? reverseBatch(l) : l));
    const parsed = raw.map((text) => Stamps.parse(JSON.parse(text)));
    let lastTs = 0;
    const stamped: StampedLine[] = raw.map((text, i) => {
      lastTs = Math.max(lastTs, writtenAt(parsed[i]!) ?? lastTs);
      return { text, ts: lastTs, causedByKey: causedByKey(parsed[i]!) };
    });
    const estimate = estimateStartMs(name, cast, parsed);
    const chats = join(home, '.gemini', 'tmp', SLUG, 'chats');
    mkdirSync(chats, { recursive: true });
    writeFileSync(join(home, '.gemini', 'projects.json'), JSON.stringify({ projects: { [cwd]: SLUG } }));
    const meta = z.object({ sessionId: z.string(), startTime: z.string() }).parse(JSON.parse(raw[0]!));
    sessionIdOfFile = meta.sessionId;
    const file = join(chats, `session-${meta.startTime.slice(0, 16).replace(/:/g, '-')}-${meta.sessionId.slice(0, 8)}.jsonl`);
    chatFile = file;
    return {
      cwd,
      env: { HOME: home, PATH: '', REC_GEMINI_BIN: GEMINI_BIN },
      lines: stamped,
      keyTimes: cast.events.filter((e) => e.kind === 'i' && DECISIVE_KEY.test(e.data)).map((e) => e.t),
      estimateStartMs: estimate,
      write: (index) => appendFileSync(file, raw[index]! + '\n'),
    };
  };
  // Each frame is looked at at its time and just before each output chunk of the FRAME_PARSE_LAG_MS before it.
  const probes = (cast: Cast, frames: readonly ScreenFrame[]) => {
    recordedFrames = frames;
    const all = frames.flatMap((frame) => [
      ...cast.events.filter((e) => e.kind === 'o' && e.t <= frame.t && (frame.t - e.t) * 1000 < FRAME_PARSE_LAG_MS).map((e) => ({ of: frame, at: { ...frame, t: e.t - JUST_BEFORE_S } })),
      { of: frame, at: frame },
    ]);
    const byProbe = new Map<ScreenFrame, ScreenFrame>(all.map((p) => [p.at, p.of]));
    return {
      at: all.map((p) => p.at),
      onFrame: (probe: ScreenFrame, snapshot: ScreenSnapshot) => {
        const frame = byProbe.get(probe)!;
        const entry = seen.get(frame) ?? { replayed: [], size: '' };
        entry.replayed.unshift(screenText(snapshot));
        entry.size = `${snapshot.cols}x${snapshot.rows}`;
        seen.set(frame, entry);
      },
    };
  };
  return replayRecording(
    {
      agent: 'gemini',
      dir,
      name,
      layout,
      recorder: (context, clock) => new GeminiRecorder(context, { clock }),
      ...agentReplaySettings(options),
      ...(options.speedup !== undefined ? { speedup: options.speedup } : {}),
      probes,
      // The cast ends at Gemini's exit.
      lingerMs: IGNORED_KEY_SETTLE_MS + SESSION_POLL_MS,
      atExit: () => {
        if (DELETED_AT_EXIT.has(name)) rmSync(chatFile);
      },
      linesBeforeExit: DELETED_AT_EXIT.has(name),
    },
    ({ cast, db, runId, screen, keysSent, forwarded, journey }) => ({
      journey,
      cast,
      events: db.listEvents({ runId }),
      calls: readToolCalls(raw.join('\n')),
      frames: recordedFrames.map((frame) => ({ frame, replayed: seen.get(frame)?.replayed ?? [], replayedSize: seen.get(frame)?.size ?? '' })),
      finalScreen: screenText(screen.snapshot()),
      agentRecords: db.listAgentRecords(runId).length,
      sessionLines: raw.length,
      sessionId: db.getRun(runId)?.agent_session_id ?? null,
      metaSessionId: sessionIdOfFile,
      keysSent,
      forwarded,
    }),
  );
}
