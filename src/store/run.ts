// A run: one `rec` invocation. The zod schemas describe rows as read back (JSON columns parsed).
import { z } from 'zod';
import { AgentName, AgentVersionSource } from '../core/events.js';

export const FailedPart = z.object({
  /** The recorder part that stopped working: store, screen, recorder, hooks… */
  // Older runs named the agent's recorder part "detector"; read under its current name.
  part: z.string().transform((part) => (part === 'detector' ? 'recorder' : part)),
  /** One line saying what failed. */
  error: z.string(),
});
export type FailedPart = z.infer<typeof FailedPart>;

export const Run = z.object({
  id: z.string(),
  agent: AgentName,
  agent_version: z.string().nullable(),
  /** Whether rec was verified on that version (null until the version is known). */
  agent_version_verified: z.boolean().nullable(),
  agent_version_source: AgentVersionSource.nullable(),
  argv: z.array(z.string()),
  cwd: z.string(),
  started_at: z.string(),
  ended_at: z.string().nullable(),
  exit_code: z.number().int().nullable(),
  signal: z.number().int().nullable(),
  agent_session_id: z.string().nullable(),
  agent_session_file: z.string().nullable(),
  failed_parts: z.array(FailedPart),
  rec_version: z.string().nullable(),
  pid: z.number().int().nullable(),
});
export type Run = z.infer<typeof Run>;

/** What the run loop knows when it starts a run. `id` may be chosen beforehand (see newId). */
export const NewRun = Run.pick({ agent: true, argv: true, cwd: true, started_at: true }).extend({
  id: z.string().min(1).optional(),
  agent_version: z.string().nullable().optional(),
  agent_version_verified: z.boolean().nullable().optional(),
  agent_version_source: AgentVersionSource.nullable().optional(),
  agent_session_id: z.string().nullable().optional(),
  agent_session_file: z.string().nullable().optional(),
  rec_version: z.string().nullable().optional(),
  pid: z.number().int().nullable().optional(),
});
export type NewRun = z.input<typeof NewRun>;

export const RunFinish = z.object({
  ended_at: z.string(),
  exit_code: z.number().int().nullable(),
  signal: z.number().int().nullable(),
  failed_parts: z.array(FailedPart).default([]),
});
export type RunFinish = z.input<typeof RunFinish>;

/**
 * A run is live while it has no end and the `rec` process that started it (`runs.pid`) is still
 * there. A run whose rec was killed before it could write the end has no end either, but its pid
 * is gone: that one is finished. (A reused pid makes a dead run look live; refusing is the safe
 * side of that mistake.)
 */
export function isRunLive(run: { readonly ended_at: string | null; readonly pid: number | null }): boolean {
  if (run.ended_at !== null || run.pid === null) return false;
  // The store is below the agents' process-table reader (agents/common/processTable.ts): this
  // kill(0) probe is its own.
  try {
    process.kill(run.pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to another user; ESRCH: it is gone.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
