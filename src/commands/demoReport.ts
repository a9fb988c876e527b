// What `rec demo` shows once the agent exits: the events rec recorded in the run, then the merged
// session `rec merge --run` builds from them and the agent's own file, one line per decision. Both
// are tables of escaped cells (formatTable), at most 80 columns wide.
import { Writable } from 'node:stream';
import type { RecEvent } from '../core/events.js';
import { MergedSession } from '../merge/mergedSession.js';
import { shortId } from '../store/ids.js';
import { openSidecar } from '../store/sidecarDb.js';
import type { CommandIO } from './commandIO.js';
import { cell, formatTable, plural, type Column } from './formatTable.js';
import { mergeCommand } from './merge.js';
import { outputWidth } from './terminalText.js';

/** The demo's tables never take more than this, even on a wide terminal. */
export const DEMO_REPORT_WIDTH = 80;

const EVENT_COLUMNS: readonly Column[] = [
  { header: 'EVENT' },
  { header: 'KIND' },
  { header: 'KEY' },
  { header: 'OPTION', shrink: true, dropOrder: 1 },
  { header: 'INPUT', shrink: true },
  { header: 'REASON', shrink: true },
];

const DECISION_COLUMNS: readonly Column[] = [
  { header: 'DECISION' },
  { header: 'KEY' },
  { header: 'FATE' },
  { header: 'ACTION', shrink: true },
  { header: 'REASON', shrink: true },
];

export interface DemoRecording {
  readonly dbPath: string;
  /** The demo's own project folder: the run recorded there is the demo's. */
  readonly workDir: string;
  /** The agent's environment, so that merge finds its session files (CODEX_HOME…). */
  readonly env: NodeJS.ProcessEnv;
}

/** Prints both parts; returns false (having said why) when there was nothing to show. */
export async function printDemoReport(rec: DemoRecording, io: CommandIO): Promise<boolean> {
  const width = Math.min(DEMO_REPORT_WIDTH, outputWidth(io.stdout));
  const found = demoRun(rec);
  if (!found.ok) {
    io.stderr.write(`rec demo: ${found.message}\n`);
    return false;
  }
  const { runId, events } = found;
  const decisions = events.filter((e) => e.type !== 'prompt');
  io.stdout.write(`\nrec recorded ${plural(events.length, 'event')} in run ${shortId(runId)} (${plural(decisions.length, 'decision')}):\n`);
  if (events.length > 0) io.stdout.write(formatTable(EVENT_COLUMNS, events.map(eventRow), width, '  '));
  const merged = await mergeRun(rec, runId, io);
  if (merged === undefined) return false;
  const rows = decisionRows(merged);
  io.stdout.write(`\nThe merged session (rec merge --run ${shortId(runId)}): ${plural(rows.length, 'decision')}, each with its fate:\n`);
  if (rows.length > 0) io.stdout.write(formatTable(DECISION_COLUMNS, rows.map((r) => r.cells), width, '  '));
  return true;
}

type FoundRun = { readonly ok: true; readonly runId: string; readonly events: RecEvent[] } | { readonly ok: false; readonly message: string };

function demoRun(rec: DemoRecording): FoundRun {
  const opened = openSidecar(rec.dbPath, { mustExist: true, readOnly: true });
  if (!opened.ok) return { ok: false, message: `nothing was recorded: ${opened.error}` };
  try {
    const run = opened.db.listRuns().find((r) => r.cwd === rec.workDir);
    if (run === undefined) return { ok: false, message: `nothing was recorded: no run of the demo in ${rec.dbPath}` };
    return { ok: true, runId: run.id, events: opened.db.listEvents({ runId: run.id }) };
  } finally {
    opened.db.close();
  }
}

function eventRow(e: RecEvent): string[] {
  return [cell(e.type), cell(e.kind), cell(e.trigger), cell(e.option_label), cell(inputOf(e.tool_input)), cell(e.reason)];
}

/** The command or the file of a tool input (a Codex patch by its files, as merge shows it); the whole input otherwise. */
function inputOf(input: unknown): unknown {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input;
  const record = input as Record<string, unknown>;
  for (const key of ['cmd', 'command', 'file_path', 'path']) {
    const value = record[key];
    if (typeof value !== 'string') continue;
    const files = [...value.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)].map((m) => m[1]);
    return value.startsWith('apply_patch') && files.length > 0 ? `edit ${files.join(', ')}` : value;
  }
  return input;
}

/** `rec merge --run ID --jsonl` itself, its output taken in: the demo shows merge's own view. */
async function mergeRun(rec: DemoRecording, runId: string, io: CommandIO): Promise<MergedSession | undefined> {
  const chunks: Buffer[] = [];
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(Buffer.from(chunk));
      callback();
    },
  });
  const status = await mergeCommand(['--db', rec.dbPath, '--run', runId, '--jsonl', '--no-progress'], {
    stdout,
    stderr: io.stderr,
    env: rec.env,
    cwd: rec.workDir,
  });
  const lines = Buffer.concat(chunks).toString('utf8').split('\n').filter((l) => l.trim() !== '');
  if (status !== 0 || lines.length === 0) {
    io.stderr.write(`rec demo: rec merge found no session for the run (exit status ${status})\n`);
    return undefined;
  }
  const parsed = MergedSession.safeParse(JSON.parse(lines[0]!));
  if (!parsed.success) {
    io.stderr.write(`rec demo: rec merge's output did not read as a merged session: ${parsed.error.issues[0]?.message ?? ''}\n`);
    return undefined;
  }
  return parsed.data;
}

interface DecisionRow {
  readonly order: number;
  readonly cells: string[];
}

/** Every decision of the merged session, in the order of the conversation. */
export function decisionRows(s: MergedSession): DecisionRow[] {
  const fates = new Map(s.calls.map((c) => [c.call_id, c.fate]));
  const fate = (callId: string | null): string => cell(callId === null ? null : fates.get(callId));
  const row = (decision: string, e: { message_index: number | null; call_id: string | null; action: MergedSession['approvals'][number]['action'] }, key: string | null, reason: string | null): DecisionRow => ({
    order: e.message_index ?? Number.MAX_SAFE_INTEGER,
    cells: [decision, cell(key), fate(e.call_id), cell(actionText(e.action)), cell(reason)],
  });
  const rows = [
    ...s.approvals.map((e) => row('approval', e, e.trigger, null)),
    ...s.rejections.map((e) => row('rejection', e, e.trigger, e.reason)),
    ...s.interruptions.map((e) => row('interruption', e, e.trigger, null)),
    ...s.skipped.map((e) => row('skipped', e, null, null)),
    ...s.unknown.map((e) => row('unknown', e, null, null)),
  ];
  return rows.sort((a, b) => a.order - b.order);
}

function actionText(action: MergedSession['approvals'][number]['action']): string | null {
  if (action === null) return null;
  if (action.type === 'command') return action.command;
  if (action.type === 'edit') return `edit ${action.edits.map((e) => e.path).join(', ')}`;
  return null;
}
