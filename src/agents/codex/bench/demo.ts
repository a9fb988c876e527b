// `rec demo codex`'s world: rec's mock Responses server playing the demo script (lab/mock/demoScenario.ts:
// one of each kind of decision, then a streamed answer) and Codex's isolated world (env.ts). The
// demo's first message is on Codex's command line, so it starts at once.
import type { DemoKit, DemoWorld } from '../../../lab/bench.js';
import { createDemoScenario, DEMO_PROMPT } from '../../../lab/mock/demoScenario.js';
import { startResponsesServer } from '../../../lab/mock/openaiResponses/server.js';
import { createCodexEnv } from './env.js';

async function startCodexDemo(): Promise<DemoWorld> {
  const server = await startResponsesServer({ scenarios: { demo: createDemoScenario() }, defaultScenario: 'demo' });
  try {
    const world = createCodexEnv({ baseUrl: server.baseUrl, token: server.token });
    return {
      ...world,
      args: [DEMO_PROMPT],
      async close() {
        // Codex's daemon outlives the pty: stopped by pid with everything it started, then the folder goes.
        await world.dispose();
        await server.close();
      },
    };
  } catch (err) {
    await server.close();
    throw err;
  }
}

export const CODEX_DEMO: DemoKit = {
  keys: 'Esc, n, or an option',
  reason: 'After a refusal, type why to go on: rec keeps it as the reason.',
  start: startCodexDemo,
};
