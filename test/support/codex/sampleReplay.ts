// Replays a recorded Codex 0.169.0 session through the real CodexRecorder: screens are shown in
// order, keys are handed over as the pipeline would, and rollout records are appended to a real
// file under a temporary $CODEX_HOME the recorder follows.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { CodexRecorder } from '../../../src/agents/codex/recorder.js';
import { SampleReplay } from '../sampleReplay.js';
import { TestScreen, blankScreen } from '../testScreen.js';
import { sampleSessionFile, sampleScreen } from './samples.js';

/** The samples were recorded on 2026-11-22 around 09:28 UTC; the run "started" just before. */
export const SAMPLE_RUN_START = new Date('2026-11-22T09:00:00.000Z');
export const SAMPLE_CWD = '$BASE/work';

/** Replays not ended by exit() (a test that stops early, or fails): their temp homes go after each test. */
const open = new Set<AgentReplay>();
afterEach(() => {
  for (const r of open) r.dispose();
});

type RolloutRecord = { type: string; payload: Record<string, unknown> };

export class AgentReplay extends SampleReplay<CodexRecorder, RolloutRecord> {
  readonly rolloutFile: string;
  readonly recorder: CodexRecorder;
  protected readonly sessionFile: string;
  protected readonly lines: string[];

  constructor(
    readonly sample: string,
    /** `rollout`: the rollout's lines, when they are not the sample's own (a fixture of another version). */
    options: { announceRollout?: boolean; ignoredKeySettleMs?: number; witnessSettleMs?: number; rollout?: readonly string[] } = {},
  ) {
    super('codex', new TestScreen(blankScreen()));
    open.add(this);
    const dir = join(this.home, 'sessions', '2026', '11', '22');
    mkdirSync(dir, { recursive: true });
    this.rolloutFile = join(dir, `rollout-2026-11-22T09-00-00-${sample}.jsonl`);
    this.sessionFile = this.rolloutFile;
    writeFileSync(this.rolloutFile, '');
    this.lines = options.rollout ? [...options.rollout] : sampleSessionFile(sample);
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
      const sessionId = (JSON.parse(this.lines[0]!) as { payload: { id: string } }).payload.id;
      this.hook('SessionStart', { session_id: sessionId, transcript_path: this.rolloutFile, source: 'startup' });
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

  override dispose(): void {
    open.delete(this);
    super.dispose();
  }

  /** The call ids of the rollout's function calls, in order. */
  callIds(): string[] {
    return this.lines
      .map((l) => JSON.parse(l) as { payload?: { type?: string; call_id?: string } })
      .filter((r) => r.payload?.type === 'function_call')
      .map((r) => r.payload!.call_id!);
  }
}
