// `rec events`: what was recorded — a table for people, JSON Lines (RecEvent) for programs.
import { AGENT_NAMES, EventType, type RecEvent } from '../core/events.js';
import { shortId } from '../store/ids.js';
import type { EventFilter } from '../store/sidecarDb.js';
import type { CommandIO } from './commandIO.js';
import { parseChoice, parseFlags, parseSince } from './formatArgs.js';
import { cell, formatTable, localTime } from './formatTable.js';
import { ignoreBrokenPipe, openForReading, reportUsage } from './runs.js';

export const EVENTS_USAGE =
  'usage: rec events [--db PATH] [--run ID] [--agent A] [--type T] [--since WHEN] [--json]\n' +
  `  --agent: ${AGENT_NAMES.join(', ')}; --type: ${EventType.options.join(', ')}; WHEN: 30m, 2h, 7d or a date`;

export async function eventsCommand(args: string[], io: CommandIO, now: Date = new Date()): Promise<number> {
  const filter: EventFilter = {};
  let flags;
  try {
    flags = parseFlags(args, { db: 'string', run: 'string', agent: 'string', type: 'string', since: 'string', json: 'boolean' });
    if (typeof flags.agent === 'string') filter.agent = parseChoice('agent', flags.agent, AGENT_NAMES);
    if (typeof flags.type === 'string') filter.type = parseChoice('type', flags.type, EventType.options);
    if (typeof flags.since === 'string') filter.since = parseSince(flags.since, now);
  } catch (err) {
    return reportUsage(err, 'events', EVENTS_USAGE, io);
  }
  const db = openForReading(flags.db as string | undefined, io);
  if (db === undefined) return 1;
  ignoreBrokenPipe(io);
  try {
    if (typeof flags.run === 'string') {
      const resolved = db.resolveRunId(flags.run);
      if (!resolved.ok) {
        io.stderr.write(
          resolved.reason === 'none'
            ? `rec: no run matches '${flags.run}' (see rec runs)\n`
            : `rec: run id '${flags.run}' is ambiguous: it matches ${resolved.matches.map(shortId).join(', ')}; give more characters\n`,
        );
        return 1;
      }
      filter.runId = resolved.id;
    }
    const events = db.listEvents(filter);
    if (flags.json === true) {
      if (events.length > 0) io.stdout.write(events.map((event) => JSON.stringify(event) + '\n').join(''));
    } else if (events.length === 0) {
      io.stdout.write(Object.keys(filter).length > 0 ? 'No events match.\n' : 'No events recorded yet.\n');
    } else {
      io.stdout.write(toEventsTable(events));
    }
    return 0;
  } finally {
    db.close();
  }
}

function toEventsTable(events: readonly RecEvent[]): string {
  const rows = events.map((e) => [
    shortId(e.id),
    localTime(e.ts),
    shortId(e.run_id),
    e.agent,
    e.type,
    cell(e.kind, 12),
    cell(e.trigger, 8),
    cell(e.option_label, 28),
    cell(e.call_id, 24),
    cell(e.tool_name, 16),
    cell(actionOf(e.tool_input), 40),
    cell(e.reason, 40),
  ]);
  return formatTable(['ID', 'TIME', 'RUN', 'AGENT', 'TYPE', 'KIND', 'TRIGGER', 'OPTION', 'CALL_ID', 'TOOL', 'INPUT', 'REASON'], rows);
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
