// `rec events`: what was recorded — a table for people, JSON Lines (RecEvent) for programs.
import type { RecEvent } from '../core/events.js';
import { shortId } from '../store/ids.js';
import type { EventFilter } from '../store/sidecarDb.js';
import type { CommandIO } from './commandIO.js';
import { ignoreBrokenPipe, parseOrReport, reportSkippedRows } from './commandKit.js';
import { EVENT_AGENTS, EVENT_TYPES, EVENTS_SPEC } from './commandSpec.js';
import { cell, formatTable, localTime, type Column } from './formatTable.js';
import { parseChoice, parseSince } from './optionValues.js';
import { openForReading, resolveRunRef } from './runRef.js';
import { outputWidth } from './terminalText.js';

export async function eventsCommand(args: string[], io: CommandIO, now: Date = new Date()): Promise<number> {
  const filter: EventFilter = {};
  const parsed = parseOrReport(EVENTS_SPEC, args, io, ({ values }) => {
    if (typeof values.agent === 'string') filter.agent = parseChoice('agent', values.agent, EVENT_AGENTS);
    if (typeof values.type === 'string') filter.type = parseChoice('type', values.type, EVENT_TYPES);
    if (typeof values.since === 'string') filter.since = parseSince(values.since, now);
  });
  if (typeof parsed === 'number') return parsed;
  const { values } = parsed;
  const db = openForReading(values.db as string | undefined, 'events', io);
  if (db === undefined) return 1;
  ignoreBrokenPipe(io);
  try {
    if (typeof values.run === 'string') {
      const ref = resolveRunRef(db, values.run, 'events', io);
      if (!ref.ok) return ref.status;
      filter.runId = ref.run.id;
    }
    const events = db.listEvents(filter);
    if (values.json === true) {
      if (events.length > 0) io.stdout.write(events.map((event) => JSON.stringify(event) + '\n').join(''));
    } else if (events.length === 0) {
      io.stdout.write(Object.keys(filter).length > 0 ? 'No events match.\n' : 'No events recorded yet.\n');
    } else {
      io.stdout.write(toEventsTable(events, outputWidth(io.stdout)));
    }
    return reportSkippedRows(db, 'events', io);
  } finally {
    db.close();
  }
}

/** What a person needs first: which event, when, what happened, to what, and why. */
const EVENT_COLUMNS: readonly Column[] = [
  { header: 'ID' },
  { header: 'TIME' },
  { header: 'RUN', dropOrder: 2 },
  { header: 'AGENT', dropOrder: 3 },
  { header: 'TYPE' },
  { header: 'KIND' },
  { header: 'TRIGGER', dropOrder: 4 },
  { header: 'OPTION', shrink: true, dropOrder: 5 },
  { header: 'CALL_ID', dropOrder: 1 },
  { header: 'TOOL', shrink: true, dropOrder: 6 },
  { header: 'INPUT', shrink: true },
  { header: 'REASON', shrink: true },
];

function toEventsTable(events: readonly RecEvent[], width: number): string {
  const rows = events.map((e) => [
    shortId(e.id),
    localTime(e.ts),
    shortId(e.run_id),
    cell(e.agent),
    cell(e.type),
    cell(e.kind),
    cell(e.trigger),
    cell(e.option_label),
    cell(e.call_id),
    cell(e.tool_name),
    cell(actionOf(e.tool_input)),
    cell(e.reason),
  ]);
  return formatTable(EVENT_COLUMNS, rows, width);
}

/**
 * What a person wants to see of a tool input: the command or the file, not the whole argument
 * object (`--json` keeps it whole). Agents name these differently; the first one present wins.
 */
const ACTION_KEYS = ['cmd', 'command', 'file_path', 'path', 'destination'] as const;

function actionOf(input: unknown): unknown {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input;
  const record = input as Record<string, unknown>;
  for (const key of ACTION_KEYS) {
    const value = record[key];
    if (typeof value === 'string' && value) return value;
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(' ');
  }
  return input;
}
