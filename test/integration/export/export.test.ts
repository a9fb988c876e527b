// `rec export` end to end: recorded runs of every agent (replayed through their real recorders)
// in a real sidecar file, exported over real HTTP to a receiver on 127.0.0.1 that decodes with the
// official OTLP definitions, in protobuf and in JSON, and to a file checked against the OTLP JSON
// shape. Each received record is compared with its row in the sidecar; a receiver killed mid-export
// and restarted loses no event and gets none twice.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RecEvent } from '../../../src/core/events.js';
import { eventsCommand } from '../../../src/commands/events.js';
import { exportCommand } from '../../../src/commands/export.js';
import { runCommand } from '../../support/runCommand.js';
import { fromOtlpJson, OtlpReceiver, recordsOf, type ReceivedRecord } from '../../support/otlpReceiver.js';
import { OtlpJsonLogsRequest } from '../../support/otlpJsonSchema.js';
import { SidecarFixture } from '../../support/sidecarFixture.js';
import { replayRecorded as replayCodex } from '../../support/codex/recordedRun.js';
import { replayRecorded as replayGemini } from '../../support/gemini/recordedRun.js';
import { replayRecorded as replayClaude } from '../../support/claude/recordedRun.js';
import { replayRecorded as replayCopilot } from '../../support/copilot/recordedRun.js';
import { AGENT_NAMES } from '../../../src/agents/registry.js';

const fixture = new SidecarFixture();
let decisions: RecEvent[] = [];

beforeAll(async () => {
  const replays = [
    { agent: 'codex', events: (await replayCodex('parallel-approve-reject')).events },
    { agent: 'gemini', events: (await replayGemini('parallel-writes-reject-first')).events },
    { agent: 'claude', events: (await replayClaude('bash-reject-reason')).events },
    { agent: 'copilot', events: (await replayCopilot('parallel-second-esc')).events },
  ] as const;
  for (const { agent, events } of replays) {
    const first = events[0]!;
    fixture.addRun({ id: `run-${agent}`, agent, agent_version: first.agent_version, agent_session_id: first.agent_session_id });
    events.forEach((e, i) => {
      const { id: _id, run_id: _run, agent: _agent, ...fields } = e;
      fixture.addEvent({ ...fields, id: `${agent}-${i}`, run_id: `run-${agent}` });
    });
  }
  const listed = await runCommand(eventsCommand, ['--db', fixture.path, '--json']);
  decisions = listed.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as RecEvent)
    .filter((e) => e.type !== 'prompt');
}, 120_000);
afterAll(() => {
  fixture.close();
  fixture.remove();
});

/** What a record must carry for its row, whatever the transport. */
function expectMatchesRow(record: ReceivedRecord, row: RecEvent, includeText: boolean): void {
  const a = record.attributes;
  expect(record.timeUnixNano).toBe(`${BigInt(Date.parse(row.ts)) * 1_000_000n}`);
  const name = row.type === 'interruption' ? 'rec.interruption' : 'rec.tool_decision';
  expect(record.eventName).toBe(name);
  expect(a['event.name']).toBe(name);
  expect(a['rec.type']).toBe(row.type);
  expect(a['rec.run_id']).toBe(row.run_id);
  expect(a['agent.name']).toBe(row.agent);
  expect(a['agent.version']).toBe(row.agent_version ?? undefined);
  expect(a['session.id']).toBe(row.agent_session_id ?? undefined);
  expect(a['tool.call_id']).toBe(row.call_id ?? undefined);
  expect(a['tool.name']).toBe(row.tool_name ?? undefined);
  expect(a['rec.kind']).toBe(row.kind ?? undefined);
  expect(a['rec.trigger']).toBe(row.trigger ?? undefined);
  expect(a['rec.scope']).toBe(row.scope ?? undefined);
  expect(a['rec.reason_source']).toBe(row.reason_source ?? undefined);
  expect(a['rec.ran']).toBe(row.ran ?? undefined);
  expect(a['rec.related_call_id']).toBe(row.related_call_id ?? undefined);
  expect(a['rec.option_label']).toBe(row.option_label ?? undefined);
  expect(a.decision).toBe({ approval: 'accept', rejection: 'reject' }[row.type as string]);
  if (row.type === 'rejection' && row.decided_by === 'user') expect(a.source).toBe(row.trigger === 'esc' || row.trigger === 'ctrl_c' ? 'user_abort' : 'user_reject');
  expect(a['rec.reason']).toBe(includeText ? (row.reason ?? undefined) : undefined);
  expect(a['rec.partial_output']).toBe(includeText ? (row.partial_output ?? undefined) : undefined);
  if (!includeText) expect(a['rec.tool_input']).toBeUndefined();
  expect(record.resource['service.name']).toBe('rec');
  expect(typeof record.resource['host.name']).toBe('string');
  expect(record.resource['user.name']).toBeUndefined();
}

function expectAllOnce(records: readonly ReceivedRecord[], includeText: boolean): void {
  const ids = records.map((r) => r.attributes['rec.event_id']);
  expect(new Set(ids).size).toBe(ids.length);
  expect([...ids].sort()).toEqual(decisions.map((d) => d.id).sort());
  for (const record of records) expectMatchesRow(record, decisions.find((d) => d.id === record.attributes['rec.event_id'])!, includeText);
}

describe('rec export (recorded runs of every agent)', () => {
  it('the fixture holds decisions of every agent rec knows, a reason among them', () => {
    expect(new Set(decisions.map((d) => d.agent))).toEqual(new Set(AGENT_NAMES));
    expect(new Set(decisions.map((d) => d.type))).toEqual(new Set(['approval', 'rejection', 'skipped']));
    expect(decisions.some((d) => d.reason !== null)).toBe(true);
  });

  it('sends every decision once over OTLP/HTTP protobuf, each as its row says, and nothing the second time', async () => {
    const receiver = await OtlpReceiver.start();
    try {
      const first = await runCommand(exportCommand, ['--db', fixture.path, '--otlp', receiver.url]);
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      expect(receiver.requests.every((r) => r.contentType === 'application/x-protobuf')).toBe(true);
      expectAllOnce(receiver.records, false);
      const again = await runCommand(exportCommand, ['--db', fixture.path, '--otlp', receiver.url]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain('Nothing new');
      expect(receiver.records).toHaveLength(decisions.length);
    } finally {
      await receiver.stop();
    }
  });

  it('sends OTLP JSON with the text when asked, and the headers of OTEL_EXPORTER_OTLP_HEADERS', async () => {
    const receiver = await OtlpReceiver.start();
    vi.stubEnv('OTEL_EXPORTER_OTLP_HEADERS', 'x-team=blue');
    try {
      // Another path of the same endpoint is another destination, with its own cursor.
      const r = await runCommand(exportCommand, ['--db', fixture.path, '--otlp', `${receiver.url}/v1/logs`, '--include-text', '--user'], { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
      expect(r.code, r.stderr).toBe(0);
      expect(receiver.requests.every((q) => q.contentType.startsWith('application/json') && q.headers['x-team'] === 'blue')).toBe(true);
      const records = receiver.records.map((rec) => ({ ...rec, resource: { ...rec.resource, 'user.name': undefined } }));
      expectAllOnce(records, true);
      expect(receiver.records.every((rec) => typeof rec.resource['user.name'] === 'string')).toBe(true);
    } finally {
      vi.unstubAllEnvs();
      await receiver.stop();
    }
  });

  it('a receiver killed mid-export and restarted gets every event, none twice; the failure is one line and exit 1', async () => {
    const big = new SidecarFixture().addRun({ id: 'run-big', agent: 'codex' });
    for (let i = 0; i < 1200; i++) big.addEvent({ id: `e${i}`, run_id: 'run-big', type: i % 3 === 0 ? 'approval' : 'rejection', ts: new Date(Date.UTC(2026, 10, 22, 9, 0, 0, i)).toISOString(), call_id: `call_${i}`, trigger: 'esc' });
    big.close();
    const killed = await OtlpReceiver.start(0, 1);
    // The exporter retries a refused connection until this timeout (10 s unless told).
    vi.stubEnv('OTEL_EXPORTER_OTLP_TIMEOUT', '1500');
    try {
      const failed = await runCommand(exportCommand, ['--db', big.path, '--otlp', killed.url]);
      expect(failed.code).toBe(1);
      expect(failed.stderr.trim().split('\n')).toHaveLength(1);
      expect(failed.stderr).toMatch(/not acknowledged, even after retrying .*; 512 events of 1 run sent before it; the next export resumes there/);
      const restarted = await OtlpReceiver.start(killed.port);
      try {
        const resumed = await runCommand(exportCommand, ['--db', big.path, '--otlp', killed.url]);
        expect(resumed.code, resumed.stderr).toBe(0);
        const ids = [...killed.records, ...restarted.records].map((r) => r.attributes['tool.call_id']);
        expect(new Set(ids).size).toBe(1200);
        expect(ids).toHaveLength(1200);
      } finally {
        await restarted.stop();
      }
    } finally {
      vi.unstubAllEnvs();
      big.remove();
    }
  }, 60_000);

  it('--otlp-file writes OTLP JSON lines of the official shape, appending only what is new', async () => {
    const file = join(fixture.dir, 'export.jsonl');
    const dry = await runCommand(exportCommand, ['--db', fixture.path, '--otlp-file', file, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout.trim().split('\n')).toHaveLength(decisions.length);
    const r = await runCommand(exportCommand, ['--db', fixture.path, '--otlp-file', file]);
    expect(r.code, r.stderr).toBe(0);
    const again = await runCommand(exportCommand, ['--db', fixture.path, '--otlp-file', file]);
    expect(again.code, again.stderr).toBe(0);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    for (const line of lines) expect(() => OtlpJsonLogsRequest.parse(JSON.parse(line))).not.toThrow();
    expectAllOnce(
      lines.flatMap((line) => recordsOf(fromOtlpJson(line))),
      false,
    );
  });

  it('says what is wrong with the options in one line, exit 2', async () => {
    const none = await runCommand(exportCommand, ['--db', fixture.path]);
    expect([none.code, none.stderr]).toEqual([2, 'rec export: say where to send: --otlp URL or --otlp-file FILE (one of them)\n']);
    const bad = await runCommand(exportCommand, ['--db', fixture.path, '--otlp', 'ftp://x']);
    expect(bad.code).toBe(2);
    const grpc = await runCommand(exportCommand, ['--db', fixture.path, '--otlp', 'http://127.0.0.1:1'], { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
    expect(grpc.code).toBe(2);
  });
});
