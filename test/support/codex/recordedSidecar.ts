// Sidecar databases for the pinned Codex version's recordings (test/fixtures/codex/<version>/recorded), written
// through the real store (openSidecar, startRun, insertEvent) with the rows the e2e suite asserts
// `rec codex` writes for the same scenario (test/support/codex/expectedRows.ts), call ids and tool
// inputs taken from the recorded rollout, and timestamps placed on the rollout's own clock.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NewEvent } from '../../../src/core/events.js';
import { openSidecar } from '../../../src/store/sidecarDb.js';
import type { RowView } from './expectedRows.js';
import { readRolloutCalls, type RolloutCall } from './rolloutCalls.js';
import { readScreenFrames } from '../castReplay.js';
import { fixturesDir, pinnedVersion } from '../agentVersions.js';

const AGENT_VERSION = pinnedVersion('codex');
export const RECORDED = `${join(fixturesDir('codex'), 'recorded')}/`;

export interface RecordedRollout {
  readonly name: string;
  readonly file: string;
  readonly sessionId: string;
  readonly calls: RolloutCall[];
  /** Timestamp of the line that holds a call's function_call (`call`) or its output (`output`). */
  callTs(callId: string, what: 'call' | 'output'): string;
  /** Timestamp of the rollout's turn_aborted event. */
  turnAbortedTs(): string;
  /** The call a recorded frame's approval prompt shows, told by its `Reason:` line. */
  callShownIn(label: string): RolloutCall;
  /** The text of the line starting with `prefix` on a recorded frame's screen, right-trimmed. */
  screenLine(label: string, prefix: string): string;
}

export function loadRecorded(name: string): RecordedRollout {
  const file = `${RECORDED}${name}.rollout.jsonl`;
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as { timestamp: string; type: string; payload: Record<string, unknown> });
  const meta = lines.find((l) => l.type === 'session_meta');
  if (!meta) throw new Error(`${name}: no session_meta`);
  const calls = readRolloutCalls(file);
  const frames = readScreenFrames(`${RECORDED}${name}.screen.txt`);
  const frame = (label: string): string => {
    const f = frames.find((x) => x.label === label);
    if (!f) throw new Error(`${name}: no frame ${label}`);
    return f.text;
  };
  return {
    name,
    file,
    sessionId: String(meta.payload['id']),
    calls,
    callTs(callId, what) {
      const type = what === 'call' ? 'function_call' : 'function_call_output';
      const line = lines.find((l) => l.type === 'response_item' && l.payload['type'] === type && l.payload['call_id'] === callId);
      if (!line) throw new Error(`${name}: no ${type} for ${callId}`);
      return line.timestamp;
    },
    turnAbortedTs() {
      const line = lines.find((l) => l.type === 'event_msg' && l.payload['type'] === 'turn_aborted');
      if (!line) throw new Error(`${name}: no turn_aborted`);
      return line.timestamp;
    },
    callShownIn(label) {
      const reason = /Reason: (.+)$/m.exec(frame(label))?.[1];
      const call = calls.find((c) => c.args['justification'] === reason);
      if (!call) throw new Error(`${name}: no call shown in frame ${label}`);
      return call;
    },
    screenLine(label, prefix) {
      const line = frame(label)
        .split('\n')
        .find((l) => l.startsWith(prefix));
      if (line === undefined) throw new Error(`${name}: no line starting ${JSON.stringify(prefix)} in frame ${label}`);
      return line.trimEnd();
    },
  };
}

/** `ts` moved by `ms` milliseconds, in the sidecar's format. */
export function shift(ts: string, ms: number): string {
  return new Date(Date.parse(ts) + ms).toISOString();
}

/** One row the way the e2e suite expects it, and when rec would have written it. */
export interface TimedRow {
  readonly row: RowView;
  readonly ts: string;
}

export interface RecordedSidecar {
  readonly path: string;
  readonly runId: string;
  /** The id the store gave each row, in the order given. */
  readonly eventIds: string[];
}

/**
 * Writes one `rec codex` run over the recording into a new database at `path`: the run, named by
 * the rollout's session id and file, and its rows. `decided_by` is what the recorder sets: `user`
 * for a decision at a key, none for prompts and for calls skipped because a sibling was refused.
 */
export function writeRecordedSidecar(path: string, rec: RecordedRollout, rows: readonly TimedRow[]): RecordedSidecar {
  const opened = openSidecar(path);
  if (!opened.ok) throw new Error(opened.error);
  const db = opened.db;
  try {
    const first = rows[0]?.ts ?? rec.turnAbortedTs();
    const runId = db.startRun({
      agent: 'codex',
      argv: [],
      cwd: '/tmp/rec-codex-fx/work',
      started_at: shift(first, -5_000),
      agent_version: AGENT_VERSION,
      agent_session_id: rec.sessionId,
      agent_session_file: rec.file,
    });
    const ctx = { run_id: runId, agent: 'codex' as const, agent_version: AGENT_VERSION, agent_session_id: rec.sessionId };
    const eventIds = rows.map(({ row, ts }) => {
      const decidedBy = row.type === 'prompt' || row.type === 'skipped' ? null : 'user';
      return db.insertEvent(ctx, NewEvent.parse({ ...row, ts, decided_by: decidedBy }));
    });
    return { path, runId, eventIds };
  } finally {
    db.close();
  }
}
