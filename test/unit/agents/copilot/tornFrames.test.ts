// Copilot redraws only the cells that changed, and a pty read may end anywhere in a redraw: every
// prefix of each recording's output, cut every few bytes, is rendered through the real screen model
// and read. A prompt read from a half-drawn screen must be one of the prompts the recording's
// labelled frames show (the same call, the same options), never a box that was never whole.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCopilotScreen, type CopilotPrompt } from '../../../../src/agents/copilot/screenParser.js';
import { COPILOT_1_0_102 } from '../../../../src/agents/copilot/strings/v1_0_102.js';
import type { ScreenSnapshot } from '../../../../src/core/screen.js';
import { ScreenModel } from '../../../../src/screen/screenModel.js';
import { readCast, readScreenFrames } from '../../../support/castReplay.js';

const DIR = join(import.meta.dirname, '../../../fixtures/copilot/1.0.102/recorded');
/** Bytes between two cuts inside one pty read. */
const CUT_EVERY = 16;

const shape = (p: CopilotPrompt) => JSON.stringify([p.kind, p.identity, p.options.map((o) => o.label)]);

function textSnapshot(text: string, cols: number, rows: number): ScreenSnapshot {
  const lines = text.split('\n').slice(0, rows).map((l) => l.trimEnd());
  return { cols, rows, lines, styles: [], cursor: { x: 0, y: 0 }, seq: 0 };
}

/** The prompts the labelled frames of a recording show. */
function promptsShown(name: string): Set<string> {
  const shown = new Set<string>();
  for (const frame of readScreenFrames(join(DIR, `${name}.screen.txt`))) {
    const prompt = parseCopilotScreen(textSnapshot(frame.text, frame.cols, frame.rows), COPILOT_1_0_102).prompt;
    if (prompt) shown.add(shape(prompt));
  }
  return shown;
}

/** Every prompt read from a prefix of the recording's output, with where the cut fell. */
async function promptsWhileDrawing(name: string): Promise<Array<{ at: string; prompt: CopilotPrompt }>> {
  const cast = readCast(join(DIR, `${name}.cast`));
  const screen = new ScreenModel({ cols: cast.cols, rows: cast.rows, busyParseShare: 1 });
  const out: Array<{ at: string; prompt: CopilotPrompt }> = [];
  try {
    for (const [n, event] of cast.events.entries()) {
      if (event.kind === 'r') {
        const [cols, rows] = event.data.split('x').map(Number);
        screen.resize(cols!, rows!);
        continue;
      }
      if (event.kind !== 'o') continue;
      const bytes = Buffer.from(event.data, 'utf8');
      for (let from = 0; from < bytes.length; from += CUT_EVERY) {
        screen.write(bytes.subarray(from, Math.min(bytes.length, from + CUT_EVERY)));
        // Parsed at once where the model can (a write it holds half parsed waits for xterm's loop).
        if (!screen.catchUp()) await screen.whenIdle();
        const prompt = parseCopilotScreen(screen.snapshot(), COPILOT_1_0_102).prompt;
        if (prompt) out.push({ at: `event ${n} byte ${Math.min(bytes.length, from + CUT_EVERY)}`, prompt });
      }
    }
  } finally {
    screen.dispose();
  }
  return out;
}

const NAMES = readdirSync(DIR)
  .filter((f) => f.endsWith('.cast'))
  .map((f) => f.slice(0, -'.cast'.length))
  .sort();

describe('copilot 1.0.102, 120x40, half-drawn screens from the recordings', () => {
  it.each(NAMES)('%s: every prompt read while drawing is one its labelled frames show', async (name) => {
    const shown = promptsShown(name);
    const read = await promptsWhileDrawing(name);
    const wrong = read.filter((r) => !shown.has(shape(r.prompt))).map((r) => `${r.at}: ${shape(r.prompt)}`);
    expect(wrong).toEqual([]);
    // Each prompt the frames show is read while drawing too, once it is whole.
    expect(new Set(read.map((r) => shape(r.prompt)))).toEqual(shown);
  });
});
