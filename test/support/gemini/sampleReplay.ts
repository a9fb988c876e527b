// Replays a recorded Gemini CLI 0.61.0 session through the real GeminiRecorder: screens are shown in
// order, keys are handed over as the pipeline would, and chat records are appended to a real file
// under a temporary Gemini home the recorder follows (named by a SessionStart hook, or found by
// scanning the project's chats folder).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GeminiRecorder } from '../../../src/agents/gemini/recorder.js';
import type { ScreenSnapshot } from '../../../src/core/screen.js';
import { SampleReplay } from '../sampleReplay.js';
import { TestScreen, blankScreen } from '../testScreen.js';
import { sampleScreen, sampleSessionFile } from './samples.js';

/** The samples were recorded on 2026-11-22 around 09:30 UTC; the run "started" just before. */
export const SAMPLE_RUN_START = new Date('2026-11-22T09:00:00.000Z');
/** The real Gemini CLI the repository pins: the recorder reads its version from its package.json. */
const GEMINI_BIN = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../node_modules/.bin/gemini');

export class AgentReplay extends SampleReplay<GeminiRecorder, Record<string, unknown>> {
  readonly cwd: string;
  readonly chatFile: string;
  readonly recorder: GeminiRecorder;
  protected readonly sessionFile: string;
  protected readonly lines: string[];

  constructor(
    readonly sample: string,
    options: { announce?: boolean; sessionSuffix?: string } = {},
  ) {
    super('gemini', new TestScreen(blankScreen()));
    this.cwd = join(this.home, 'work');
    mkdirSync(this.cwd);
    const chats = join(this.home, '.gemini', 'tmp', 'work', 'chats');
    mkdirSync(chats, { recursive: true });
    writeFileSync(join(this.home, '.gemini', 'projects.json'), JSON.stringify({ projects: { [this.cwd]: 'work' } }));
    // The samples' workdir was sanitised to `<RG>/work`: it is this replay's cwd.
    this.lines = sampleSessionFile(sample, options.sessionSuffix).map((l) => l.split('<RG>/work').join(this.cwd));
    const sessionId = (JSON.parse(this.lines[0]!) as { sessionId: string }).sessionId;
    this.chatFile = join(chats, `session-2026-11-22T09-30-${sessionId.slice(0, 8)}.jsonl`);
    this.sessionFile = this.chatFile;
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

  /** The session's call ids in the order its toolCalls list them (last record wins). */
  callIds(): string[] {
    const ids: string[] = [];
    for (const l of this.lines) {
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
