// The end of a recording: the recorder's reconciliation after the agent exits is cut at its budget,
// the recorder leaves no timer behind, the database is closed once, and nothing is written to it
// afterwards — on a real SQLite file, the real ScreenModel and the real Codex recorder.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Database } from '../../../src/store/sqliteDriver.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Recorder } from '../../../src/agents/agentAdapter.js';
import type { AgentAdapter } from '../../../src/agents/agentModule.js';
import { codexAdapter } from '../../../src/agents/codex/adapter.js';
import { agentModule } from '../../../src/agents/registry.js';
import { CodexRecorder } from '../../../src/agents/codex/recorder.js';
import { Recording } from '../../../src/commands/recording.js';
import type { HookMessage } from '../../../src/core/hookMessage.js';
import { FailureLog } from '../../../src/core/failures.js';
import { Emitter } from '../../../src/core/lifecycle.js';
import type { SidecarSink } from '../../../src/store/eventSink.js';
import { openSidecar, SidecarDb } from '../../../src/store/sidecarDb.js';
import { VirtualClock } from '../../support/virtualClock.js';
import { useTempDir } from '../../support/tempDir.js';

const tempDir = useTempDir();
/** Far below RECONCILE_AFTER_EXIT_MS, to keep the test quick; nothing asserted depends on it. */
const BUDGET_IN_TESTS_MS = 200;
const START = new Date('2026-11-22T09:00:00.000Z');

afterEach(() => {
  vi.restoreAllMocks();
});

function rolloutLine(type: string, payload: Record<string, unknown>): string {
  return JSON.stringify({ timestamp: START.toISOString(), type, payload });
}

function open(dir: string, adapter: AgentAdapter, hooks: Emitter<HookMessage>, failures: FailureLog): Recording {
  const recording = Recording.open(
    {
      runId: 'run-shutdown',
      agent: 'codex',
      adapter,
      verifiedVersions: agentModule('codex').verifiedVersions,
      argv: ['codex'],
      cwd: dir,
      env: { CODEX_HOME: join(dir, 'codex-home') },
      dbPath: join(dir, 'rec.db'),
      startedAt: START,
      size: { cols: 80, rows: 24 },
      hooks: hooks.event,
      failures,
      debug: () => {},
      recVersion: 'test',
      pid: process.pid,
      agentPid: process.pid,
      reconcileAfterExitMs: BUDGET_IN_TESTS_MS,
    },
    [],
  );
  if (!recording) throw new Error(`the store did not open: ${JSON.stringify(failures.list())}`);
  return recording;
}

/** Rows of the run, read with a connection of its own (not a SidecarDb, whose close() is counted). */
function rowsOf(dir: string, table: 'agent_records' | 'events'): number {
  const db = new Database(join(dir, 'rec.db'), { readonly: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM ${table} WHERE run_id = ?`).get('run-shutdown') as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('a recording finishing after the agent exited', () => {
  it('cuts a reconciliation that would never end (turn left open), leaves no timer, closes the database once and writes nothing after', async () => {
    const dir = tempDir();
    const rollout = join(dir, 'rollout.jsonl');
    mkdirSync(join(dir, 'codex-home'));
    // A turn that started and never ends: the Codex recorder would reconcile until told to stop.
    writeFileSync(rollout, [rolloutLine('session_meta', { id: 's-1', cwd: dir, cli_version: '0.169.0' }), rolloutLine('event_msg', { type: 'task_started', turn_id: 't-1' })].join('\n') + '\n');
    const clock = new VirtualClock(START.getTime());
    const adapter: AgentAdapter = { ...codexAdapter, createRecorder: (ctx) => new CodexRecorder(ctx, { clock }) };
    const hooks = new Emitter<HookMessage>();
    const failures = new FailureLog();
    const close = vi.spyOn(SidecarDb.prototype, 'close');

    const recording = open(dir, adapter, hooks, failures);
    await recording.startRecorder();
    hooks.fire({ agent: 'codex', event: 'SessionStart', payload: { session_id: 's-1', transcript_path: rollout }, sent_at: START.toISOString() });
    expect(rowsOf(dir, 'agent_records')).toBe(2);
    expect(recording.watching).toBe(true); // the open turn

    await recording.finish({ exitCode: 0 });

    expect(close).toHaveBeenCalledTimes(1);
    expect(clock.nextDue).toBeUndefined(); // no poll, no settle check, no reconcile wait left
    expect(failures.list()).toEqual([]);
    // What the agent writes afterwards, and any time that passes, reaches nothing.
    appendFileSync(rollout, rolloutLine('event_msg', { type: 'task_complete', turn_id: 't-1' }) + '\n');
    hooks.fire({ agent: 'codex', event: 'Stop', payload: { session_id: 's-1', transcript_path: rollout }, sent_at: START.toISOString() });
    await clock.advanceTo(clock.now() + 60_000);
    expect(rowsOf(dir, 'agent_records')).toBe(2);
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('drops, without a store failure, what a recorder that ignores its stop signal writes after the database closed', async () => {
    const dir = tempDir();
    let lateWrite: (() => void) | undefined;
    let stopped: boolean | undefined;
    let sink: SidecarSink | undefined;
    const adapter: AgentAdapter = {
      ...codexAdapter,
      createRecorder: (ctx): Recorder => {
        sink = ctx.sink as SidecarSink;
        return {
          watching: false,
          handleKey: () => {},
          // Never returns by itself; once released by the test it writes, as a late timer would.
          handleExit: (_exit, stop) =>
            new Promise<void>(() => {
              lateWrite = () => {
                stopped = stop.aborted;
                ctx.sink.insertEvent({ ts: START.toISOString(), type: 'prompt', kind: 'command', evidence: ['screen'] });
                ctx.sink.insertAgentRecord({ source_file: 'late.jsonl', line_no: 1, byte_offset: 0, record: '{}' });
              };
            }),
          dispose: () => {},
        };
      },
    };
    const failures = new FailureLog();
    const close = vi.spyOn(SidecarDb.prototype, 'close');
    const recording = open(dir, adapter, new Emitter<HookMessage>(), failures);
    await recording.startRecorder();

    await recording.finish({ exitCode: 0 });
    lateWrite!();

    expect(stopped).toBe(true);
    expect(sink!.failure).toBeUndefined(); // not a write to a closed database
    expect(close).toHaveBeenCalledTimes(1);
    expect(failures.list()).toEqual([]);
    expect(rowsOf(dir, 'events')).toBe(0);
    expect(rowsOf(dir, 'agent_records')).toBe(0);
    const opened = openSidecar(join(dir, 'rec.db'));
    if (!opened.ok) throw new Error(opened.error);
    try {
      expect(opened.db.listRuns({}).find((r) => r.id === 'run-shutdown')?.ended_at).not.toBeNull();
    } finally {
      opened.db.close();
    }
  });
});
