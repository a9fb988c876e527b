// The OTLP JSON encoding of an ExportLogsServiceRequest, as zod: the messages of the official
// opentelemetry-proto logs, common and resource definitions under the protobuf JSON mapping that
// OTLP specifies (lowerCamelCase names, 64-bit integers as decimal strings, trace and span ids as
// hex, enums as numbers). Strict: a field the definitions do not have fails.
import { z } from 'zod';

const uint64 = z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative()]);

type AnyValue = { stringValue: string } | { boolValue: boolean } | { intValue: string | number } | { doubleValue: number } | { bytesValue: string } | { arrayValue: { values?: AnyValue[] } } | { kvlistValue: { values?: KeyValue[] } };
interface KeyValue {
  key: string;
  value?: AnyValue;
}

const AnyValue: z.ZodType<AnyValue> = z.lazy(() =>
  z.union([
    z.strictObject({ stringValue: z.string() }),
    z.strictObject({ boolValue: z.boolean() }),
    z.strictObject({ intValue: z.union([z.string().regex(/^-?\d+$/), z.number().int()]) }),
    z.strictObject({ doubleValue: z.number() }),
    z.strictObject({ bytesValue: z.string() }),
    z.strictObject({ arrayValue: z.strictObject({ values: z.array(AnyValue).optional() }) }),
    z.strictObject({ kvlistValue: z.strictObject({ values: z.array(KeyValue).optional() }) }),
  ]),
);
const KeyValue: z.ZodType<KeyValue> = z.lazy(() => z.strictObject({ key: z.string(), value: AnyValue.optional() }));

const LogRecord = z.strictObject({
  timeUnixNano: uint64.optional(),
  observedTimeUnixNano: uint64.optional(),
  severityNumber: z.number().int().min(0).max(24).optional(),
  severityText: z.string().optional(),
  body: AnyValue.optional(),
  attributes: z.array(KeyValue).optional(),
  droppedAttributesCount: z.number().int().nonnegative().optional(),
  flags: z.number().int().nonnegative().optional(),
  traceId: z.string().regex(/^([0-9a-f]{32})?$/).optional(),
  spanId: z.string().regex(/^([0-9a-f]{16})?$/).optional(),
  eventName: z.string().optional(),
});

const InstrumentationScope = z.strictObject({
  name: z.string().optional(),
  version: z.string().optional(),
  attributes: z.array(KeyValue).optional(),
  droppedAttributesCount: z.number().int().nonnegative().optional(),
});

const Resource = z.strictObject({
  attributes: z.array(KeyValue).optional(),
  droppedAttributesCount: z.number().int().nonnegative().optional(),
});

export const OtlpJsonLogsRequest = z.strictObject({
  resourceLogs: z.array(
    z.strictObject({
      resource: Resource.optional(),
      scopeLogs: z.array(z.strictObject({ scope: InstrumentationScope.optional(), logRecords: z.array(LogRecord).optional(), schemaUrl: z.string().optional() })).optional(),
      schemaUrl: z.string().optional(),
    }),
  ),
});
