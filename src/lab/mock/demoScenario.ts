// What the mock model does in `rec demo`: one of each kind of decision a person meets, in order —
// a harmless command, a file edit, a long-running command — then a streamed answer. The script
// moves on at every model request, not at every step of a turn: a refusal or an Esc ends Codex's
// turn, and whatever the user types next must bring the next proposal, not the same one again.
import { applyPatchHeredoc, escalated, type MockReply, type Scenario } from './openaiResponses/scenarios.js';

/** The first message, given to the agent on its command line so that the demo starts at once. */
export const DEMO_PROMPT = 'Show me what rec records.';

export const DEMO_HARMLESS_COMMAND = 'echo hello from the rec demo';
export const DEMO_EDIT_FILE = 'demo-notes.txt';
/** About a minute of ticks: long enough to interrupt, harmless if left to run. */
export const DEMO_LONG_COMMAND = 'for i in $(seq 1 60); do echo tick $i; sleep 1; done';

/** How long Codex waits for the long command's output before it reports it as still running. */
const LONG_YIELD_MS = 30_000;
/** Delay between streamed chunks: slow enough to read along, and to press Esc in the middle. */
const STREAM_DELAY_MS = 150;
const STREAM_CHUNK_CHARS = 6;

export const DEMO_ANSWER =
  'That was the whole demo. rec watched every prompt: what you approved, what you refused and ' +
  'with which key, and what you cut short. Press Ctrl+C twice to quit, and rec will show what it ' +
  'recorded, then the merged session it builds from its sidecar and the agent\u2019s own file.';

export const DEMO_OVER = 'The demo is over: press Ctrl+C twice to quit and see what rec recorded.';

const STEPS: readonly MockReply[] = [
  {
    type: 'calls',
    text: 'First, a harmless command. Approve it or refuse it, with any key you like.',
    calls: [escalated(DEMO_HARMLESS_COMMAND, 'Print a greeting (harmless)?')],
  },
  {
    type: 'calls',
    text: `Next, a file edit: ${DEMO_EDIT_FILE} in the demo's own temporary project.`,
    calls: [applyPatchHeredoc(`*** Begin Patch\n*** Add File: ${DEMO_EDIT_FILE}\n+written during the rec demo\n*** End Patch`)],
  },
  {
    type: 'calls',
    text: 'Now a long-running command. Approve it, then press Esc while it runs to interrupt it.',
    calls: [escalated(DEMO_LONG_COMMAND, 'Count to 60, one tick a second?', LONG_YIELD_MS)],
  },
  { type: 'text', text: DEMO_ANSWER, chunkChars: STREAM_CHUNK_CHARS, delayMs: STREAM_DELAY_MS },
];

/** A fresh demo script: each model request gets the next step, then the closing line. */
export function createDemoScenario(): Scenario {
  let next = 0;
  return () => STEPS[next++] ?? { type: 'text', text: DEMO_OVER };
}
