// Replays a Claude Code 2.1.328 sample (unchanged in 2.1.330) through the real ClaudeRecorder:
// screens are shown in order, keys handed over as the pipeline would, and transcript lines appended
// to a real file under a temporary HOME, where the session id rec gave Claude (REC_CLAUDE_SESSION_ID)
// finds it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ClaudeRecorder } from '../../../src/agents/claude/recorder.js';
import { CLAUDE_SESSION_ENV } from '../../../src/agents/claude/launch.js';
import { SampleReplay } from '../sampleReplay.js';
import { TestScreen, blankScreen } from '../testScreen.js';
import { sampleHooks, sampleScreen, sampleSessionFile } from './samples.js';

/** Long enough that no ignored-key check fires within a test unless the test asks for one. */
const NO_IGNORED_KEY_CHECK_MS = 600_000;

interface Line {
  readonly type?: string;
  readonly sessionId?: string;
  readonly message?: { readonly content?: unknown };
}

export class AgentReplay extends SampleReplay<ClaudeRecorder, Line> {
  readonly transcript: string;
  readonly recorder: ClaudeRecorder;
  protected readonly sessionFile: string;
  protected readonly lines: string[];

  /** `transcript`: the transcript's lines, when they are not the sample's own (a fixture of another version). */
  constructor(readonly sample: string, options: { readonly ignoredKeySettleMs?: number; readonly announceTranscript?: boolean; readonly transcript?: readonly string[] } = {}) {
    super('claude', new TestScreen(blankScreen(120, 45)));
    this.lines = options.transcript ? [...options.transcript] : sampleSessionFile(sample);
    const sessionId = (JSON.parse(this.lines[0]!) as Line).sessionId!;
    const project = join(this.home, '.claude', 'projects', '-scratch-ws');
    mkdirSync(project, { recursive: true });
    this.transcript = join(project, `${sessionId}.jsonl`);
    this.sessionFile = this.transcript;
    writeFileSync(this.transcript, '');
    this.recorder = new ClaudeRecorder(
      {
        runId: 'run-1',
        cwd: '<SCRATCH>/ws',
        env: { HOME: this.home, [CLAUDE_SESSION_ENV]: sessionId },
        startedAt: new Date('2026-11-22T09:00:00.000Z'),
        screen: this.screen,
        sink: this.sink,
        hooks: this.hooks.event,
        debug: () => {},
      },
      { ignoredKeySettleMs: options.ignoredKeySettleMs ?? NO_IGNORED_KEY_CHECK_MS },
    );
    // SessionStart names the transcript as Claude starts (rec's hooks are always wired for Claude);
    // without it the recorder finds the file by the session id on its next scan.
    if (options.announceTranscript !== false) {
      this.hook('SessionStart', { session_id: sessionId, transcript_path: this.transcript, source: 'startup' });
    }
  }

  /** Appends through the n-th line whose text contains `needle`. */
  appendThrough(needle: string, n = 1): void {
    let seen = 0;
    this.append((_, text) => text.includes(needle) && ++seen === n);
  }

  /** Appends through the line of the n-th tool_use block. */
  appendThroughCall(n = 1): void {
    let seen = 0;
    this.append((line) => {
      const content = line.type === 'assistant' ? line.message?.content : undefined;
      return Array.isArray(content) && content.some((b: { type?: string }) => b.type === 'tool_use') && ++seen === n;
    });
  }

  show(screenName: string): void {
    this.screen.show(sampleScreen(screenName));
  }

  showText(lines: readonly string[]): void {
    this.screen.show({ ...blankScreen(120, 45), lines: [...lines, ...Array.from({ length: Math.max(0, 45 - lines.length) }, () => '')] });
  }

  /** Forwards the sample's hook payloads whose event is listed, in order. */
  fireHooks(name: string, events: readonly string[], filter: (payload: Record<string, unknown>) => boolean = () => true): void {
    for (const m of sampleHooks(name)) if (events.includes(m.event) && filter(m.payload as Record<string, unknown>)) this.hooks.fire(m);
  }

  /** The tool_use ids of the transcript, in order. */
  callIds(): string[] {
    const ids: string[] = [];
    for (const text of this.lines) {
      const line = JSON.parse(text) as Line;
      const content = line.type === 'assistant' ? line.message?.content : undefined;
      if (Array.isArray(content)) for (const b of content as Array<{ type?: string; id?: string }>) if (b.type === 'tool_use' && b.id) ids.push(b.id);
    }
    return ids;
  }
}

/** The input prompt, idle (a decided permission prompt is gone from the pane). */
export const IDLE_PANE = ['────────────────────────────────────────', '❯ ', '────────────────────────────────────────', '  ⏸ manual mode on · ? for shortcuts'];
