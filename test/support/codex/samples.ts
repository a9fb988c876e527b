// Loads the Codex 0.169.0 samples (test/fixtures/codex/0.169.0/samples) as the adapter sees them:
// screens as ScreenSnapshots, rollouts as lines.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LineStyle, ScreenSnapshot } from '../../../src/core/screen.js';

export const SAMPLES_DIR = join(fileURLToPath(new URL('.', import.meta.url)), '../../fixtures/codex/0.169.0/samples');

const PLAIN: LineStyle = { bold: false, dim: false, inverse: false, fg: -1, bg: -1 };
let seq = 0;

/** A screen as `tmux capture-pane -p` printed it (120x40), as a snapshot. */
export function sampleScreen(name: string): ScreenSnapshot {
  const text = readFileSync(join(SAMPLES_DIR, `${name}.screen.txt`), 'utf8');
  return screenFromText(text);
}

export function screenFromText(text: string, cols = 120): ScreenSnapshot {
  const lines = text.replace(/\n$/, '').split('\n').map((l) => l.trimEnd());
  return { cols, rows: lines.length, lines, styles: lines.map(() => PLAIN), cursor: { x: 0, y: 0 }, seq: ++seq };
}

export function sampleSessionFile(name: string): string[] {
  return readFileSync(join(SAMPLES_DIR, `${name}.rollout.jsonl`), 'utf8').split('\n').filter((l) => l.trim() !== '');
}
