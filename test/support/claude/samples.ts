// Loads the Claude Code samples (test/fixtures/claude/2.1.328/samples, unchanged in 2.1.330) as the
// module sees them: screens as ScreenSnapshots, transcripts as lines, hook payloads as HookMessages.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HookMessage } from '../../../src/core/hookMessage.js';
import type { LineStyle, ScreenSnapshot } from '../../../src/core/screen.js';

export const SAMPLES_DIR = join(fileURLToPath(new URL('.', import.meta.url)), '../../fixtures/claude/2.1.328/samples');

const PLAIN: LineStyle = { bold: false, dim: false, inverse: false, fg: -1, bg: -1 };
let seq = 0;

export function sampleScreenText(name: string): string {
  return readFileSync(join(SAMPLES_DIR, 'screens', `${name}.txt`), 'utf8');
}

/** A screen as `tmux capture-pane -p` printed it (120x45), as a snapshot. */
export function sampleScreen(name: string): ScreenSnapshot {
  return screenFromText(sampleScreenText(name));
}

export function screenFromText(text: string, cols = 120): ScreenSnapshot {
  const lines = text.replace(/\n$/, '').split('\n').map((l) => l.trimEnd());
  return { cols, rows: lines.length, lines, styles: lines.map(() => PLAIN), cursor: { x: 0, y: 0 }, seq: ++seq };
}

export function sampleSessionFile(name: string): string[] {
  return readFileSync(join(SAMPLES_DIR, 'transcript', `${name}.jsonl`), 'utf8').split('\n').filter((l) => l.trim() !== '');
}

/** Hook payloads as hook-logger.mjs logged them (one stdin JSON a line), as `rec hook claude <Event>` forwards them. */
export function sampleHooks(name: string): HookMessage[] {
  return readFileSync(join(SAMPLES_DIR, 'hooks', `${name}.jsonl`), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { hook_event_name: string })
    .map((payload) => ({ agent: 'claude', event: payload.hook_event_name, payload, sent_at: '2026-11-20T09:28:00.000Z' }));
}
