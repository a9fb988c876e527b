// An OTLP/HTTP logs receiver on 127.0.0.1 for the export tests, built on the official definitions:
// the protobufjs types generated from opentelemetry-proto (as @opentelemetry/otlp-transformer 0.212
// ships them) decode protobuf bodies, and read JSON bodies through the same message's fromObject, so
// both encodings are checked against the .proto rather than against what rec meant to send.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

interface ProtoMessage {
  decode(bytes: Uint8Array): unknown;
  fromObject(object: unknown): unknown;
  toObject(message: unknown, options: Record<string, unknown>): unknown;
  verify(object: unknown): string | null;
}

const root = require('otlp-transformer-generated/build/src/generated/root.js') as {
  opentelemetry: { proto: { collector: { logs: { v1: { ExportLogsServiceRequest: ProtoMessage } } } } };
};
export const ExportLogsServiceRequest = root.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;

interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
}
interface KeyValue {
  key: string;
  value: AnyValue;
}
interface DecodedRequest {
  resourceLogs?: Array<{
    resource?: { attributes?: KeyValue[] };
    scopeLogs?: Array<{ logRecords?: Array<{ timeUnixNano?: string; eventName?: string; body?: AnyValue; attributes?: KeyValue[] }> }>;
  }>;
}

/** A received log record, flattened: attributes as plain values. */
export interface ReceivedRecord {
  readonly timeUnixNano: string;
  readonly eventName: string;
  readonly attributes: Record<string, unknown>;
  readonly resource: Record<string, unknown>;
}

function plain(value: AnyValue): unknown {
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(plain);
  return value.stringValue ?? value.boolValue ?? value.intValue ?? value.doubleValue;
}

function flatten(attributes: KeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((attributes ?? []).map((kv) => [kv.key, plain(kv.value)]));
}

/** The records of one decoded ExportLogsServiceRequest (protobuf message or JSON object). */
export function recordsOf(message: unknown): ReceivedRecord[] {
  const request = ExportLogsServiceRequest.toObject(message, { longs: String, enums: Number, bytes: String, defaults: false }) as DecodedRequest;
  const out: ReceivedRecord[] = [];
  for (const rl of request.resourceLogs ?? []) {
    const resource = flatten(rl.resource?.attributes);
    for (const sl of rl.scopeLogs ?? []) {
      for (const r of sl.logRecords ?? []) out.push({ timeUnixNano: r.timeUnixNano ?? '', eventName: r.eventName ?? '', attributes: flatten(r.attributes), resource });
    }
  }
  return out;
}

/** A JSON request body as the OTLP JSON mapping has it → the protobuf message it stands for. */
export function fromOtlpJson(text: string): unknown {
  const object = JSON.parse(text) as unknown;
  const problem = ExportLogsServiceRequest.verify(ExportLogsServiceRequest.toObject(ExportLogsServiceRequest.fromObject(object), {}));
  if (problem !== null) throw new Error(`not an ExportLogsServiceRequest: ${problem}`);
  return ExportLogsServiceRequest.fromObject(object);
}

export interface ReceivedRequest {
  readonly contentType: string;
  readonly headers: IncomingMessage['headers'];
  readonly records: ReceivedRecord[];
}

export class OtlpReceiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly _sockets = new Set<Socket>();

  private constructor(
    private readonly _server: Server,
    readonly port: number,
  ) {}

  /**
   * Listens on 127.0.0.1 (`port` 0 picks one). After `acknowledge` requests it dies on the next
   * one: the connection is cut with no answer and the server closes, as a collector killed mid-export.
   */
  static async start(port = 0, acknowledge = Number.POSITIVE_INFINITY): Promise<OtlpReceiver> {
    let receiver: OtlpReceiver | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const r = receiver!;
        if (r.requests.length >= acknowledge) {
          r.kill();
          return;
        }
        const body = Buffer.concat(chunks);
        const contentType = req.headers['content-type'] ?? '';
        const message = contentType.includes('json') ? fromOtlpJson(body.toString('utf8')) : ExportLogsServiceRequest.decode(body);
        r.requests.push({ contentType, headers: req.headers, records: recordsOf(message) });
        res.writeHead(200, { 'content-type': contentType.includes('json') ? 'application/json' : 'application/x-protobuf' });
        res.end(contentType.includes('json') ? '{}' : Buffer.alloc(0));
      });
    });
    server.on('connection', (s: Socket) => {
      receiver?._sockets.add(s);
      s.on('close', () => receiver?._sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    receiver = new OtlpReceiver(server, address.port);
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get records(): ReceivedRecord[] {
    return this.requests.flatMap((r) => r.records);
  }

  /** Stops at once: open connections are cut. */
  kill(): void {
    this._server.close();
    for (const s of this._sockets) s.destroy();
  }

  async stop(): Promise<void> {
    this._server.closeAllConnections();
    await new Promise<void>((resolve) => this._server.close(() => resolve()));
  }
}
