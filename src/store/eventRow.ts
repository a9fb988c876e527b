// Converting events to and from SQL rows: JSON columns are stored as JSON text and parsed back, so
// a row read from the database parses with the RecEvent schema.
import type { RecEvent } from '../core/events.js';

/** The events table's columns, in RecEvent's order (the same names in SQL, zod and JSON). */
export const EVENT_COLUMNS = [
  'id',
  'run_id',
  'agent',
  'agent_version',
  'agent_session_id',
  'ts',
  'type',
  'kind',
  'call_id',
  'tool_name',
  'tool_input',
  'decided_by',
  'trigger',
  'option_label',
  'scope',
  'reason',
  'reason_source',
  'related_call_id',
  'ran',
  'partial_output',
  'prompt',
  'native',
  'evidence',
  'prompt_event_id',
  'agent_version_verified',
] as const satisfies ReadonlyArray<keyof RecEvent>;

export type EventColumn = (typeof EVENT_COLUMNS)[number];

const JSON_COLUMNS: ReadonlySet<string> = new Set(['tool_input', 'prompt', 'native', 'evidence']);
/** SQLite has no boolean: stored as 1/0. */
const BOOLEAN_COLUMNS: ReadonlySet<string> = new Set(['agent_version_verified']);

export type SqlValue = string | number | bigint | null;
export type EventRow = Record<EventColumn, SqlValue>;

/** One column's value for SQL: JSON columns as JSON text; absent values as NULL. */
export function toSqlValue(column: string, value: unknown): SqlValue {
  if (value === undefined || value === null) return column === 'evidence' ? '[]' : null;
  if (JSON_COLUMNS.has(column)) return JSON.stringify(value);
  if (BOOLEAN_COLUMNS.has(column)) return value ? 1 : 0;
  return value as SqlValue;
}

export function toEventRow(event: RecEvent): EventRow {
  const row = {} as EventRow;
  for (const column of EVENT_COLUMNS) row[column] = toSqlValue(column, event[column]);
  return row;
}

export function fromEventRow(row: Record<string, unknown>): RecEvent {
  const event: Record<string, unknown> = {};
  for (const column of EVENT_COLUMNS) {
    const value = row[column] ?? null;
    if (JSON_COLUMNS.has(column) && typeof value === 'string') event[column] = JSON.parse(value);
    else if (BOOLEAN_COLUMNS.has(column) && value !== null) event[column] = value === 1 || value === 1n;
    else event[column] = value;
  }
  if (event.evidence === null) event.evidence = [];
  return event as RecEvent;
}
