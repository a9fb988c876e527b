// What every agent's sample replay shares (test/support/<agent>/sampleReplay.ts): a trimmed sample of
// the agent's session run through its real recorder, with screens shown by the test, keys handed over
// as the pipeline would, and the session file's lines appended to a real file under a temporary home
// when the test says so. Each agent's part says where that file goes and how the recorder finds it.
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Recorder } from '../../src/agents/agentAdapter.js';
import type { HookMessage } from '../../src/core/hookMessage.js';
import { Emitter } from '../../src/core/lifecycle.js';
import { keyEvent } from '../../src/lab/keys.js';
import { MemorySink } from './memorySink.js';
import type { TestScreen } from './testScreen.js';

/** A sample ending with its turn open makes the recorder wait for it at exit; nothing asserted depends on it. */
const RECONCILE_IN_TESTS_MS = 300;

export abstract class SampleReplay<R extends Recorder, Line> {
  readonly sink = new MemorySink();
  readonly hooks = new Emitter<HookMessage>();
  readonly home: string;
  abstract readonly recorder: R;
  /** The session file the replay appends to. */
  protected abstract readonly sessionFile: string;
  /** The sample's session file lines, as the replay writes them. */
  protected abstract readonly lines: readonly string[];
  private _next = 0;

  constructor(
    private readonly _agent: 'claude' | 'codex' | 'copilot' | 'gemini',
    readonly screen: TestScreen,
  ) {
    this.home = mkdtempSync(join(tmpdir(), `rec-${_agent}-replay-`));
  }

  /** A hook message as `rec hook` would deliver it. */
  hook(event: string, payload: Record<string, unknown>): void {
    this.hooks.fire({ agent: this._agent, event, payload: { hook_event_name: event, ...payload }, sent_at: new Date().toISOString() });
  }

  /** Appends the session file's lines up to and including the first one `until` accepts (all when omitted). */
  append(until?: (line: Line, text: string) => boolean): void {
    while (this._next < this.lines.length) {
      const text = this.lines[this._next++]!;
      appendFileSync(this.sessionFile, text + '\n');
      if (until?.(JSON.parse(text) as Line, text)) return;
    }
  }

  press(...keys: string[]): void {
    for (const k of keys) this.recorder.handleKey(keyEvent(k));
  }

  async exit(): Promise<void> {
    this.append();
    await this.recorder.handleExit({ exitCode: 0 }, AbortSignal.timeout(RECONCILE_IN_TESTS_MS));
    this.dispose();
  }

  dispose(): void {
    this.recorder.dispose();
    rmSync(this.home, { recursive: true, force: true });
  }
}
