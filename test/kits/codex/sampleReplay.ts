// Replays a recorded Codex 0.169.0 session through the real CodexRecorder: screens are shown in
// order, keys are handed over as the pipeline would, and rollout records are appended to a real
// file under a temporary $CODEX_HOME the recorder follows.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { CodexRecorder } from '../../../src/agents/codex/recorder.js';
import type { HookMessage } from '../../../src/core/hookMessage.js';
import type { KeyEvent } from '../../../src/core/keys.js';
import { Emitter } from '../../../src/core/lifecycle.js';
import { MemorySink } from '../shared/memorySink.js';
import { TestScreen, blankScreen } from '../shared/testScreen.js';
import { sampleRollout, sampleScreen } from './samples.js';
import { keyEvent } from '../../helpers/keys.js';

/** The samples were recorded on 2026-11-22 around 09:28 UTC; the run "started" just before. */
export const SAMPLE_RUN_START = new Date('2026-11-22T09:00:00.000Z');
export const SAMPLE_CWD = '$BASE/work';

/**
 * Some samples end with the turn still open (Codex killed, Ctrl+C menu left open); the recorder then
 * waits this long for the rollout to close the turn. Shorter than the production bound only to keep
 * those tests quick; nothing asserted depends on it.
 */
const RECONCILE_IN_TESTS_MS = 300;

export type KeyName = 'esc' | 'enter' | 'up' | 'down' | 'ctrl-c';

export const key = keyEvent;

/** Replays not ended by exit() (a test that stops early, or fails): their temp homes go after each test. */
const open = new Set<CodexReplay>();
afterEach(() => {
  for (const r of open) r.dispose();
});

export class CodexReplay {
  readonly sink = new MemorySink();
  readonly screen = new TestScreen(blankScreen());
  readonly hooks = new Emitter<HookMessage>();
  readonly home: string;
  readonly rolloutFile: string;
  readonly recorder: CodexRecorder;
  private readonly _lines: string[];
  private _next = 0;

  constructor(
    readonly sample: string,
    options: { announceRollout?: boolean; ignoredKeySettleMs?: number; witnessSettleMs?: number } = {},
  ) {
    this.home = mkdtempSync(join(tmpdir(), 'rec-codex-replay-'));
    open.add(this);
    const dir = join(this.home, 'sessions', '2026', '11', '22');
    mkdirSync(dir, { recursive: true });
    this.rolloutFile = join(dir, `rollout-2026-11-22T09-00-00-${sample}.jsonl`);
    writeFileSync(this.rolloutFile, '');
    this._lines = sampleRollout(sample);
    this.recorder = new CodexRecorder({
      runId: 'run-1',
      cwd: SAMPLE_CWD,
      env: { CODEX_HOME: this.home },
      startedAt: SAMPLE_RUN_START,
      screen: this.screen,
      sink: this.sink,
      hooks: this.hooks.event,
      debug: () => {},
      // The replay's clock is the system's and its reconcile short: a lone fit is taken at once
      // unless a test asks for the settle (rolloutAmbiguity.test.ts).
    }, { witnessSettleMs: options.witnessSettleMs ?? 0, ...(options.ignoredKeySettleMs !== undefined ? { ignoredKeySettleMs: options.ignoredKeySettleMs } : {}) });
    if (options.announceRollout !== false) {
      const sessionId = (JSON.parse(this._lines[0]!) as { payload: { id: string } }).payload.id;
      this.hook('SessionStart', { session_id: sessionId, transcript_path: this.rolloutFile, source: 'startup' });
    }
  }

  hook(event: string, payload: Record<string, unknown>): void {
    this.hooks.fire({ agent: 'codex', event, payload: { hook_event_name: event, ...payload }, sent_at: new Date().toISOString() });
  }

  /** Appends rollout records up to and including the first one `until` accepts (all when omitted). */
  append(until?: (record: { type: string; payload: Record<string, unknown> }) => boolean): void {
    while (this._next < this._lines.length) {
      const line = this._lines[this._next++]!;
      appendFileSync(this.rolloutFile, line + '\n');
      if (until?.(JSON.parse(line))) return;
    }
  }

  /** Appends through the n-th record of a payload type (function_call, turn_aborted, …). */
  appendThrough(payloadType: string, n = 1): void {
    let seen = 0;
    this.append((r) => r.payload?.type === payloadType && ++seen === n);
  }

  show(screenName: string): void {
    this.screen.show(sampleScreen(`${this.sample}.${screenName}`));
  }

  press(...keys: Array<KeyName | string>): void {
    for (const k of keys) this.recorder.handleKey(key(k));
  }

  async exit(): Promise<void> {
    this.append();
    await this.recorder.handleExit({ exitCode: 0 }, AbortSignal.timeout(RECONCILE_IN_TESTS_MS));
    this.dispose();
  }

  dispose(): void {
    open.delete(this);
    this.recorder.dispose();
    rmSync(this.home, { recursive: true, force: true });
  }

  /** The call ids of the rollout's function calls, in order. */
  callIds(): string[] {
    return this._lines
      .map((l) => JSON.parse(l) as { payload?: { type?: string; call_id?: string } })
      .filter((r) => r.payload?.type === 'function_call')
      .map((r) => r.payload!.call_id!);
  }
}
