// The export loop: the sidecar's decisions, a batch at a time, to one destination, each event once.
// A batch is sent, retried with backoff while it fails (destinations.ts), and only once it is acknowledged does the
// destination's cursor move past it; a batch that keeps failing stops the export with the cursor on
// the last acknowledged event, so the next export starts there.
import type { Resource } from '@opentelemetry/resources';
import type { ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { CursorMove, ExportFilter, ExportSource, Position } from '../store/exportCursor.js';
import { HTTP_BATCH_SIZE, toReadable, type Destination } from './destinations.js';
import { toLogRecord, type LogRecordSpec } from './otlpRecord.js';

export interface ExportOptions {
  readonly filter: ExportFilter;
  readonly includeText: boolean;
  readonly resource: Resource;
  /** Records per batch: the destination's own unless given; a dry run shows them this many at a time. */
  readonly batchSize?: number;
  /** Instead of sending: each batch's records are handed here and the cursor stays where it is. */
  readonly dryRun?: (records: readonly LogRecordSpec[]) => void;
}

/**
 * Events the events codec refused (a type or value this rec does not know, as a newer rec may
 * write; a damaged row). Mapping them would be guessing, so they are not sent: they are counted
 * (in the command's message and in the cursor's `skipped`), and the cursor moves past them with
 * the acknowledged batch around them, so the run's other events still go. Only a count and the
 * first one are kept: memory does not grow with a sidecar full of them.
 */
export interface Unreadable {
  readonly count: number;
  readonly first?: { readonly id: string; readonly problem: string };
}

export interface ExportOutcome {
  readonly sent: number;
  readonly runs: number;
  readonly unreadable: Unreadable;
  /**
   * Set when the export stopped: a batch never acknowledged (why), or the destination's lease lost
   * to another export before the cursor could move.
   */
  readonly failure?: { readonly error: string; readonly leaseLost?: true };
}

interface Pending {
  specs: LogRecordSpec[];
  moves: Map<string, { last: Position | null; sent: number; skipped: number; done: boolean }>;
}

export async function exportEvents(source: ExportSource, destination: Destination | undefined, options: ExportOptions): Promise<ExportOutcome> {
  const batchSize = options.batchSize ?? destination?.batchSize ?? HTTP_BATCH_SIZE;
  let unreadable: Unreadable = { count: 0 };
  let pending: Pending = { specs: [], moves: new Map() };
  let sent = 0;
  const runsSeen = new Set<string>();
  const flush = async (): Promise<ExportOutcome['failure']> => {
    if (pending.moves.size === 0) return undefined;
    const failure = await deliver(source, destination, pending, options);
    if (failure === undefined) sent += pending.specs.length;
    pending = { specs: [], moves: new Map() };
    return failure;
  };
  const outcome = (failure?: ExportOutcome['failure']): ExportOutcome => ({ sent, runs: runsSeen.size, unreadable, ...(failure ? { failure } : {}) });

  for (const run of source.runs(options.filter)) {
    if (!run.finished) continue; // still recording: its events may still change; a later export sends them
    let after = run.after;
    for (;;) {
      const limit = batchSize - pending.specs.length;
      const page = source.page(run.id, after, limit, options.filter.since);
      const move = pending.moves.get(run.id) ?? { last: after, sent: 0, skipped: 0, done: false };
      for (const item of page) {
        after = item.position;
        if ('event' in item) {
          pending.specs.push(toLogRecord(item.event, { includeText: options.includeText }));
          move.sent++;
          runsSeen.add(run.id);
        } else {
          move.skipped++;
          unreadable = { count: unreadable.count + 1, first: unreadable.first ?? { id: item.position.id, problem: item.problem } };
        }
      }
      move.last = after;
      const exhausted = page.length < limit;
      move.done = exhausted;
      pending.moves.set(run.id, move);
      if (pending.specs.length >= batchSize) {
        const failure = await flush();
        if (failure) return outcome(failure);
      }
      if (exhausted) break;
    }
  }
  return outcome(await flush());
}

async function deliver(source: ExportSource, destination: Destination | undefined, pending: Pending, options: ExportOptions): Promise<ExportOutcome['failure']> {
  if (options.dryRun) {
    if (pending.specs.length > 0) options.dryRun(pending.specs);
    return undefined;
  }
  if (pending.specs.length > 0 && destination !== undefined) {
    const now = Date.now();
    const observed: [number, number] = [Math.floor(now / 1000), (now % 1000) * 1_000_000];
    const records: ReadableLogRecord[] = pending.specs.map((spec) => toReadable(spec, options.resource, observed));
    const retry = destination.retry;
    let error = '';
    let attempt = 0;
    for (; attempt < retry.attempts; attempt++) {
      if (attempt > 0) await delay(retry.firstDelayMs * 2 ** (attempt - 1));
      const result = await destination.send(records);
      if (result.ok) break;
      error = result.error;
    }
    if (attempt === retry.attempts) return { error };
  }
  const moves: CursorMove[] = [...pending.moves].map(([runId, m]) => ({ runId, ...m }));
  if (!source.advance(moves)) {
    return { error: 'another export took over the destination after this one held it too long', leaseLost: true };
  }
  return undefined;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
