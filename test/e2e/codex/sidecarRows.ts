// Reading what `rec` wrote: the sidecar SQLite file opened read-only with better-sqlite3, and
// Codex's own rollout, so a test can compare the two by call_id.
import { readFileSync } from 'node:fs';
import { Database } from '../../../src/store/sqliteDriver.js';
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
  /** The rollout itself says the call ran: a CommandExecution item completed, or a real output. */
  readonly ranPerRollout: boolean;
}

/** The function calls of a rollout file with their outputs, in order. */
export function readRolloutCalls(file: string): RolloutCall[] {
  const calls = new Map<string, { callId: string; name: string; args: Record<string, unknown>; output?: string; ranPerRollout: boolean }>();
  const completed = new Set<string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const parsed = RolloutLine.safeParse(JSON.parse(line));
    if (!parsed.success) continue;
    const p = parsed.data.payload;
    if (parsed.data.type === 'event_msg' && p.type === 'item_completed') {
      const item = p.item as { id?: unknown; status?: unknown } | undefined;
      if (typeof item?.id === 'string' && (item.status === 'completed' || item.status === 'failed')) completed.add(item.id);
      continue;
    }
    if (parsed.data.type !== 'response_item') continue;
    if (p.type === 'function_call' && typeof p.call_id === 'string') {
      calls.set(p.call_id, { callId: p.call_id, name: String(p.name), args: JSON.parse(String(p.arguments)) as Record<string, unknown>, ranPerRollout: false });
    } else if (p.type === 'function_call_output' && typeof p.call_id === 'string') {
      const call = calls.get(p.call_id);
      if (call) call.output = typeof p.output === 'string' ? p.output : JSON.stringify(p.output);
    }
  }
  for (const call of calls.values()) {
    call.ranPerRollout = completed.has(call.callId) || (call.output !== undefined && !/aborted by user\s*$/.test(call.output));
  }
  return [...calls.values()];
}
