// Replays a recorded terminal session (asciicast v2: pty output chunks "o", keys sent "i", resizes
// "r", with their times) through the real pipeline parts: the output into a real ScreenModel, the
// keys through the real InputRelay (KeyDecoder, lone-Esc rule) to the recorder, and the agent's
// session file written line by line at the point of the session where it grew. Time is the
// recording's: a VirtualClock is moved to each event's time, so the recorder's timers fire at the
// same points on every run. Between steps the replay awaits screen.whenIdle(), never a sleep.
// Agent-neutral: the Codex, Gemini and Claude recorded-session tests share it.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { ScreenSnapshot } from '../../src/core/screen.js';
import type { ScreenModel } from '../../src/screen/screenModel.js';
import { InputRelay, type KeyObserver } from '../../src/session/inputRelay.js';
import type { VirtualClock } from './virtualClock.js';

const CastHeader = z.object({ version: z.literal(2), width: z.number().int().positive(), height: z.number().int().positive(), title: z.string().optional() }).loose();
const CastEvent = z.tuple([z.number().nonnegative(), z.enum(['o', 'i', 'r']), z.string()]);

export interface CastEvent {
  /** Seconds since the recording started. */
  readonly t: number;
  readonly kind: 'o' | 'i' | 'r';
  readonly data: string;
}

export interface Cast {
  readonly cols: number;
  readonly rows: number;
  readonly title: string;
  readonly events: readonly CastEvent[];
}

export function readCast(file: string): Cast {
  const [head, ...rest] = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
  const header = CastHeader.parse(JSON.parse(head ?? 'null'));
  const events = rest.map((line) => {
    const [t, kind, data] = CastEvent.parse(JSON.parse(line));
    return { t, kind, data };
  });
  return { cols: header.width, rows: header.height, title: header.title ?? '', events };
}

/** One labelled screen of a recording (`<name>.screen.txt`), as the recorder rendered it. */
export interface ScreenFrame {
  readonly label: string;
  /** Seconds since the recording started, taken once the output received so far was rendered. */
  readonly t: number;
  readonly cols: number;
  readonly rows: number;
  readonly text: string;
}

/**
 * `# <label> [<key>=<value> …] t=<s>s <cols>x<rows>`: the fields between the label and the time say
 * more of the moment (Copilot's last frame is `# exited code=0 signal=0 t=…`, taken after its exit).
 */
const FRAME_HEADER = /^# (\S+)(?: [a-z]+=\S*)* t=([\d.]+)s (\d+)x(\d+)$/;

/** Frames are written as a ─ rule, a FRAME_HEADER line, a ─ rule, then the screen's rows. */
export function readScreenFrames(file: string): ScreenFrame[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const frames: ScreenFrame[] = [];
  const isRule = (l: string | undefined) => l !== undefined && /^─+$/.test(l);
  for (let i = 0; i < lines.length; i++) {
    const m = isRule(lines[i]) && isRule(lines[i + 2]) ? FRAME_HEADER.exec(lines[i + 1] ?? '') : null;
    if (!m) continue;
    let end = i + 3;
    while (end < lines.length && !(isRule(lines[end]) && FRAME_HEADER.test(lines[end + 1] ?? ''))) end++;
    const text = lines.slice(i + 3, end).join('\n').replace(/\n+$/, '');
    frames.push({ label: m[1]!, t: Number(m[2]), cols: Number(m[3]), rows: Number(m[4]), text });
    i = end - 1;
  }
  return frames;
}

/**
 * A screen as text to compare: rows right-trimmed, trailing blank rows dropped. (A recorded frame
 * keeps the spaces an agent wrote at the end of a row; the ScreenModel's rows are right-trimmed.)
 */
export function screenText(screen: ScreenSnapshot | string): string {
  const rows = typeof screen === 'string' ? screen.split('\n') : screen.lines;
  return rows.map((l) => l.trimEnd()).join('\n').replace(/\n+$/, '');
}

/** A line of the agent's session file and when (seconds on the cast's clock) it is written. */
export interface TimedLine {
  readonly at: number;
  readonly text: string;
}

/**
 * The recording with a quicker user: every wait longer than `delayMs` before a key (from the last
 * thing recorded before it: the screen it answers, drawn whole) is cut to `delayMs`, and whatever
 * fell in the wait (session lines, frames) keeps its order and its place in proportion. Returns the
 * new time of each recorded time (s), strictly increasing, so nothing is reordered, even at 0 ms.
 */
export function quickerKeys(cast: Cast, delayMs: number): (t: number) => number {
  const d = Math.max(delayMs / 1000, MIN_GAP_S);
  const gaps: Array<{ readonly from: number; readonly to: number }> = [];
  let previous = 0;
  for (const e of cast.events) {
    if (e.kind === 'i' && e.t - previous > d) gaps.push({ from: previous, to: e.t });
    previous = e.t;
  }
  return (t) => {
    let cut = 0;
    for (const g of gaps) {
      if (t <= g.from) break;
      if (t < g.to) return g.from - cut + ((t - g.from) * d) / (g.to - g.from);
      cut += g.to - g.from - d;
    }
    return t - cut;
  };
}

/**
 * The recording with a user quicker than the screen: every key that followed a frame the agent
 * wrote in several pieces (output chunks under FRAME_PIECES_S apart, as one write split by the
 * pty) comes right after the first piece, while the prompt is drawn only in part. The agent reads a
 * key only after its write, so what it drew after the key stays where it was.
 */
export function keysWhileDrawing(events: readonly CastEvent[]): CastEvent[] {
  const out = [...events];
  for (let i = 0; i < out.length; i++) {
    if (out[i]!.kind !== 'i') continue;
    const first = firstPieceBefore(out, i);
    if (first === undefined || first === i - 1) continue;
    const [key] = out.splice(i, 1);
    out.splice(first + 1, 0, { ...key!, t: out[first]!.t });
  }
  return out;
}

/** Output chunks this close together are one frame split by the pty. */
const FRAME_PIECES_S = 0.002;

/** The index of the first piece of the frame just before events[i], if only output precedes it. */
function firstPieceBefore(events: readonly CastEvent[], i: number): number | undefined {
  let j = i - 1;
  if (events[j]?.kind !== 'o') return undefined;
  while (events[j - 1]?.kind === 'o' && events[j]!.t - events[j - 1]!.t < FRAME_PIECES_S) j--;
  return j;
}

/** What is left of a wait cut to "0 ms": enough to keep what fell in it in order. */
const MIN_GAP_S = 1e-6;

export interface CastReplayOptions {
  readonly cast: Cast;
  readonly screen: ScreenModel;
  /** Sees every decoded key before its bytes would reach the agent (the recorder). */
  readonly keys: KeyObserver;
  /** Moved to `startMs + t * 1000` before each step. */
  readonly clock: VirtualClock;
  /** Clock time of the recording's t = 0. */
  readonly startMs: number;
  /** Session file lines, in file order, written with `writeLine` at their time. */
  readonly lines?: readonly TimedLine[];
  readonly writeLine?: (text: string) => void;
  /** Called at each frame's time, once the output recorded before it has been rendered. */
  readonly frames?: readonly ScreenFrame[];
  readonly onFrame?: (frame: ScreenFrame, screen: ScreenSnapshot) => void;
}

export interface CastReplayResult {
  /** The bytes the InputRelay forwarded to the "agent": they must be the keys, untouched. */
  readonly forwarded: Buffer;
  readonly keysSent: Buffer;
}

type Step =
  | { readonly t: number; readonly order: number; readonly kind: 'o' | 'i' | 'r'; readonly data: string }
  | { readonly t: number; readonly order: number; readonly kind: 'line'; readonly text: string }
  | { readonly t: number; readonly order: number; readonly kind: 'frame'; readonly frame: ScreenFrame };

/**
 * At equal times: session lines first (the file was written before anything it caused), then the
 * output, then a frame (taken once the output received so far was rendered), then keys and resizes
 * (sent after the screen they answer was seen).
 */
const RANK = { line: 0, o: 1, frame: 2, i: 3, r: 3 } as const;

export async function replayCast(o: CastReplayOptions): Promise<CastReplayResult> {
  const steps: Step[] = [
    ...o.cast.events.map((e, n) => ({ t: e.t, order: n, kind: e.kind, data: e.data })),
    ...(o.lines ?? []).map((l, n) => ({ t: l.at, order: n, kind: 'line' as const, text: l.text })),
    ...(o.frames ?? []).map((f, n) => ({ t: f.t, order: n, kind: 'frame' as const, frame: f })),
  ];
  steps.sort((a, b) => a.t - b.t || RANK[a.kind] - RANK[b.kind] || a.order - b.order);
  const forwarded: Buffer[] = [];
  const sent: Buffer[] = [];
  const relay = new InputRelay((bytes) => forwarded.push(Buffer.from(bytes)), o.keys);
  const idle = () => o.screen.whenIdle();
  for (const step of steps) {
    await o.clock.advanceTo(o.startMs + step.t * 1000, idle);
    switch (step.kind) {
      case 'o':
        o.screen.write(Buffer.from(step.data, 'utf8'));
        break;
      case 'i': {
        const bytes = Buffer.from(step.data, 'utf8');
        sent.push(bytes);
        relay.handleInput(bytes);
        // A sequence still held (a lone Esc while the recorder was not watching) is decided when
        // LONE_ESC_TIMEOUT_MS of silence passes; the recorded keys are whole writes hundreds of ms
        // apart, so that silence always passed. dispose() does what that timer does (it flushes)
        // and leaves the relay usable, without a real timer racing the replay.
        relay.dispose();
        break;
      }
      case 'r': {
        const m = /^(\d+)x(\d+)$/.exec(step.data);
        if (!m) throw new Error(`cast: bad resize event ${JSON.stringify(step.data)}`);
        o.screen.resize(Number(m[1]), Number(m[2]));
        break;
      }
      case 'line':
        o.writeLine?.(step.text);
        break;
      case 'frame':
        o.onFrame?.(step.frame, o.screen.snapshot());
        break;
    }
    await idle();
  }
  return { forwarded: Buffer.concat(forwarded), keysSent: Buffer.concat(sent) };
}
