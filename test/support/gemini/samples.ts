// Loads the Gemini CLI 0.61.0 samples (test/fixtures/gemini/0.61.0/samples, from
// ../shared/agents/gemini/samples) as the module sees them: screens as ScreenSnapshots (tmux
// capture-pane at 120 columns), chat files as lines.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LineStyle, ScreenSnapshot } from '../../../src/core/screen.js';

export const SAMPLES_DIR = join(fileURLToPath(new URL('.', import.meta.url)), '../../fixtures/gemini/0.61.0/samples');

const PLAIN: LineStyle = { bold: false, dim: false, inverse: false, fg: -1, bg: -1 };
let seq = 0;

export function screenFromLines(lines: readonly string[], cols = 120): ScreenSnapshot {
  const trimmed = lines.map((l) => l.trimEnd());
  return { cols, rows: trimmed.length, lines: trimmed, styles: trimmed.map(() => PLAIN), cursor: { x: 0, y: 0 }, seq: ++seq };
}

/** `screens/<name>.txt`, e.g. `shell-deny-option3.screen-0-dialog`. */
export function sampleScreen(name: string): ScreenSnapshot {
  return screenFromLines(readFileSync(join(SAMPLES_DIR, 'screens', `${name}.txt`), 'utf8').replace(/\n$/, '').split('\n'));
}

/** The chat file of a scenario, as lines (`<name>.session.jsonl`, or another suffix). */
export function sampleSessionFile(name: string, suffix = '.session.jsonl'): string[] {
  return readFileSync(join(SAMPLES_DIR, `${name}${suffix}`), 'utf8').split('\n').filter((l) => l.trim() !== '');
}

/**
 * The same screen drawn `cols` wide: every box row loses padding before its right border, as Gemini
 * redraws its dialog after a resize (rows that need no shrinking are left as they are).
 */
export function narrowed(snapshot: ScreenSnapshot, cols: number): ScreenSnapshot {
  const lines = snapshot.lines.map((line) => {
    const over = [...line].length - cols;
    const tail = /( ?[│╮╯])+$/.exec(line);
    if (over <= 0 || !tail) return line;
    const body = line.slice(0, tail.index);
    const pad = /[ ─]+$/.exec(body);
    if (!pad) return line;
    const keep = Math.max(1, pad[0].length - over);
    return body.slice(0, pad.index) + pad[0].slice(0, keep) + tail[0];
  });
  return screenFromLines(lines, cols);
}
