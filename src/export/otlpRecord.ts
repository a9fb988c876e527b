// One recorded decision → one OTLP log record, in the vocabulary the agents' own telemetry uses:
// Claude Code's `claude_code.tool_decision` has `decision` accept/reject and a `source`; rec adds
// what none of the agents tells (No from Esc, skipped siblings, interruptions, the reason) under
// `rec.*`. Pure: no I/O, so the mapping is tested on its own.
import type { ExportedEvent } from '../store/exportCursor.js';

export type AttributeValue = string | number | boolean | string[];

export interface LogRecordSpec {
  readonly eventName: string;
  /** The event's own time, as OTLP carries it: seconds and nanoseconds. */
  readonly time: [number, number];
  readonly attributes: Record<string, AttributeValue>;
}

export interface MappingOptions {
  /** Commands, tool input, reasons and partial output: left out unless asked for. */
  readonly includeText: boolean;
}

/** Approvals, rejections and skipped calls are tool decisions; any other type keeps its own name. */
export function eventName(type: string): string {
  if (type === 'approval' || type === 'rejection' || type === 'skipped') return 'rec.tool_decision';
  return `rec.${type}`;
}

/** Claude's `decision`, where the event is one: a skipped call was never decided on. */
function decision(type: string): string | undefined {
  if (type === 'approval') return 'accept';
  if (type === 'rejection') return 'reject';
  return undefined;
}

/**
 * Claude's `source`: `config` for rules and settings, `hook`, `classifier` for an automatic
 * reviewer; a person's No is `user_reject` and Esc or Ctrl+C `user_abort`; a person's yes is
 * `user_permanent` when it is remembered for good, else `user_temporary`.
 */
function source(row: ExportedEvent): string | undefined {
  if (row.type !== 'approval' && row.type !== 'rejection') return undefined;
  switch (row.decided_by) {
    case 'config':
    case 'rule':
      return 'config';
    case 'hook':
      return 'hook';
    case 'reviewer':
      return 'classifier';
    default:
      break;
  }
  if (row.type === 'approval') return row.scope === 'always' ? 'user_permanent' : 'user_temporary';
  return row.trigger === 'esc' || row.trigger === 'ctrl_c' ? 'user_abort' : 'user_reject';
}

const PATH_KEYS = ['file_path', 'filePath', 'path', 'absolute_path', 'notebook_path', 'dir_path', 'file'];

/** File paths named by a tool's input: kept without --include-text (they are not the content). */
export function filePaths(toolInput: unknown): string[] {
  if (typeof toolInput !== 'object' || toolInput === null || Array.isArray(toolInput)) return [];
  const input = toolInput as Record<string, unknown>;
  const paths = PATH_KEYS.map((k) => input[k]).filter((v): v is string => typeof v === 'string' && v !== '');
  // Codex's patches name their files as the keys of `changes`.
  const changes = input.changes;
  if (typeof changes === 'object' && changes !== null && !Array.isArray(changes)) paths.push(...Object.keys(changes));
  return [...new Set(paths)];
}

export function toLogRecord(row: ExportedEvent, options: MappingOptions): LogRecordSpec {
  const ms = Date.parse(row.ts);
  const attributes: Record<string, AttributeValue> = { 'event.name': eventName(row.type), 'rec.type': row.type, 'rec.event_id': row.id, 'rec.run_id': row.run_id, 'agent.name': row.agent };
  const put = (key: string, value: AttributeValue | null | undefined): void => {
    if (value !== null && value !== undefined) attributes[key] = value;
  };
  put('decision', decision(row.type));
  put('source', source(row));
  put('agent.version', row.agent_version);
  put('session.id', row.agent_session_id);
  put('tool.call_id', row.call_id);
  put('tool.name', row.tool_name);
  put('rec.kind', row.kind);
  put('rec.trigger', row.trigger);
  put('rec.scope', row.scope);
  put('rec.decided_by', row.decided_by);
  put('rec.reason_source', row.reason_source);
  put('rec.ran', row.ran);
  put('rec.related_call_id', row.related_call_id);
  put('rec.option_label', row.option_label);
  put('rec.agent_version_verified', row.agent_version_verified);
  // Decoded by the events codec: an object (file and edit, arguments), or a command string.
  const input = row.tool_input;
  const paths = filePaths(input);
  if (paths.length > 0) put('rec.file_paths', paths);
  if (options.includeText) {
    if (input !== null) put('rec.tool_input', typeof input === 'string' ? input : JSON.stringify(input));
    put('rec.reason', row.reason);
    put('rec.partial_output', row.partial_output);
  }
  return { eventName: eventName(row.type), time: [Math.floor(ms / 1000), (ms % 1000) * 1_000_000], attributes };
}
