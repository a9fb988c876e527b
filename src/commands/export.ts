// `rec export`: the recorded decisions to a team's OpenTelemetry pipeline (src/export/), each event
// once per destination; a failed batch is one line and exit status 1, never a half-moved cursor.
import { resolve } from 'node:path';
import { fileDestination, httpDestination, otlpProtocol, recResource, logsUrl, type Destination } from '../export/destinations.js';
import { exportEvents, type ExportOutcome } from '../export/exportEvents.js';
import type { LogRecordSpec } from '../export/otlpRecord.js';
import { INCOMPLETE_EXIT_STATUS } from '../core/diagnostic.js';
import { resolveDbPath } from '../store/dbPath.js';
import { ExportSource, type ExportFilter } from '../store/exportCursor.js';
import { ExportLease } from '../store/exportLease.js';
import { openSidecar } from '../store/sidecarDb.js';
import { UsageError, type CommandIO } from './commandIO.js';
import { parseOrReport } from './commandKit.js';
import { EVENT_AGENTS, EXPORT_SPEC } from './commandSpec.js';
import { plural } from './formatTable.js';
import { parseChoice, parseSince } from './optionValues.js';
import { quote } from './parseCommandArgs.js';
import { resolveRunRef } from './runRef.js';
import { readVersion } from './version.js';

interface ExportArgs {
  readonly target: { readonly url: URL } | { readonly file: string };
  readonly runPrefix: string | undefined;
  readonly agent: string | undefined;
  readonly since: Date | undefined;
  readonly includeText: boolean;
  readonly user: boolean;
  readonly dryRun: boolean;
  readonly db: string | undefined;
}

export async function exportCommand(args: string[], io: CommandIO, now: Date = new Date()): Promise<number> {
  let parsed!: ExportArgs;
  const status = parseOrReport(EXPORT_SPEC, args, io, ({ values }) => (parsed = toExportArgs(values, io, now)));
  if (typeof status === 'number') return status;

  const opened = openSidecar(resolveDbPath({ flag: parsed.db, env: io.env, cwd: io.cwd }), { mustExist: true });
  if (!opened.ok) {
    io.stderr.write(`rec export: ${quote(opened.error)}\n`);
    return 1;
  }
  const db = opened.db;
  let destination: Destination | undefined;
  let lease: ExportLease | undefined;
  try {
    const filter: { -readonly [K in keyof ExportFilter]: ExportFilter[K] } = {};
    if (parsed.runPrefix !== undefined) {
      const ref = resolveRunRef(db, parsed.runPrefix, 'export', io);
      if (!ref.ok) return ref.status;
      filter.runId = ref.run.id;
    }
    if (parsed.agent !== undefined) filter.agent = parsed.agent;
    if (parsed.since !== undefined) filter.since = parsed.since;
    destination = makeDestination(parsed, io);
    if (!parsed.dryRun) {
      // A dry run moves no cursor, so it needs no lease and is never turned away.
      const taken = ExportLease.take(db, destination.key);
      if (!taken.ok) {
        io.stderr.write(`rec export: ${quote(destination.label)}: another rec export (pid ${taken.holder.pid}) is sending there; nothing sent, run it again once that one is done\n`);
        return 1;
      }
      lease = taken.lease;
    }
    const source = new ExportSource(db, destination.key, lease);
    const dryRun = parsed.dryRun ? (records: readonly LogRecordSpec[]) => io.stdout.write(records.map(dryRunLine).join('')) : undefined;
    const outcome = await exportEvents(source, parsed.dryRun ? undefined : destination, {
      filter,
      includeText: parsed.includeText,
      resource: recResource({ recVersion: readVersion(), user: parsed.user }),
      ...(dryRun ? { dryRun } : {}),
    });
    return report(outcome, destination.label, parsed.dryRun, io);
  } finally {
    await destination?.close();
    lease?.release();
    db.close();
  }
}

function makeDestination(args: ExportArgs, io: CommandIO): Destination {
  if ('file' in args.target) return fileDestination(args.target.file);
  const protocol = otlpProtocol(io.env);
  // Checked in toExportArgs: only the two OTLP/HTTP protocols get here.
  return httpDestination(args.target.url, typeof protocol === 'string' ? protocol : 'http/protobuf');
}

function report(outcome: ExportOutcome, label: string, dryRun: boolean, io: CommandIO): number {
  const what = `${plural(outcome.sent, 'event')} of ${plural(outcome.runs, 'run')}`;
  if (outcome.failure?.leaseLost) {
    io.stderr.write(`rec export: ${quote(label)}: ${outcome.failure.error}; ${what} sent before it; the last batch may arrive twice (rec.event_id tells)\n`);
    return 1;
  }
  if (outcome.failure) {
    io.stderr.write(
      `rec export: ${quote(label)}: a batch was not acknowledged, even after retrying (${quote(outcome.failure.error)}); ${what} sent before it; the next export resumes there\n`,
    );
    return 1;
  }
  if (dryRun) io.stderr.write(`rec export: would send ${what} to ${quote(label)} (--dry-run: nothing sent)\n`);
  else if (outcome.sent === 0) io.stdout.write(`Nothing new to send to ${quote(label)}.\n`);
  else io.stdout.write(`Sent ${what} to ${quote(label)}.\n`);
  const { count, first } = outcome.unreadable;
  if (count === 0 || first === undefined) return 0;
  io.stderr.write(
    `rec export: incomplete: ${plural(count, 'event')} this rec cannot read left out, not sent (first: event ${quote(first.id)}: ${quote(first.problem)}) (exit status ${INCOMPLETE_EXIT_STATUS})\n`,
  );
  return INCOMPLETE_EXIT_STATUS;
}

/** A record as --dry-run shows it: JSON, with characters a terminal would act on escaped. */
function dryRunLine(record: LogRecordSpec): string {
  const ms = record.time[0] * 1000 + record.time[1] / 1_000_000;
  const json = JSON.stringify({ time: new Date(ms).toISOString(), attributes: record.attributes });
  return json.replace(/[\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) + '\n';
}

function toExportArgs(values: Record<string, string | true | undefined>, io: CommandIO, now: Date): ExportArgs {
  const text = (name: string): string | undefined => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const otlp = text('otlp');
  const file = text('otlp-file');
  if ((otlp === undefined) === (file === undefined)) throw new UsageError('say where to send: --otlp URL or --otlp-file FILE (one of them)');
  let target: ExportArgs['target'];
  if (otlp !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(otlp);
    } catch {
      url = undefined;
    }
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new UsageError(`bad --otlp '${quote(otlp)}': expected an http:// or https:// URL`);
    const protocol = otlpProtocol(io.env);
    if (typeof protocol !== 'string') throw new UsageError(`OTEL_EXPORTER_OTLP_PROTOCOL '${quote(protocol.unsupported)}' is not supported: use http/protobuf or http/json`);
    target = { url: new URL(logsUrl(url)) };
  } else {
    target = { file: resolve(io.cwd, file!) };
  }
  const agent = text('agent');
  const since = text('since');
  return {
    target,
    runPrefix: text('run'),
    agent: agent === undefined ? undefined : parseChoice('agent', agent, EVENT_AGENTS),
    since: since === undefined ? undefined : parseSince(since, now),
    includeText: values['include-text'] === true,
    user: values.user === true,
    dryRun: values['dry-run'] === true,
    db: text('db'),
  };
}
