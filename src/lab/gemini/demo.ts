// `rec demo gemini`'s world: rec's mock Gemini API playing the demo script (one of each kind of
// decision, then a streamed answer) and Gemini's isolated world (env.ts). The user sends the first
// message.
import { DEMO_ANSWER, DEMO_EDIT_FILE, DEMO_OVER } from '../mock/demoScenario.js';
import { shell, writeFile, type GeminiReply, type GeminiScenario } from '../mock/geminiGenerateContent/scenarios.js';
import { startGenerateContentServer } from '../mock/geminiGenerateContent/server.js';
import { createGeminiEnv } from './env.js';

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

const STEPS: readonly GeminiReply[] = [
  { type: 'calls', calls: [shell(GEMINI_DEMO_COMMAND, 'A harmless command: create an empty file in the demo project')] },
  { type: 'calls', calls: [writeFile(DEMO_EDIT_FILE, 'written during the rec demo\n')] },
  { type: 'calls', calls: [shell(GEMINI_DEMO_LONG_COMMAND, 'A long-running command: approve it, then press Esc while it runs')] },
  { type: 'text', text: DEMO_ANSWER, chunkChars: STREAM_CHUNK_CHARS, delayMs: STREAM_DELAY_MS },
];

/**
 * A fresh demo script. It moves on at every model request, not at every step of a turn: a refusal
 * or an Esc ends Gemini's turn, and whatever the user types next must bring the next proposal.
 */
function createGeminiDemoScenario(): GeminiScenario {
  let next = 0;
  return () => STEPS[next++] ?? { type: 'text', text: DEMO_OVER };
}

interface GeminiDemoWorld {
  readonly baseDir: string;
  readonly workDir: string;
  readonly env: NodeJS.ProcessEnv;
  /** Gemini's arguments: none, the user starts the conversation. */
  readonly args: readonly string[];
  /** Stops everything Gemini started (by pid, from `roots`), the mock, and removes the temporary folder. */
  close(roots?: readonly number[]): Promise<void>;
}

export async function startGeminiDemo(): Promise<GeminiDemoWorld> {
  // Every prompt without a scenario marker is answered by `say`: here, the demo script.
  const server = await startGenerateContentServer({ scenarios: { say: createGeminiDemoScenario() } });
  try {
    const env = createGeminiEnv({ baseUrl: server.baseUrl, token: server.token, prefix: 'rec-demo-gemini-' });
    return {
      baseDir: env.baseDir,
      workDir: env.workDir,
      env: env.env,
      args: [],
      async close(roots = []) {
        await env.dispose(roots);
        await server.close();
      },
    };
  } catch (err) {
    await server.close();
    throw err;
  }
}
