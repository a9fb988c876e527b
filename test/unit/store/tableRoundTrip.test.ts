// Every field of every table, written by the store into a real SQLite file and read back by each
// reader: `rec events` / `rec runs` (SidecarDb), `rec merge` / `rec stats` (SidecarReader) and, for
// events, `rec export` (ExportSource). The
// arbitraries must cover every field of the schemas (checked first), so a field added to a schema is
// either round-tripped here or fails this file; a column decoded by one reader only cannot pass.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentVersionSource, DecidedBy, EventKind, EventType, Evidence, Ran, ReasonSource, RecEvent, Scope, Trigger } from '../../../src/core/events.js';
import { ExportSource } from '../../../src/store/exportCursor.js';
import { Run } from '../../../src/store/run.js';
import { openSidecar, type SidecarDb } from '../../../src/store/sidecarDb.js';
import { SidecarReader } from '../../../src/store/sidecarReader.js';
import { AgentRecordRow } from '../../../src/store/tables.js';
import { AGENT_NAMES } from '../../../src/agents/registry.js';

const dir = mkdtempSync(join(tmpdir(), 'rec-roundtrip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Text as it reaches the store: any code point (control characters, NUL, astral), empty too. */
const text = fc.string({ unit: 'binary', maxLength: 40 });
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
const oneOf = <T extends string>(values: readonly T[]) => fc.constantFrom(...values);
const isoTs = fc
  .date({ min: new Date('2000-01-01T00:00:00.000Z'), max: new Date('2099-12-31T23:59:59.999Z'), noInvalidDate: true })
  .map((d) => d.toISOString());
/** Any JSON value, as a JSON column holds it (what JSON cannot keep, like -0, never reaches one). */
const json = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const ids = (prefix: string) => fc.uuid().map((u) => `${prefix}-${u}`);

const eventFields = {
  id: ids('event'),
  run_id: fc.constant('set by the test'),
  agent: oneOf([...AGENT_NAMES, 'other']),
  agent_version: maybe(text),
  agent_session_id: maybe(text),
  ts: isoTs,
  type: oneOf(EventType.options),
  kind: maybe(oneOf(EventKind.options)),
  call_id: maybe(text),
  tool_name: maybe(text),
  tool_input: fc.oneof(fc.constant(null), text, json),
  decided_by: maybe(oneOf(DecidedBy.options)),
  trigger: maybe(oneOf(Trigger.options)),
  option_label: maybe(text),
  scope: maybe(oneOf(Scope.options)),
  reason: maybe(text),
  reason_source: maybe(oneOf(ReasonSource.options)),
  related_call_id: maybe(text),
  ran: maybe(oneOf(Ran.options)),
  partial_output: maybe(text),
  prompt: maybe(
    fc.record({
      title: text,
      // `__proto__` is left out: zod's record (like any plain-object copy) drops it, and the
      // recorder's detail keys are the agents' fixed label names (Reason, Destination, command…).
      details: fc.dictionary(
        text.filter((k) => k !== '__proto__'),
        text,
        { maxKeys: 3 },
      ),
      options: fc.array(fc.record({ label: text, key: text }, { requiredKeys: ['label'] }), { maxLength: 4 }),
    }),
  ),
  native: fc.oneof(fc.constant(null), json),
  evidence: fc.uniqueArray(oneOf(Evidence.options)),
  prompt_event_id: maybe(text),
  agent_version_verified: fc.option(fc.boolean(), { nil: null }),
};

const runFields = {
  id: ids('run'),
  agent: oneOf([...AGENT_NAMES, 'other']),
  agent_version: maybe(text),
  agent_version_verified: fc.option(fc.boolean(), { nil: null }),
  agent_version_source: maybe(oneOf(AgentVersionSource.options)),
  argv: fc.array(text, { maxLength: 5 }),
  cwd: text,
  started_at: isoTs,
  ended_at: isoTs,
  exit_code: maybe(fc.integer({ min: -255, max: 255 })),
  signal: maybe(fc.integer({ min: 1, max: 64 })),
  agent_session_id: maybe(text),
  agent_session_file: maybe(text),
  failed_parts: fc.array(fc.record({ part: text, error: text }), { maxLength: 3 }),
  rec_version: maybe(text),
  pid: maybe(fc.integer({ min: 1, max: 2 ** 31 - 1 })),
};

const recordFields = {
  id: fc.constant(0),
  run_id: fc.constant('set by the test'),
  agent: text,
  source_file: text,
  line_no: fc.nat(),
  byte_offset: fc.nat(),
  record: text,
  recorded_at: fc.constant('set by the store'),
};

let runCount = 0;

function openFileDb(name: string): SidecarDb {
  const opened = openSidecar(join(dir, `${name}.db`));
  if (!opened.ok) throw new Error(opened.error);
  return opened.db;
}

describe('the arbitraries cover every field of each table', () => {
  it.each([
    ['events', RecEvent.shape, eventFields],
    ['runs', Run.shape, runFields],
    ['agent_records', AgentRecordRow.shape, recordFields],
  ])('%s', (_table, shape, fields) => {
    expect(Object.keys(fields).sort()).toEqual(Object.keys(shape).sort());
  });
});

describe('round trip through a real SQLite file', () => {
  it('events: what insertEvent wrote, listEvents and the merge reader read back equal', () => {
    const db = openFileDb('events');
    const reader = () => SidecarReader.open(db.path).reader!;
    try {
      fc.assert(
        fc.property(fc.record(eventFields), (event) => {
          const runId = db.startRun({ agent: event.agent, argv: [], cwd: '/w', started_at: event.ts });
          const { id: _id, run_id: _run, agent, ...fields } = event;
          const id = db.insertEvent({ run_id: runId, agent }, fields);
          const expected: RecEvent = { ...event, id, run_id: runId };
          expect(RecEvent.parse(expected)).toEqual(expected);
          expect(db.listEvents({ runId })).toEqual([expected]);
          const r = reader();
          try {
            // by its session and by its run, as merge asks; other iterations may share the session id
            const read = r.eventsForSession(event.agent_session_id, [runId]).filter((e) => e.run_id === runId);
            expect(r.takeDiagnostics()).toEqual([]);
            // merge reads decisions; the prompts are the live recorder's own
            expect(read).toEqual(event.type === 'prompt' ? [] : [expected]);
          } finally {
            r.close();
          }
          // `rec export` reads the same codec, without the fields it never sends
          const { prompt: _p, native: _n, evidence: _e, prompt_event_id: _pe, ...exported } = expected;
          const page = new ExportSource(db, 'round trip').page(runId, null, 10);
          expect(page).toEqual(event.type === 'prompt' ? [] : [{ position: { ts: event.ts, id }, event: exported }]);
          expect(db.skippedRows()).toEqual([]);
        }),
        { numRuns: 150 },
      );
    } finally {
      db.close();
    }
  });

  it('runs: startRun, updateRun and finishRun, read back by getRun, listRuns and the merge reader', () => {
    const db = openFileDb('runs');
    try {
      fc.assert(
        fc.property(fc.record(runFields), (generated) => {
          // a fresh id even when shrinking replays a value
          const run = { ...generated, id: `${generated.id}-${++runCount}` };
          const { agent_version_verified, agent_version_source, agent_session_id, agent_session_file, agent_version, ended_at, exit_code, signal, failed_parts, ...start } = run;
          db.startRun(start);
          db.updateRun(run.id, { agent_version, agent_version_verified, agent_version_source, agent_session_id, agent_session_file });
          db.finishRun(run.id, { ended_at, exit_code, signal, failed_parts });
          expect(db.getRun(run.id)).toEqual(run);
          expect(db.listRuns().find((r) => r.id === run.id)).toEqual(run);
          const { reader } = SidecarReader.open(db.path);
          try {
            expect(reader!.run(run.id)).toEqual(run);
            expect(reader!.takeDiagnostics()).toEqual([]);
          } finally {
            reader!.close();
          }
        }),
        { numRuns: 100 },
      );
    } finally {
      db.close();
    }
  });

  it('agent_records: insertAgentRecord, read back by listAgentRecords and the merge reader', () => {
    const db = openFileDb('records');
    try {
      fc.assert(
        fc.property(fc.record(recordFields), (record) => {
          const runId = db.startRun({ agent: 'codex', argv: [], cwd: '/w', started_at: '2026-01-01T00:00:00.000Z' });
          db.insertAgentRecord(runId, 'codex', { source_file: record.source_file, line_no: record.line_no, byte_offset: record.byte_offset, record: record.record });
          const [written] = db.listAgentRecords(runId);
          expect(written).toEqual({ ...record, id: written!.id, run_id: runId, agent: 'codex', recorded_at: written!.recorded_at });
          const { reader } = SidecarReader.open(db.path);
          try {
            expect(reader!.agentRecords(runId)).toEqual([written]);
          } finally {
            reader!.close();
          }
        }),
        { numRuns: 100 },
      );
    } finally {
      db.close();
    }
  });
});
