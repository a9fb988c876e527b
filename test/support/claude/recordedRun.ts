// Claude Code's part of the recorded-session replay (test/support/recordedRun.ts) of its
// recordings (test/fixtures/claude/<version>/recorded, made by scripts/record-claude-fixtures.mjs):
// the transcript goes into a temporary ~/.claude/projects as Claude wrote it, a subagent's
// transcript too, into <session>/subagents/ with the meta file naming its Agent call, written before
// its first line; the transcript is anchored at the first Enter, shifted by the prompt line's
// measured lag (MAX_PROMPT_LINE_LAG_MS). No hooks: the recorder finds the transcript by the session
// id rec gave Claude, as it does when the hooks are missing.
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { CLAUDE_IGNORED_KEY_SETTLE_MS, ClaudeRecorder } from '../../../src/agents/claude/recorder.js';
import { CLAUDE_SESSION_ENV } from '../../../src/agents/claude/launch.js';
import { SESSION_POLL_MS } from '../../../src/agents/common/agentRecorder.js';
import type { RecEvent } from '../../../src/core/events.js';
import type { ScreenSnapshot } from '../../../src/core/screen.js';
import type { Journey } from '../journey.js';
import type { StampedLine } from '../castAlignment.js';
import type { Cast } from '../castReplay.js';
import { agentReplaySettings, replayRecording, type AgentReplayOptions, type FrameCheck, type SessionLayout } from '../recordedRun.js';
import { fixturesDir, verifiedVersions } from '../agentVersions.js';

/** The pinned version's recordings (each verified version's: recordedDirs). */
export const RECORDED_DIR = join(fixturesDir('claude'), 'recorded');
/** The same scenarios with the inline renderer (the user's `--settings '{"tui":"default"}'`). */
export const RECORDED_INLINE_DIR = join(fixturesDir('claude'), 'recorded-inline');

/** The recordings of every verified version, oldest first: each keeps replaying after a newer one is pinned. */
export const RECORDED_BY_VERSION = verifiedVersions('claude').map((v) => ({
  version: v.version,
  recorded: join(v.fixtures, 'recorded'),
  inline: join(v.fixtures, 'recorded-inline'),
}));
export const RECORDED_CWD = '<BASE>/work';

/** A refusal's or an interrupt's line with a key this shortly before it was caused by that key. */
const CAUSED_WITHIN_MS = 300;
/**
 * How late Claude may stamp the prompt's line after its Enter. 1.1 s was seen on a loaded machine and
 * 2.3 to 3.3 s on a heavily loaded one (resize-at-prompt-loaded, its UserPromptSubmit hook slow; the
 * cast header's whole second bounds that lag from both sides).
 * Under this bound the refusal line of such a take would be written before the prompt it refuses
 * was even drawn, an order no real run can produce.
 */
const MAX_PROMPT_LINE_LAG_MS = 4_000;

/**
 * How much later than its Enter Claude stamped the prompt's line, which anchors the transcript to
 * the cast. Measured on the recording itself: a refusal or an interrupt marker (a line only a key
 * writes) with no deciding key shortly before it at the anchored time belongs to the next one, so every line
 * is that much later. (0.25 to 1.1 s on most of these recordings, 2.2 s on resize-at-prompt-loaded.)
 */
function promptLineLagMs(parsed: ReadonlyArray<z.infer<typeof TranscriptLine>>, keyTimesMs: readonly number[], anchorMs: number, atLeastMs: number): number {
  let lag = atLeastMs;
  for (const r of parsed.slice(1)) {
    if (r.type !== 'user' || r.timestamp === undefined) continue;
    const text = JSON.stringify(r);
    if (!text.includes('"toolDenialKind":"user-rejected"') && !text.includes('[Request interrupted by user')) continue;
    const at = Date.parse(r.timestamp) - anchorMs + atLeastMs;
    if (keyTimesMs.some((k) => k <= at && at - k <= CAUSED_WITHIN_MS)) continue;
    const next = keyTimesMs.find((k) => k > at);
    if (next !== undefined && next - at <= MAX_PROMPT_LINE_LAG_MS) lag = Math.max(lag, atLeastMs + next - at + 1);
  }
  return lag;
}

/**
 * The least the prompt's line can lag its Enter: the cast header's `timestamp` is the second the
 * recording started in, rounded down, so the Enter came at most a second after it plus its time.
 * It rules out a key too early to be the cause (auto mode's "can't check" dialog takes an Enter
 * that writes nothing, just before the prompt whose Enter writes the refusal).
 */
function leastPromptLineLagMs(castFile: string, firstUserMs: number, firstEnterS: number): number {
  const header = z.looseObject({ timestamp: z.number().optional() }).parse(JSON.parse(readFileSync(castFile, 'utf8').split('\n', 1)[0]!));
  if (header.timestamp === undefined) return 0;
  return Math.max(0, firstUserMs - (header.timestamp + 1) * 1000 - firstEnterS * 1000);
}

const TranscriptLine = z.looseObject({ type: z.string(), timestamp: z.string().optional(), sessionId: z.string().optional() });

/** A tool call of the transcript, in order. */
export interface TranscriptCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

export interface RecordedRun {
  readonly cast: Cast;
  readonly events: RecEvent[];
  readonly calls: TranscriptCall[];
  /** The calls of the subagents' transcripts, in file order. */
  readonly subagentCalls: TranscriptCall[];
  readonly frames: FrameCheck[];
  readonly finalScreen: ScreenSnapshot;
  readonly agentRecords: number;
  /** The agent_records rows per source file (the file's base name). */
  readonly agentRecordsByFile: Readonly<Record<string, number>>;
  /** The subagent transcripts' lines, by the file's base name (agent-<id>.jsonl). */
  readonly subagentLines: Readonly<Record<string, number>>;
  readonly transcriptLines: number;
  readonly keysSent: Buffer;
  readonly forwarded: Buffer;
  readonly sessionId: string;
  /** What `rec merge` and `rec stats` of the run gave. */
  readonly journey: Journey;
}

/** Claude takes the shared options only (`dir`: RECORDED_DIR by default, RECORDED_INLINE_DIR or one of RECORDED_BY_VERSION). */
export type ReplayOptions = AgentReplayOptions;

export async function replayRecorded(name: string, options: ReplayOptions = {}): Promise<RecordedRun> {
  const dir = options.dir ?? RECORDED_DIR;
  const raw = readFileSync(join(dir, `${name}.transcript.jsonl`), 'utf8').split('\n').filter((l) => l.trim() !== '');
  const parsed = raw.map((text) => TranscriptLine.parse(JSON.parse(text)));
  const sessionId = parsed.find((r) => r.sessionId !== undefined)?.sessionId;
  let subagents: SubagentFixture[] = [];
  const layout = (cast: Cast, home: string): SessionLayout => {
    // Bookkeeping lines without a time of their own go with the line before them.
    let lastTs = 0;
    const stamped: StampedLine[] = raw.map((text, i) => {
      const r = parsed[i]!;
      lastTs = r.timestamp !== undefined ? Date.parse(r.timestamp) : lastTs;
      // The user's lines (a prompt, a decision's result, an interrupt marker) exist because of a key.
      return { text, ts: lastTs, causedByKey: r.type === 'user' };
    });
    const firstUser = parsed.find((r) => r.type === 'user' && r.timestamp !== undefined);
    const firstEnter = cast.events.find((e) => e.kind === 'i' && e.data === '\r');
    if (!firstUser || !firstEnter || !sessionId) throw new Error(`${name}: no first prompt to align the transcript with the cast`);
    const keyTimes = cast.events.filter((e) => e.kind === 'i').map((e) => e.t);
    const anchorMs = Date.parse(firstUser.timestamp!) - firstEnter.t * 1000;
    // Only a key that can decide or interrupt writes such a line (typed text does not); Shift+Tab
    // stops the turn at auto mode's "can't check" dialog.
    const decisive = cast.events.filter((e) => e.kind === 'i' && /^(\r|\x1b|\x1b\[Z|\x03|[0-9])$/.test(e.data)).map((e) => e.t * 1000);
    const project = join(home, '.claude', 'projects', '-tmp-rec-claude-fx-work');
    mkdirSync(project, { recursive: true });
    const transcript = join(project, `${sessionId}.jsonl`);
    subagents = subagentFiles(dir, name, raw, join(project, sessionId, 'subagents'));
    // One timeline for every file: each line knows where it goes (writes[i]).
    const writes: Array<{ readonly file: string; readonly text: string; readonly before?: () => void }> = raw.map((text) => ({ file: transcript, text }));
    for (const sub of subagents) {
      let last = 0;
      sub.lines.forEach((text, i) => {
        const r = TranscriptLine.parse(JSON.parse(text));
        // In file order: a line without a later stamp goes with the one before it.
        last = Math.max(last, r.timestamp !== undefined ? Date.parse(r.timestamp) : last);
        // Only a refusal in a subagent's file is a key's doing (its prompt and answers are the model's).
        stamped.push({ text, ts: last, causedByKey: text.includes('"toolDenialKind":"user-rejected"') });
        writes.push({ file: sub.path, text, ...(i === 0 ? { before: sub.writeMeta } : {}) });
      });
    }
    // The lag is measured on every file's refusals (a subagent's may be the only one).
    const subParsed = subagents.flatMap((sub) => sub.lines.map((text) => TranscriptLine.parse(JSON.parse(text))));
    return {
      cwd: RECORDED_CWD,
      env: { HOME: home, [CLAUDE_SESSION_ENV]: sessionId },
      lines: stamped,
      keyTimes,
      estimateStartMs: anchorMs - promptLineLagMs([...parsed, ...subParsed], decisive, anchorMs, leastPromptLineLagMs(join(dir, `${name}.cast`), Date.parse(firstUser.timestamp!), firstEnter.t)),
      write: (index) => {
        const w = writes[index]!;
        w.before?.();
        appendFileSync(w.file, w.text + '\n');
      },
    };
  };
  return replayRecording(
    {
      agent: 'claude',
      dir,
      name,
      layout,
      recorder: (context, clock) => new ClaudeRecorder(context, { clock }),
      ...agentReplaySettings(options),
      lingerMs: CLAUDE_IGNORED_KEY_SETTLE_MS + SESSION_POLL_MS,
    },
    ({ cast, db, runId, screen, frames, keysSent, forwarded, journey }) => ({
      journey,
      cast,
      events: db.listEvents({ runId }),
      calls: transcriptCalls(raw, false),
      subagentCalls: subagents.flatMap((sub) => transcriptCalls(sub.lines, true)),
      frames,
      finalScreen: screen.snapshot(),
      agentRecords: db.listAgentRecords(runId).length,
      agentRecordsByFile: countBy(db.listAgentRecords(runId).map((r) => basename(r.source_file))),
      subagentLines: Object.fromEntries(subagents.map((s) => [basename(s.path), s.lines.length])),
      transcriptLines: raw.length,
      keysSent,
      forwarded,
      sessionId: sessionId!,
    }),
  );
}

interface SubagentFixture {
  readonly path: string;
  readonly lines: readonly string[];
  readonly writeMeta: () => void;
}

/**
 * The recording's subagent transcripts (`<name>.subagent-agent-<id>.jsonl`), each with where Claude
 * wrote it and its meta file, which the fixtures do not keep: its toolUseId is the Agent call whose
 * result in the main transcript names the agent (toolUseResult.agentId).
 */
function subagentFiles(fixtureDir: string, name: string, raw: readonly string[], dir: string): SubagentFixture[] {
  const prefix = `${name}.subagent-`;
  return readdirSync(fixtureDir)
    .filter((f) => f.startsWith(prefix) && f.endsWith('.jsonl'))
    .sort()
    .map((f) => {
      const file = f.slice(prefix.length);
      const agentId = /^agent-(.+)\.jsonl$/.exec(file)![1]!;
      const lines = readFileSync(join(fixtureDir, f), 'utf8').split('\n').filter((l) => l.trim() !== '');
      const parent = agentCallOf(raw, agentId);
      const writeMeta = () => {
        mkdirSync(dir, { recursive: true });
        const meta = join(dir, `agent-${agentId}.meta.json`);
        if (!existsSync(meta)) writeFileSync(meta, JSON.stringify({ agentType: 'general-purpose', ...(parent ? { toolUseId: parent } : {}) }));
      };
      return { path: join(dir, file), lines, writeMeta };
    });
}

function agentCallOf(raw: readonly string[], agentId: string): string | undefined {
  for (const text of raw) {
    const r = JSON.parse(text) as { toolUseResult?: { agentId?: unknown }; message?: { content?: unknown } };
    if (r.toolUseResult?.agentId !== agentId || !Array.isArray(r.message?.content)) continue;
    const result = (r.message.content as Array<{ type?: string; tool_use_id?: string }>).find((b) => b.type === 'tool_result');
    if (result?.tool_use_id) return result.tool_use_id;
  }
  return undefined;
}

function countBy(keys: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) out[k] = (out[k] ?? 0) + 1;
  return out;
}

function transcriptCalls(raw: readonly string[], sidechain: boolean): TranscriptCall[] {
  const calls: TranscriptCall[] = [];
  for (const text of raw) {
    const r = JSON.parse(text) as { type?: string; isSidechain?: boolean; message?: { content?: unknown } };
    if (r.type !== 'assistant' || (r.isSidechain === true) !== sidechain || !Array.isArray(r.message?.content)) continue;
    for (const b of r.message.content as Array<{ type?: string; id?: string; name?: string; input?: unknown }>) {
      if (b.type === 'tool_use' && b.id && b.name) calls.push({ id: b.id, name: b.name, input: b.input });
    }
  }
  return calls;
}
