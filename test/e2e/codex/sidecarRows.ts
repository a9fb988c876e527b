// Reading what `rec` wrote: the sidecar SQLite file opened read-only with better-sqlite3, and
// Codex's own rollout, so a test can compare the two by call_id.
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { z } from 'zod';

const JSON_COLUMNS = ['tool_input', 'prompt', 'native', 'evidence'] as const;

export interface EventRow {
  readonly id: string;
  readonly run_id: string;
  readonly ts: string;
  readonly type: string;
  readonly kind: string | null;
  readonly call_id: string | null;
  readonly tool_name: string | null;
  readonly tool_input: unknown;
  readonly decided_by: string | null;
  readonly trigger: string | null;
  readonly option_label: string | null;
  readonly scope: string | null;
  readonly reason: string | null;
  readonly reason_source: string | null;
  readonly related_call_id: string | null;
  readonly ran: string | null;
  readonly partial_output: string | null;
  readonly prompt: { title?: string; details?: Record<string, string>; options?: unknown[] } | null;
  readonly native: unknown;
  readonly evidence: unknown;
}

/** Every event row of the database, in the order they were seen (ts, then insertion order). */
export function readEventRows(dbPath: string): EventRow[] {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT * FROM events ORDER BY ts, rowid').all() as Record<string, unknown>[];
    return rows.map((row) => {
      const out: Record<string, unknown> = { ...row };
      for (const c of JSON_COLUMNS) {
        const v = row[c];
        out[c] = typeof v === 'string' ? JSON.parse(v) : v;
      }
      return out as unknown as EventRow;
    });
  } finally {
    db.close();
  }
}

export function countAgentRecords(dbPath: string): number {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM agent_records').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

export function readRuns(dbPath: string): Record<string, unknown>[] {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT * FROM runs ORDER BY started_at').all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

const RolloutLine = z.object({ type: z.string(), payload: z.record(z.string(), z.unknown()) }).loose();

export interface RolloutCall {
  readonly callId: string;
  readonly name: string;
  /** The parsed JSON arguments (what rec stores as tool_input). */
  readonly args: Record<string, unknown>;
  readonly output?: string;
}

/** The function calls of a rollout file with their outputs, in order. */
export function readRolloutCalls(file: string): RolloutCall[] {
  const calls = new Map<string, { callId: string; name: string; args: Record<string, unknown>; output?: string }>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const parsed = RolloutLine.safeParse(JSON.parse(line));
    if (!parsed.success || parsed.data.type !== 'response_item') continue;
    const p = parsed.data.payload;
    if (p.type === 'function_call' && typeof p.call_id === 'string') {
      calls.set(p.call_id, { callId: p.call_id, name: String(p.name), args: JSON.parse(String(p.arguments)) as Record<string, unknown> });
    } else if (p.type === 'function_call_output' && typeof p.call_id === 'string') {
      const call = calls.get(p.call_id);
      if (call) call.output = typeof p.output === 'string' ? p.output : JSON.stringify(p.output);
    }
  }
  return [...calls.values()];
}
