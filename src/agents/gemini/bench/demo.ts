// `rec demo gemini`'s world: rec's mock Gemini API playing the demo script (one of each kind of
// decision, then a streamed answer) and Gemini's isolated world (env.ts). The user sends the first
// message.
import type { DemoKit, DemoWorld } from '../../../lab/bench.js';
import { DEMO_ANSWER, DEMO_EDIT_FILE, DEMO_OVER } from '../../../lab/mock/demoScenario.js';
import { shell, writeFile, type ContentReply, type ContentScenario } from '../../../lab/mock/googleGenerateContent/scenarios.js';
import { startGenerateContentServer } from '../../../lab/mock/googleGenerateContent/server.js';
import { createGeminiEnv, GEMINI_MODEL } from './env.js';

/**
 * Gemini 0.61.0 runs `echo …` without asking (it counts it as read-only), so its harmless command
 * is a `touch` in the demo's own temporary project.
 */
export const GEMINI_DEMO_COMMAND = 'touch hello-from-the-rec-demo.txt';

/** A minute of waiting, harmless if left to run: Gemini blocks command substitution such as `$(seq 1 60)`. */
export const GEMINI_DEMO_LONG_COMMAND = 'sleep 60; touch demo-waited.txt';

/** Delay between streamed chunks: slow enough to read along, and to press Esc in the middle. */
const STREAM_DELAY_MS = 150;
const STREAM_CHUNK_CHARS = 6;

const STEPS: readonly ContentReply[] = [
  { type: 'calls', calls: [shell(GEMINI_DEMO_COMMAND, 'A harmless command: create an empty file in the demo project')] },
  { type: 'calls', calls: [writeFile(DEMO_EDIT_FILE, 'written during the rec demo\n')] },
  { type: 'calls', calls: [shell(GEMINI_DEMO_LONG_COMMAND, 'A long-running command: approve it, then press Esc while it runs')] },
  { type: 'text', text: DEMO_ANSWER, chunkChars: STREAM_CHUNK_CHARS, delayMs: STREAM_DELAY_MS },
];

/**
 * A fresh demo script. It moves on at every model request, not at every step of a turn: a refusal
 * or an Esc ends Gemini's turn, and whatever the user types next must bring the next proposal.
 */
function createGeminiDemoScenario(): ContentScenario {
  let next = 0;
  return () => STEPS[next++] ?? { type: 'text', text: DEMO_OVER };
}

async function startGeminiDemo(): Promise<DemoWorld> {
  // Every prompt without a scenario marker is answered by `say`: here, the demo script.
  const server = await startGenerateContentServer({ scenarios: { say: createGeminiDemoScenario() }, modelName: GEMINI_MODEL });
  try {
    const env = createGeminiEnv({ baseUrl: server.baseUrl, token: server.token, prefix: 'rec-demo-gemini-' });
    return {
      baseDir: env.baseDir,
      workDir: env.workDir,
      env: env.env,
      // None: the user starts the conversation.
      args: [],
      // Stops everything Gemini started, the mock, and removes the temporary folder.
      async close() {
        await env.dispose();
        await server.close();
      },
    };
  } catch (err) {
    await server.close();
    throw err;
  }
}

export const GEMINI_DEMO: DemoKit = {
  keys: 'Esc, or an option',
  reason: 'After a refusal, type why to go on: rec keeps it as the reason.',
  hint: 'Type any message to start.',
  start: startGeminiDemo,
};
