// The sidecar's three tables, each with its one codec (rowCodec.ts): SidecarDb writes and reads
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
