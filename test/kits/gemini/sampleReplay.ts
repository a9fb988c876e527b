// Replays a recorded Gemini CLI 0.61.0 session through the real GeminiRecorder: screens are shown in
// order, keys are handed over as the pipeline would, and chat records are appended to a real file
// under a temporary Gemini home the recorder follows (named by a SessionStart hook, or found by
// scanning the project's chats folder).
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GeminiRecorder } from '../../../src/agents/gemini/recorder.js';
import type { HookMessage } from '../../../src/core/hookMessage.js';
import { Emitter } from '../../../src/core/lifecycle.js';
import type { ScreenSnapshot } from '../../../src/core/screen.js';
import { keyEvent } from '../../helpers/keys.js';
import { MemorySink } from '../shared/memorySink.js';
import { TestScreen, blankScreen } from '../shared/testScreen.js';
import { sampleScreen, sampleSession } from './samples.js';

/** The samples were recorded on 2026-11-22 around 09:30 UTC; the run "started" just before. */
export const SAMPLE_RUN_START = new Date('2026-11-22T09:00:00.000Z');
/** The real Gemini CLI the repository pins: the recorder reads its version from its package.json. */
const GEMINI_BIN = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../node_modules/.bin/gemini');
/** Some samples end with nothing left to reconcile; the recorder then returns at once. */
const RECONCILE_IN_TESTS_MS = 300;

export class GeminiReplay {
  readonly sink = new MemorySink();
  readonly screen = new TestScreen(blankScreen());
  readonly hooks = new Emitter<HookMessage>();
  readonly home: string;
  readonly cwd: string;
  readonly chatFile: string;
  readonly recorder: GeminiRecorder;
  private readonly _lines: string[];
  private _next = 0;

  constructor(
    readonly sample: string,
    options: { announce?: boolean; sessionSuffix?: string } = {},
  ) {
    this.home = mkdtempSync(join(tmpdir(), 'rec-gemini-replay-'));
    this.cwd = join(this.home, 'work');
    mkdirSync(this.cwd);
    const chats = join(this.home, '.gemini', 'tmp', 'work', 'chats');
    mkdirSync(chats, { recursive: true });
    writeFileSync(join(this.home, '.gemini', 'projects.json'), JSON.stringify({ projects: { [this.cwd]: 'work' } }));
    // The samples' workdir was sanitised to `<RG>/work`: it is this replay's cwd.
    this._lines = sampleSession(sample, options.sessionSuffix).map((l) => l.split('<RG>/work').join(this.cwd));
    const sessionId = (JSON.parse(this._lines[0]!) as { sessionId: string }).sessionId;
    this.chatFile = join(chats, `session-2026-11-22T09-30-${sessionId.slice(0, 8)}.jsonl`);
    writeFileSync(this.chatFile, '');
    this.recorder = new GeminiRecorder({
      runId: 'run-1',
      cwd: this.cwd,
      env: { HOME: this.home, PATH: '', REC_GEMINI_BIN: GEMINI_BIN },
      startedAt: SAMPLE_RUN_START,
      screen: this.screen,
      sink: this.sink,
      hooks: this.hooks.event,
      debug: () => {},
      // One session alone in its folder: its only fit is taken at once (the settle has its own tests).
    }, { witnessSettleMs: 0 });
    if (options.announce !== false) this.hook('SessionStart', { session_id: sessionId, transcript_path: this.chatFile, source: 'startup' });
  }

  hook(event: string, payload: Record<string, unknown>): void {
    this.hooks.fire({ agent: 'gemini', event, payload: { hook_event_name: event, ...payload }, sent_at: new Date().toISOString() });
  }

  /** Appends chat records up to and including the first one `until` accepts (all when omitted). */
  append(until?: (record: Record<string, unknown>) => boolean): void {
    while (this._next < this._lines.length) {
      const line = this._lines[this._next++]!;
      appendFileSync(this.chatFile, line + '\n');
      if (until?.(JSON.parse(line) as Record<string, unknown>)) return;
    }
  }

  /** Appends through the first user record carrying the user's words (`[[scenario:…]]`). */
  appendThroughPrompt(): void {
    this.append((r) => r['type'] === 'user' && JSON.stringify(r['content']).includes('[[scenario:'));
  }

  show(name: string): void {
    this.screen.show(sampleScreen(name));
  }

  showSnapshot(snapshot: ScreenSnapshot): void {
    this.screen.show(snapshot);
  }

  press(...keys: string[]): void {
    for (const k of keys) this.recorder.handleKey(keyEvent(k));
  }

  async exit(): Promise<void> {
    this.append();
    await this.recorder.handleExit({ exitCode: 0 }, AbortSignal.timeout(RECONCILE_IN_TESTS_MS));
    this.recorder.dispose();
    rmSync(this.home, { recursive: true, force: true });
  }

  /** The session's call ids in the order its toolCalls list them (last record wins). */
  callIds(): string[] {
    const ids: string[] = [];
    for (const l of this._lines) {
      const r = JSON.parse(l) as { toolCalls?: Array<{ id: string }> };
      for (const c of r.toolCalls ?? []) if (!ids.includes(c.id)) ids.push(c.id);
    }
    return ids;
  }

  /** Decisions and fates, without prompt events. */
  outcomes() {
    return this.sink.rows('approval', 'rejection', 'skipped', 'interruption');
  }
}
