// One unit of merge work: a session file, or a run's copy of a file the agent deleted. Runs the
// same in a worker thread and in-process; the result is either the merged JSON text or the
// session's contribution to `rec stats`.
import { resolve } from 'node:path';
import { LineFeeder, loadReaders, readSessionFile } from './readSession.js';
import type { NativeSession } from '../readers/nativeSession.js';
import { toSessionStats, type SessionStats } from './sessionStats.js';
import { toSessionDecisions, type SessionDecisions } from './sessionDecisions.js';
import { toSessionDetail, type SessionDetail } from './sessionDetail.js';
import { acknowledgeDoctoredVersion } from './doctoredVersion.js';
import { joinSession } from './joinSession.js';
import type { Diagnostic, MergeAgent, MergedSession } from './mergedSession.js';
import { MIN_LITERAL_CHARS, mergedJsonLine } from './rawLiterals.js';
import type { OutputBuffers } from './outputBuffers.js';
import type { SidecarReader } from '../store/sidecarReader.js';

export type MergeTask =
  | { kind: 'file'; path: string; agent: MergeAgent | null }
  | { kind: 'records'; runId: string; sourceFile: string; agent: MergeAgent | null };

/**
 * `merge`: one compact JSON line per session; `merge-pretty`: indented JSON; `stats`: figures only;
 * `rules`: decisions only; `report`: the figures and the session's decisions in order.
 */
export type TaskMode = 'merge' | 'merge-pretty' | 'stats' | 'rules' | 'report';

export interface TaskResult {
  /**
   * The merged session as UTF-8 JSON and a newline (modes merge and merge-pretty). Its memory is
   * lent by `reuse` when given, and valid until it is given back; a worker hands it over without
   * a copy (transfer, not structured clone).
   */
  output: Uint8Array | null;
  stats: SessionStats | null;
  /** The session's decided and run calls (mode rules). */
  decisions: SessionDecisions | null;
  /** The session's decisions in order (mode report). */
  detail?: SessionDetail;
  /** Short identity for naming output files. */
  label: { agent: MergeAgent; session_id: string | null; subagent_id: string | null } | null;
  /** Diagnostics of a task that gave no session (a session carries its own). */
  diagnostics: Diagnostic[];
  bytes: number;
}

export async function runTask(
  task: MergeTask,
  mode: TaskMode,
  sidecar: SidecarReader | null,
  reuse: OutputBuffers | null = null,
): Promise<TaskResult> {
  const result = await mergeOne(task, mode, sidecar, reuse);
  // What the sidecar could not give for this task (invalid rows, failed queries) travels with the
  // result: a worker's own reader is never seen by the main thread.
  const fromSidecar = sidecar?.takeDiagnostics() ?? [];
  if (fromSidecar.length > 0) result.diagnostics = [...result.diagnostics, ...fromSidecar];
  return result;
}

async function mergeOne(task: MergeTask, mode: TaskMode, sidecar: SidecarReader | null, reuse: OutputBuffers | null): Promise<TaskResult> {
  let native: NativeSession | null;
  let bytes = 0;
  let failed: Diagnostic[] = [];
  let file: string;
  // Merge output reuses the long strings' JSON text from these lines (rawLiterals); stats needs none.
  const keepLinesFrom = mode === 'stats' || mode === 'rules' || mode === 'report' ? null : MIN_LITERAL_CHARS;
  let keptLines: Map<number, string> | null;
  if (task.kind === 'file') {
    file = resolve(task.path);
    const r = await readSessionFile(file, task.agent, undefined, keepLinesFrom);
    native = r.session;
    keptLines = r.keptLines;
    failed = r.diagnostics;
    bytes = r.bytes;
  } else {
    file = task.sourceFile;
    const feeder = new LineFeeder(file, task.agent, await loadReaders(), keepLinesFrom);
    keptLines = feeder.keptLines;
    for (const row of sidecar?.agentRecords(task.runId) ?? []) {
      if (row.source_file !== task.sourceFile) continue;
      bytes += row.record.length + 1;
      feeder.feed({ text: row.record, lineNo: row.line_no, byteOffset: row.byte_offset, terminated: true });
    }
    native = feeder.finish();
    if (native === null || !native.readable) {
      if (native) failed.push(...native.diagnostics);
      native = null;
      failed = [
        ...failed,
        ...feeder.diagnostics,
        { severity: 'error', code: 'unknown_format', message: `run ${task.runId}: the sidecar's copy of this file gives no session`, file, line: null },
      ];
    }
  }
  if (native === null) return { output: null, stats: null, decisions: null, label: null, diagnostics: failed, bytes };
  acknowledgeDoctoredVersion(native, sidecar);

  const runs = sidecar?.runsForSession(native.session_id, file) ?? [];
  const runIds = runs.map((r) => r.id);
  if (task.kind === 'records' && !runIds.includes(task.runId)) runIds.push(task.runId);
  const events = sidecar?.eventsForSession(native.session_id, runIds) ?? [];
  const merged: MergedSession = joinSession(native, {
    events,
    prompts: sidecar?.promptsFor(events) ?? new Map(),
    runIds,
    source: task.kind === 'file' ? 'file' : 'agent_records',
    files: [file],
    // The sidecar's rows this session could not read (decisions lost) belong in its own diagnostics[].
    extraDiagnostics: sidecar?.takeDiagnostics() ?? [],
  });
  const label = { agent: native.agent, session_id: native.session_id, subagent_id: native.subagent?.agent_id ?? null };
  // Reported on stderr too; `info` ones (sidecar events matched nowhere) stay in the JSON only.
  const diagnostics = merged.diagnostics.filter((d) => d.severity !== 'info');
  if (mode === 'stats') return { output: null, stats: toSessionStats(merged), decisions: null, label, diagnostics, bytes };
  if (mode === 'rules') return { output: null, stats: null, decisions: toSessionDecisions(merged), label, diagnostics, bytes };
  if (mode === 'report') return { output: null, stats: toSessionStats(merged), decisions: null, detail: toSessionDetail(merged), label, diagnostics, bytes };
  return { output: mergedJsonLine(merged, keptLines, mode === 'merge-pretty', reuse), stats: null, decisions: null, label, diagnostics, bytes };
}
