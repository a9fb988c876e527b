// Where recorders put what they saw. Implemented by store/ over SQLite; every method is
// synchronous so that an event for a decisive key is durable before the key reaches the agent.
import type { AgentVersionSource, EventPatch, NewEvent } from './events.js';

export interface RunPatch {
  agent_version?: string | null;
  /** Set by the store from the agent's verified versions when agent_version is learned. */
  agent_version_verified?: boolean | null;
  /** Which witness told the version (set with agent_version). */
  agent_version_source?: AgentVersionSource | null;
  agent_session_id?: string | null;
  agent_session_file?: string | null;
}

export interface AgentRecordInput {
  /** The agent's own session file the record was read from. */
  source_file: string;
  /** 1-based line number for JSONL files (0 for whole-file snapshots such as Gemini's older JSON form). */
  line_no: number;
  /** Byte offset of the record in the file. */
  byte_offset: number;
  /** The record exactly as the agent wrote it. */
  record: string;
}

export interface EventSink {
  /** Writes an event and returns its id; undefined when the store is disabled (fail-open). */
  insertEvent(event: NewEvent): string | undefined;
  /** Adds details learned later (call_id, outcome, reason). */
  updateEvent(id: string, patch: EventPatch): void;
  /**
   * Removes an event that turned out not to have happened: a decisive key was committed before it
   * reached the agent (durability), and the agent then ignored it. Optional for older sinks.
   */
  retractEvent?(id: string): void;
  insertAgentRecord(record: AgentRecordInput): void;
  updateRun(patch: RunPatch): void;
}
