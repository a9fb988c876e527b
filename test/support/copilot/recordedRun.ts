// GitHub Copilot CLI's part of the recorded-session replay (test/support/recordedRun.ts) of its
// recordings (test/fixtures/copilot/<version>/recorded, made by scripts/record-copilot-fixtures.mjs):
// events.jsonl goes into a temporary $COPILOT_HOME/session-state/<sessionId>/ (the id is the
// session.start's) as Copilot wrote it. The recordings' `<BASE>` is put back as the folder it stood
// for, in the pty output, the events and the frames alike (Copilot drew the screens with that
// path's width), and the run's cwd is that folder's `work`, as the events name it; nothing of it is
// read from disk. No hooks: the recorder finds the file by scanning, as it always does for Copilot.
//
// On the cast's clock: the file appears only with the first prompt (docs/copilot.md §1), so the
// lines stamped before it (session.start, or a resumed start's session.resume) are written with it.
// The file is anchored by the lines whose effect the screen shows after they were written (a
// prompt's request before its box, an abort before "Operation cancelled by user"): each gives a
// lower bound of the start, and the latest bound is the estimate, which places every line as late
// as the screen allows; a recording with none of them is anchored at its first Enter. A later start
// of a recording (`resume-continue.launch2`: `copilot --continue`) is replayed as a name of its own:
// the earlier start's lines are in the file before the run begins.
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { IGNORED_KEY_SETTLE_MS, SESSION_POLL_MS } from '../../../src/agents/common/agentRecorder.js';
import { CopilotRecorder } from '../../../src/agents/copilot/recorder.js';
import { EVENT_TEXTS } from '../../../src/agents/copilot/sessionRecords.js';
import type { RecEvent } from '../../../src/core/events.js';
import type { ScreenSnapshot } from '../../../src/core/screen.js';
import { fixturesDir, verifiedVersions } from '../agentVersions.js';
import type { StampedLine } from '../castAlignment.js';
import { screenText, type Cast, type ScreenFrame } from '../castReplay.js';
import type { CallRef } from '../expectedRows.js';
import type { Journey } from '../journey.js';
import { agentReplaySettings, replayRecording, type AgentReplayOptions, type SessionLayout } from '../recordedRun.js';

/** The pinned version's recordings (each verified version's: RECORDED_BY_VERSION). */
export const RECORDED_DIR = join(fixturesDir('copilot'), 'recorded');
/** The recordings of every verified version, oldest first: each keeps replaying after a newer one is pinned. */
export const RECORDED_BY_VERSION = verifiedVersions('copilot').map((v) => ({ version: v.version, recorded: join(v.fixtures, 'recorded') }));
/** What `<BASE>` stood for when the recordings were made (their README). */
const RECORDED_BASE = '/tmp/rec-copilot-fx';
/** The work dir Copilot ran in: session.start's context names it. */
export const RECORDED_CWD = `${RECORDED_BASE}/work`;

/** A recording's text with `<BASE>` put back as the folder it stood for. */
export function restoreBase(text: string): string {
  return text.replaceAll('<BASE>', RECORDED_BASE);
}

const Envelope = z.looseObject({ type: z.string(), data: z.record(z.string(), z.unknown()), timestamp: z.string() });
type Envelope = z.infer<typeof Envelope>;

/** Keys that write a line: a prompt sent, a prompt or a form answered, a turn cut, the quit. Typed text and arrows write none. */
const DECISIVE_KEY = /^(\r|\x1b|\x03|[0-9])$/;
/** Lines only a key writes (docs/copilot.md §3, §5, §9). */
const CAUSED_BY_KEY = new Set(['user.message', 'permission.completed', 'abort', 'human_response.recorded', 'session.shutdown']);
/** Chars of a text looked for in the output. */
const ANCHOR_CHARS = 24;
/** How far behind the output the fixture recorder's terminal may have been when it took a frame. */
const FRAME_PARSE_LAG_MS = 20;
/** A probe this much before an output chunk sees the screen without it (steps at equal times sort output first). */
const JUST_BEFORE_S = 1e-6;

/**
 * Lines whose effect the screen shows only once they were written, and the text it shows: the
 * prompt's request before its box is drawn (the session locator relies on that too), ask_user's
 * start before its form, a turn's abort before its "cancelled" row, a rule's refusal before its row.
 */
const SHOWN_AFTER: ReadonlyArray<{ readonly line: (e: Envelope) => boolean; readonly shown: string }> = [
  { line: (e) => e.type === 'permission.requested', shown: 'Do you want' },
  { line: (e) => e.type === 'tool.execution_start' && e.data['toolName'] === 'ask_user', shown: 'Copilot needs information' },
  { line: (e) => e.type === 'abort', shown: 'Operation cancelled by user' },
  { line: (e) => e.type === 'tool.execution_complete' && JSON.stringify(e.data['error'] ?? null).includes(EVENT_TEXTS.ruleDenialPrefix), shown: EVENT_TEXTS.ruleDenialPrefix.slice(0, ANCHOR_CHARS) },
];

/** The name of a later start of a recording: `<scenario>.launch<N>`. */
const LATER_START = /^(.+)\.launch(\d+)$/;

/** One start of a recording: the file's lines before it, and its own. */
interface LaunchPart {
  readonly before: readonly string[];
  readonly own: readonly string[];
}

/** `<scenario>` is its first start, `<scenario>.launch<N>` its N-th (each later start appends from its session.resume). */
function launchPart(name: string, lines: readonly string[]): LaunchPart {
  const launch = Number(LATER_START.exec(name)?.[2] ?? 1);
  const resumes = lines.flatMap((l, i) => (Envelope.parse(JSON.parse(l)).type === 'session.resume' ? [i] : []));
  const from = launch === 1 ? 0 : resumes[launch - 2];
  if (from === undefined) throw new Error(`${name}: no start ${launch} in its events`);
  const to = resumes[launch - 1] ?? lines.length;
  return { before: lines.slice(0, from), own: lines.slice(from, to) };
}

/**
 * When Copilot wrote each line of its part, in file order: its stamp, except that the lines before
 * the part's first prompt went out with it (the file appears, or a resumed session is appended to,
 * only then). Kept in file order where a stamp is older than the one before it.
 */
function stampLines(own: readonly string[], parsed: readonly Envelope[]): StampedLine[] {
  const firstPrompt = parsed.find((e) => e.type === 'user.message');
  let lastTs = firstPrompt === undefined ? 0 : Date.parse(firstPrompt.timestamp);
  return own.map((text, i) => {
    lastTs = Math.max(lastTs, Date.parse(parsed[i]!.timestamp));
    return { text, ts: lastTs, causedByKey: CAUSED_BY_KEY.has(parsed[i]!.type) };
  });
}

/**
 * The cast's t = 0 on Copilot's clock: the latest lower bound the SHOWN_AFTER lines give (each was
 * written before the first output after the first Enter that shows its effect), and a later start's
 * (it began after the earlier start's last line); without one, the first prompt's line at its
 * Enter (alignToCast then puts it just after); a part with no line at all, the cast header's second.
 */
function estimateStartMs(cast: Cast, castFile: string, parsed: readonly Envelope[], before: readonly Envelope[]): number {
  const firstEnter = cast.events.find((e) => e.kind === 'i' && e.data === '\r');
  const after = cast.events.filter((e) => e.kind === 'o' && e.t >= (firstEnter?.t ?? 0));
  // An earlier start's lines were all written before this one began (its Copilot had quit).
  const earlier = before.at(-1);
  let best = earlier === undefined ? undefined : Date.parse(earlier.timestamp) + 1;
  for (const anchor of SHOWN_AFTER) {
    const line = parsed.find(anchor.line);
    const shown = after.find((e) => e.data.includes(anchor.shown));
    if (line && shown) best = Math.max(best ?? -Infinity, Date.parse(line.timestamp) - shown.t * 1000);
  }
  if (best !== undefined) return best;
  const prompt = parsed.find((e) => e.type === 'user.message');
  if (prompt && firstEnter) return Date.parse(prompt.timestamp) - firstEnter.t * 1000;
  const header = z.looseObject({ timestamp: z.number() }).parse(JSON.parse(readFileSync(castFile, 'utf8').split('\n', 1)[0]!));
  return header.timestamp * 1000;
}

/** The calls the model asked for in these lines, in order. */
function callsOf(parsed: readonly Envelope[]): CallRef[] {
  const Requests = z.array(z.looseObject({ toolCallId: z.string(), name: z.string(), arguments: z.record(z.string(), z.unknown()).optional() }));
  return parsed
    .filter((e) => e.type === 'assistant.message')
    .flatMap((e) => Requests.parse(e.data['toolRequests'] ?? []))
    .map((r) => ({ callId: r.toolCallId, name: r.name, args: r.arguments ?? {} }));
}

/** The calls Copilot asked the user about, in the order of their first requests: the order its queue shows them in (docs/copilot.md §4). */
function promptedOf(parsed: readonly Envelope[], calls: readonly CallRef[]): CallRef[] {
  const ids = parsed.filter((e) => e.type === 'permission.requested').map((e) => z.looseObject({ permissionRequest: z.looseObject({ toolCallId: z.string() }) }).parse(e.data).permissionRequest.toolCallId);
  return [...new Set(ids)].map((id) => calls.find((c) => c.callId === id)!);
}

export interface FrameCheck {
  /** The recorded frame, `<BASE>` put back. */
  readonly frame: ScreenFrame;
  /**
   * The replayed screen (as screenText() prints it) at the frame's time, and before each output
   * chunk of the FRAME_PARSE_LAG_MS before it, latest first: the fixture recorder took its frames
   * from its own headless terminal, which parses output asynchronously, so a frame may not show the
   * last chunks received yet.
   */
  readonly replayed: readonly string[];
  readonly replayedSize: string;
}

/** Each frame looked at at its time and just before each output chunk of the FRAME_PARSE_LAG_MS before it. */
function frameProbes(seen: Map<ScreenFrame, { replayed: string[]; size: string }>) {
  return (cast: Cast, frames: readonly ScreenFrame[]) => {
    const all = frames.flatMap((frame) => [
      ...cast.events.filter((e) => e.kind === 'o' && e.t <= frame.t && (frame.t - e.t) * 1000 < FRAME_PARSE_LAG_MS).map((e) => ({ of: frame, at: { ...frame, t: e.t - JUST_BEFORE_S } })),
      { of: frame, at: frame },
    ]);
    const byProbe = new Map<ScreenFrame, ScreenFrame>(all.map((p) => [p.at, p.of]));
    for (const frame of frames) seen.set(frame, { replayed: [], size: '' });
    return {
      at: all.map((p) => p.at),
      onFrame: (probe: ScreenFrame, snapshot: ScreenSnapshot) => {
        const entry = seen.get(byProbe.get(probe)!)!;
        entry.replayed.unshift(screenText(snapshot));
        entry.size = `${snapshot.cols}x${snapshot.rows}`;
      },
    };
  };
}

export interface RecordedRun {
  readonly cast: Cast;
  readonly events: RecEvent[];
  /** The calls of this start's part of the file, in the order the model asked for them. */
  readonly calls: CallRef[];
  /** Those Copilot asked the user about, in the order it showed their prompts. */
  readonly prompted: CallRef[];
  /** Each recorded frame with the replayed screens about its time. */
  readonly frames: FrameCheck[];
  /** The replayed screen once the run has ended, as screenText() prints it. */
  readonly finalScreen: string;
  readonly agentRecords: number;
  /** The lines of this start's part. */
  readonly sessionLines: number;
  /** The session id the run row names (the recorder read it from the file). */
  readonly sessionId: string | null;
  /** The session id of the file's session.start; null for a recording without a file. */
  readonly fileSessionId: string | null;
  readonly keysSent: Buffer;
  readonly forwarded: Buffer;
  /** What `rec merge` and `rec stats` of the run gave. */
  readonly journey: Journey;
}

/** Copilot takes the shared options only. */
export type ReplayOptions = AgentReplayOptions;

export async function replayRecorded(name: string, options: ReplayOptions = {}): Promise<RecordedRun> {
  const dir = options.dir ?? RECORDED_DIR;
  const scenario = LATER_START.exec(name)?.[1] ?? name;
  // A session that never got a prompt (the folder trust dialog refused) wrote no events.jsonl.
  const eventsFile = join(dir, `${scenario}.events.jsonl`);
  const all = (existsSync(eventsFile) ? readFileSync(eventsFile, 'utf8') : '').split('\n').filter((l) => l.trim() !== '').map(restoreBase);
  const part = launchPart(name, all);
  const parsed = part.own.map((l) => Envelope.parse(JSON.parse(l)));
  const calls = callsOf(parsed);
  const sessionId = all[0] === undefined ? null : z.object({ data: z.object({ sessionId: z.string() }) }).parse(JSON.parse(all[0])).data.sessionId;
  const layout = (cast: Cast, home: string): SessionLayout => {
    const copilotHome = join(home, '.copilot');
    const file = join(copilotHome, 'session-state', sessionId ?? 'none', 'events.jsonl');
    // The session folder is there from Copilot's start; the file from the first prompt on, or, for a
    // later start, already as the earlier one left it.
    if (sessionId !== null) mkdirSync(join(file, '..'), { recursive: true });
    for (const l of part.before) appendFileSync(file, l + '\n');
    return {
      cwd: RECORDED_CWD,
      env: { HOME: home, COPILOT_HOME: copilotHome },
      lines: stampLines(part.own, parsed),
      keyTimes: cast.events.filter((e) => e.kind === 'i' && DECISIVE_KEY.test(e.data)).map((e) => e.t),
      estimateStartMs: estimateStartMs(cast, join(dir, `${name}.cast`), parsed, part.before.map((l) => Envelope.parse(JSON.parse(l)))),
      write: (index) => appendFileSync(file, part.own[index]! + '\n'),
    };
  };
  const alter = options.alterOutput;
  const seen = new Map<ScreenFrame, { replayed: string[]; size: string }>();
  return replayRecording(
    {
      agent: 'copilot',
      dir,
      name,
      layout,
      recorder: (context, clock) => new CopilotRecorder(context, { clock }),
      ...agentReplaySettings(options),
      // `<BASE>` put back in every run; a test's own alteration on top (its misses expected: agentReplaySettings).
      alterOutput: alter ? (data) => alter(restoreBase(data)) : restoreBase,
      probes: frameProbes(seen),
      // The cast ends at Copilot's exit; its last screen stays long enough for the recorder's settle checks and polls.
      lingerMs: IGNORED_KEY_SETTLE_MS + SESSION_POLL_MS,
    },
    ({ cast, db, runId, screen, keysSent, forwarded, journey }) => ({
      journey,
      cast,
      events: db.listEvents({ runId }),
      calls,
      prompted: promptedOf(parsed, calls),
      frames: [...seen].map(([frame, { replayed, size }]) => ({ frame: { ...frame, text: restoreBase(frame.text) }, replayed, replayedSize: size })),
      finalScreen: screenText(screen.snapshot()),
      agentRecords: db.listAgentRecords(runId).length,
      sessionLines: part.own.length,
      sessionId: db.getRun(runId)?.agent_session_id ?? null,
      fileSessionId: sessionId,
      keysSent,
      forwarded,
    }),
  );
}
