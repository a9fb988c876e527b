import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecEvent } from '../../../src/core/events.js';
import { createEventSink } from '../../../src/store/eventSink.js';
import { openSidecar, type SidecarDb } from '../../../src/store/sidecarDb.js';
import { useTempDir } from '../../support/tempDir.js';

const tempDir = useTempDir();
const ts = '2025-03-04T05:06:07.089Z';

function setup(): { db: SidecarDb; runId: string } {
  const result = openSidecar(join(tempDir(), 'rec.db'));
  if (!result.ok) throw new Error(result.error);
  const runId = result.db.startRun({ agent: 'claude', argv: ['claude'], cwd: '/w', started_at: ts });
  return { db: result.db, runId };
}

describe('createEventSink', () => {
  it('marks the run and every event of it, before and after, with whether rec was verified on the version learned', () => {
    const { db, runId } = setup();
    const sink = createEventSink(db, { run_id: runId, agent: 'claude', isVerifiedVersion: (v) => v === '2.1.330' });
    const before = sink.insertEvent({ ts, type: 'prompt' });
    expect(db.listEvents()[0]).toMatchObject({ agent_version: null, agent_version_verified: null });
    sink.updateRun({ agent_version: '2.1.331' });
    const after = sink.insertEvent({ ts, type: 'rejection', kind: 'command' });
    const byId = new Map(db.listEvents().map((e) => [e.id, e]));
    expect(byId.get(before!)).toMatchObject({ agent_version: '2.1.331', agent_version_verified: false });
    expect(byId.get(after!)).toMatchObject({ agent_version: '2.1.331', agent_version_verified: false });
    expect(RecEvent.parse(byId.get(after!))).toMatchObject({ agent_version_verified: false });
    expect(db.getRun(runId)).toMatchObject({ agent_version: '2.1.331', agent_version_verified: false });
    expect(sink.agentVersion).toEqual({ version: '2.1.331', verified: false });
    db.close();
  });

  it('marks a verified version true, and leaves the mark null where no verifier is given (a plain command)', () => {
    const { db, runId } = setup();
    const verified = createEventSink(db, { run_id: runId, agent: 'claude', isVerifiedVersion: (v) => v === '2.1.330' });
    verified.updateRun({ agent_version: '2.1.330' });
    verified.insertEvent({ ts, type: 'prompt' });
    expect(db.getRun(runId)).toMatchObject({ agent_version_verified: true });
    expect(db.listEvents()[0]).toMatchObject({ agent_version_verified: true });
    const other = db.startRun({ agent: 'other', argv: ['sh'], cwd: '/w', started_at: ts });
    const plain = createEventSink(db, { run_id: other, agent: 'other' });
    plain.updateRun({ agent_version: '1.0' });
    expect(db.getRun(other)).toMatchObject({ agent_version: '1.0', agent_version_verified: null });
    db.close();
  });

  it('fills run_id, agent, agent_version and agent_session_id on events', () => {
    const { db, runId } = setup();
    const sink = createEventSink(db, { run_id: runId, agent: 'claude', agent_version: '2.0.1' });
    const id = sink.insertEvent({ ts, type: 'prompt' });
    expect(id).toBeTypeOf('string');
    expect(RecEvent.parse(db.listEvents()[0])).toMatchObject({ id, run_id: runId, agent: 'claude', agent_version: '2.0.1', agent_session_id: null });
    expect(sink.failure).toBeUndefined();
    db.close();
  });

  it('a later updateRun with the session id flows into the run row and into every event of the run', () => {
    const { db, runId } = setup();
    const sink = createEventSink(db, { run_id: runId, agent: 'claude' });
    const before = sink.insertEvent({ ts, type: 'prompt' });
    sink.updateRun({ agent_session_id: 'sess-42', agent_version: '2.0.2', agent_session_file: '/p/sess-42.jsonl' });
    const after = sink.insertEvent({ ts, type: 'rejection', kind: 'edit' });
    const byId = new Map(db.listEvents().map((e) => [e.id, e]));
    // An event written before the session was known is backfilled, so it joins with the session.
    expect(byId.get(before!)).toMatchObject({ agent_session_id: 'sess-42', agent_version: '2.0.2' });
    expect(byId.get(after!)).toMatchObject({ agent_session_id: 'sess-42', agent_version: '2.0.2' });
    expect(db.getRun(runId)).toMatchObject({ agent_session_id: 'sess-42', agent_session_file: '/p/sess-42.jsonl' });
    db.close();
  });

  it('updateEvent and insertAgentRecord go through to the database', () => {
    const { db, runId } = setup();
    const sink = createEventSink(db, { run_id: runId, agent: 'claude' });
    const id = sink.insertEvent({ ts, type: 'rejection', kind: 'command' })!;
    sink.updateEvent(id, { call_id: 'toolu_1', ran: 'no' });
    sink.insertAgentRecord({ source_file: '/s.jsonl', line_no: 1, byte_offset: 0, record: '{}' });
    expect(db.listEvents()[0]).toMatchObject({ call_id: 'toolu_1', ran: 'no' });
    expect(db.listAgentRecords(runId)).toHaveLength(1);
    expect(sink.failure).toBeUndefined();
    db.close();
  });

  it('disables itself after the first failure (disk full), reports it in one line, and never throws', () => {
    const { db, runId } = setup();
    const sink = createEventSink(db, { run_id: runId, agent: 'claude' });
    expect(sink.insertEvent({ ts, type: 'prompt' })).toBeTypeOf('string');
    // A real SQLITE_FULL: cap the database at its current size, then write more than fits.
    const pages = db.connection.pragma('page_count', { simple: true }) as number;
    db.connection.pragma(`max_page_count = ${pages}`);
    const big = 'x'.repeat(200_000);
    expect(sink.insertEvent({ ts, type: 'interruption', kind: 'response', partial_output: big })).toBeUndefined();
    expect(sink.failure).toMatch(/^insert event in .*rec\.db failed: disk full/);
    expect(sink.failure).not.toContain('\n');
    // Disabled: a small insert that would now fit is not attempted.
    db.connection.pragma('max_page_count = 1073741823');
    expect(sink.insertEvent({ ts, type: 'prompt' })).toBeUndefined();
    expect(() => sink.updateEvent('x', { ran: 'no' })).not.toThrow();
    expect(() => sink.updateRun({ agent_session_id: 's' })).not.toThrow();
    expect(db.listEvents()).toHaveLength(1);
    expect(sink.failure).toMatch(/disk full/); // the first failure is kept
    db.close();
  });

  it('an invalid event disables the sink rather than throwing into the caller', () => {
    const { db, runId } = setup();
    const sink = createEventSink(db, { run_id: runId, agent: 'claude' });
    expect(sink.insertEvent({ ts: 'not a date', type: 'prompt' })).toBeUndefined();
    expect(sink.failure).toMatch(/^insert event: invalid event at ts/);
    db.close();
  });

  it('a closed database disables the sink', () => {
    const { db, runId } = setup();
    const sink = createEventSink(db, { run_id: runId, agent: 'claude' });
    db.close();
    expect(sink.insertEvent({ ts, type: 'prompt' })).toBeUndefined();
    expect(sink.failure).toMatch(/insert event/);
  });

  it('retractEvent deletes exactly that event from the file (an ignored key leaves no row)', () => {
    const { db, runId } = setup();
    const sink = createEventSink(db, { run_id: runId, agent: 'claude' });
    const prompt = sink.insertEvent({ ts, type: 'prompt' })!;
    const decision = sink.insertEvent({ ts, type: 'approval', trigger: 'letter' })!;
    sink.retractEvent(decision);
    expect(db.listEvents().map((e) => e.id)).toEqual([prompt]);
    // Retracting an id that is not there is no store failure.
    sink.retractEvent(decision);
    expect(sink.failure).toBeUndefined();
    expect(db.deleteEvent(prompt)).toBe(true);
    expect(db.deleteEvent(prompt)).toBe(false);
    db.close();
  });
});
