// Where exported records go. `--otlp URL` goes through the official OpenTelemetry JS exporters
// (protobuf or JSON over HTTP, as OTEL_EXPORTER_OTLP_PROTOCOL says; headers, TLS and the HTTP-level
// retries as the exporter does them), `--otlp-file FILE` appends the same OTLP JSON a Collector's
// otlpjsonfile receiver reads, one request per line, and `--dry-run` only shows the records.
import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPLogExporter as OtlpJsonExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as OtlpProtoExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { JsonLogsSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import type { ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { LogRecordSpec } from './otlpRecord.js';

/** A destination accepts a batch or says why not; `key` names it in the sidecar's cursor table. */
export interface Destination {
  readonly key: string;
  /** Shown in messages. */
  readonly label: string;
  /** How a batch that failed is sent again before the export gives up. */
  readonly retry: RetryPolicy;
  /** Records per batch: one send, and one cursor move once it is acknowledged. */
  readonly batchSize: number;
  send(records: readonly ReadableLogRecord[]): Promise<{ ok: true } | { ok: false; error: string }>;
  close(): Promise<void>;
}

export interface RetryPolicy {
  /** Sends of one batch before giving up, the first included. */
  readonly attempts: number;
  /** The wait before the second send; each later wait doubles. */
  readonly firstDelayMs: number;
}

/**
 * The OTLP exporters retry a batch themselves (network errors, 429, 502, 503, 504) with backoff
 * until their timeout (OTEL_EXPORTER_OTLP_TIMEOUT, 10 s by default); a second layer here would
 * only multiply that wait.
 */
const HTTP_RETRY: RetryPolicy = { attempts: 1, firstDelayMs: 0 };
/** A full disk or a file being moved may clear up: three tries, 200 ms then 400 ms apart. */
const FILE_RETRY: RetryPolicy = { attempts: 3, firstDelayMs: 200 };

/** The batch size of the SDK's BatchLogRecordProcessor: what collectors are used to receiving. */
export const HTTP_BATCH_SIZE = 512;
/** Records per line of an OTLP JSON file: one request of HTTP_BATCH_SIZE, as a collector would get it. */
const FILE_LINE_RECORDS = HTTP_BATCH_SIZE;
/**
 * A file batch is several lines, synced once: the sync, not the writing, is what a batch costs a
 * file, and the cursor moves only after it.
 */
const FILE_BATCH_SIZE = 8 * FILE_LINE_RECORDS;

/** SeverityNumber.INFO: a decision is information, not a problem. */
const SEVERITY_INFO = 9;
const SCOPE = { name: 'rec' } as const;

export interface ResourceOptions {
  readonly recVersion: string;
  /** The user's login name as `user.name`: only when asked for (--user). */
  readonly user: boolean;
}

export function recResource(options: ResourceOptions): Resource {
  return resourceFromAttributes({
    'service.name': 'rec',
    'service.version': options.recVersion,
    'host.name': hostname(),
    ...(options.user ? { 'user.name': userInfo().username } : {}),
  });
}

export function toReadable(spec: LogRecordSpec, resource: Resource, observed: [number, number]): ReadableLogRecord {
  return {
    hrTime: spec.time,
    hrTimeObserved: observed,
    severityNumber: SEVERITY_INFO,
    severityText: 'INFO',
    body: spec.eventName,
    eventName: spec.eventName,
    resource,
    instrumentationScope: SCOPE,
    attributes: spec.attributes,
    droppedAttributesCount: 0,
  };
}

export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** The OTLP/HTTP protocol the standard variables ask for; the exporters' default is protobuf. */
export function otlpProtocol(env: NodeJS.ProcessEnv): OtlpProtocol | { unsupported: string } {
  const asked = env.OTEL_EXPORTER_OTLP_LOGS_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf';
  if (asked === 'http/protobuf' || asked === 'http/json') return asked;
  return { unsupported: asked };
}

/** `http://host:4318` means its logs path, as OTEL_EXPORTER_OTLP_ENDPOINT does; a full path is kept. */
export function logsUrl(url: URL): string {
  if (url.pathname === '/' || url.pathname === '') return new URL('/v1/logs', url).href;
  return url.href;
}

export function httpDestination(url: URL, protocol: OtlpProtocol): Destination {
  const target = logsUrl(url);
  const config = { url: target };
  const exporter = protocol === 'http/json' ? new OtlpJsonExporter(config) : new OtlpProtoExporter(config);
  return {
    key: `otlp ${target}`,
    label: target,
    retry: HTTP_RETRY,
    batchSize: HTTP_BATCH_SIZE,
    send: (records) =>
      new Promise((resolve) => {
        exporter.export([...records], (result: ExportResult) => {
          if (result.code === ExportResultCode.SUCCESS) resolve({ ok: true });
          else resolve({ ok: false, error: result.error?.message ?? 'the exporter gave no reason' });
        });
      }),
    close: () => exporter.shutdown(),
  };
}

const NEWLINE = Buffer.from('\n');

function cutBack(fd: number, size: number): void {
  try {
    ftruncateSync(fd, size);
  } catch {
    // The file cannot be cut (a full disk does allow it; a pipe or a revoked file may not): the
    // batch's lines may then appear twice, which `rec.event_id` tells.
  }
}

/** One ExportLogsServiceRequest in OTLP JSON, as the serializer's UTF-8 bytes, written as they are. */
function writeOtlpJsonLine(fd: number, records: readonly ReadableLogRecord[]): void {
  const bytes = JsonLogsSerializer.serializeRequest([...records]);
  if (bytes === undefined) throw new Error('the OTLP JSON serializer returned nothing');
  writeAll(fd, bytes);
  writeAll(fd, NEWLINE);
}

/** writeSync may write less than asked (a full disk, a signal): the rest is written, or it throws. */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
}

/**
 * Appends and syncs each batch before it counts as sent, so the cursor never runs ahead of the
 * file. A batch that fails half-written is cut off again, so that its retry (or the next export)
 * does not leave its first lines in the file twice.
 */
export function fileDestination(path: string): Destination {
  let fd: number | undefined;
  return {
    key: `file ${path}`,
    label: path,
    retry: FILE_RETRY,
    batchSize: FILE_BATCH_SIZE,
    send: (records) => {
      let start: number | undefined;
      try {
        fd ??= openSync(path, 'a', 0o600);
        start = fstatSync(fd).size;
        for (let i = 0; i < records.length; i += FILE_LINE_RECORDS) writeOtlpJsonLine(fd, records.slice(i, i + FILE_LINE_RECORDS));
        fsyncSync(fd);
        return Promise.resolve({ ok: true });
      } catch (err) {
        if (fd !== undefined && start !== undefined) cutBack(fd, start);
        return Promise.resolve({ ok: false, error: err instanceof Error ? err.message : String(err) });
      }
    },
    close: () => {
      if (fd !== undefined) closeSync(fd);
      return Promise.resolve();
    },
  };
}
