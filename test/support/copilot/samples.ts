// GitHub Copilot CLI 1.0.102's screens and session files as the module sees them, taken from the
// recordings of the real CLI (test/fixtures/copilot/1.0.102/recorded, scripts/record-copilot-fixtures.mjs):
// Copilot has no hand-captured samples, so a sample is a named frame of a recording.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LineStyle, ScreenSnapshot } from '../../../src/core/screen.js';
import { readScreenFrames } from '../castReplay.js';

export const SAMPLES_DIR = fileURLToPath(new URL('../../fixtures/copilot/1.0.102/recorded', import.meta.url));

const PLAIN: LineStyle = { bold: false, dim: false, inverse: false, fg: -1, bg: -1 };
let seq = 0;

/**
 * `<recording>.<frame label>`, e.g. `bash-approve-digit.prompt`: the first frame of that label in
 * `<recording>.screen.txt`, its first `rows` rows, as the screen model would show it.
 */
export function sampleScreen(name: string): ScreenSnapshot {
  // Labels hold no dot; a recording's later start does (`resume-continue.launch2`).
  const dot = name.lastIndexOf('.');
  const [recording, label] = [name.slice(0, dot), name.slice(dot + 1)];
  const frame = readScreenFrames(join(SAMPLES_DIR, `${recording}.screen.txt`)).find((f) => f.label === label);
  if (!frame) throw new Error(`no frame '${label}' in ${recording}.screen.txt`);
  const lines = frame.text.split('\n').slice(0, frame.rows).map((l) => l.trimEnd());
  while (lines.length < frame.rows) lines.push('');
  return { cols: frame.cols, rows: frame.rows, lines, styles: lines.map(() => PLAIN), cursor: { x: 0, y: 0 }, seq: ++seq };
}

/** A recording's events.jsonl, as lines. */
export function sampleSessionFile(name: string): string[] {
  return readFileSync(join(SAMPLES_DIR, `${name}.events.jsonl`), 'utf8').split('\n').filter((l) => l.trim() !== '');
}
