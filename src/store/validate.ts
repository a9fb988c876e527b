// Validation at the store's boundary: zod schemas for what callers hand in, and one helper that
// turns the first issue into a SidecarError with a one-line message.
import { z } from 'zod';
import { AgentName } from '../core/events.js';
import { Run } from './run.js';
import { oneLine, SidecarError } from './sidecarError.js';

/** What a run learns after it started: these fields of the runs table, each optional. */
export const RunPatchSchema = Run.pick({
  agent_version: true,
  agent_version_verified: true,
  agent_version_source: true,
  agent_session_id: true,
  agent_session_file: true,
}).partial();
export const RunContextSchema = z.object({
  run_id: z.string().min(1),
  agent: AgentName,
  agent_version: z.string().nullable().optional(),
  agent_version_verified: z.boolean().nullable().optional(),
  agent_session_id: z.string().nullable().optional(),
});
export const AgentRecordInputSchema = z.object({
  source_file: z.string(),
  line_no: z.number().int().nonnegative(),
  byte_offset: z.number().int().nonnegative(),
  record: z.string(),
});

export function validate<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue !== undefined && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  throw new SidecarError(`invalid ${what}${where}: ${oneLine(issue?.message ?? parsed.error.message)}`, 'invalid', {
    cause: parsed.error,
  });
}

export function dropUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

