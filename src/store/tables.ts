// The sidecar's tables, each with its one codec (rowCodec.ts): SidecarDb writes and reads
// through these, and so does SidecarReader for merge and stats. The columns are the zod fields.
import { z } from 'zod';
import { RecEvent } from '../core/events.js';
import { Run } from './run.js';
import { tableCodec } from './rowCodec.js';

/** An agent record as stored: a verbatim copy of one record of the agent's own session file. */
export const AgentRecordRow = z.object({
  id: z.number().int(),
  run_id: z.string(),
  agent: z.string(),
  source_file: z.string(),
  line_no: z.number().int(),
  byte_offset: z.number().int(),
  record: z.string(),
  recorded_at: z.string(),
});
export type AgentRecordRow = z.infer<typeof AgentRecordRow>;

export const RUNS = tableCodec('runs', Run);
export const EVENTS = tableCodec('events', RecEvent);
export const AGENT_RECORDS = tableCodec('agent_records', AgentRecordRow);

/** Who holds `rec export`'s lease on a destination, and until when (exportLease.ts). */
export const ExportLeaseRow = z.object({
  destination: z.string(),
  holder_pid: z.number().int(),
  holder_host: z.string(),
  token: z.string(),
  expires_at: z.string(),
});
export type ExportLeaseRow = z.infer<typeof ExportLeaseRow>;

export const EXPORT_LEASES = tableCodec('export_leases', ExportLeaseRow);
