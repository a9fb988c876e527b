// `rec demo copilot`'s world: the mock Messages server playing the demo script for every prompt a
// person types, and GitHub Copilot CLI's isolated HOME and project (env.ts) pointed at it. The
// script is the demo's decisions (a harmless command, a file edit, a long-running command, then a
// streamed answer) as Copilot's tools ask for them. It moves on at every model request: a refusal or
// an Esc ends Copilot's turn, and whatever the user types next brings the next proposal.
import type { DemoKit, DemoWorld } from '../../../lab/bench.js';
import type { MessagesReply } from '../../../lab/mock/anthropicMessages/scenarios.js';
import { DEMO_ANSWER, DEMO_EDIT_FILE, DEMO_OVER, DEMO_PROMPT } from '../../../lab/mock/demoScenario.js';
import { startMessagesServer } from '../../../lab/mock/anthropicMessages/server.js';
import { createCopilotEnv } from './env.js';

/** A file write: Copilot runs a read-only command such as a bare `echo` without asking (docs/copilot.md §2). */
export const COPILOT_DEMO_COMMAND = 'echo hello from the rec demo > demo-hello.txt';
/** About a minute of ticks, harmless if left to run. */
export const COPILOT_DEMO_LONG_COMMAND = 'for i in $(seq 1 60); do echo tick $i; sleep 1; done';

/** Delay between streamed words: slow enough to read along, and to press Esc in the middle. */
const STREAM_DELAY_MS = 150;

const STEPS: readonly MessagesReply[] = [
  {
    type: 'tools',
    text: 'First, a harmless command. Approve it or refuse it, with any key you like.',
    calls: [{ name: 'bash', input: () => ({ command: COPILOT_DEMO_COMMAND, description: 'Write a greeting (harmless)' }) }],
  },
  {
    type: 'tools',
    text: `Next, a new file: ${DEMO_EDIT_FILE} in the demo's own temporary project.`,
    calls: [{ name: 'create', input: (c) => ({ path: `${c.workDir}/${DEMO_EDIT_FILE}`, file_text: 'written during the rec demo\n' }) }],
  },
  {
    type: 'tools',
    text: 'Now a long-running command. Approve it, then press Esc twice while it runs to interrupt it.',
    calls: [{ name: 'bash', input: () => ({ command: COPILOT_DEMO_LONG_COMMAND, description: 'Count to 60, one tick a second' }) }],
  },
  { type: 'text', text: DEMO_ANSWER, delayMs: STREAM_DELAY_MS },
];

/** A fresh demo script: each model request gets the next step, then the closing line. */
function createCopilotDemoScenario(): () => MessagesReply {
  let next = 0;
  return () => STEPS[next++] ?? { type: 'text', text: DEMO_OVER };
}

async function startCopilotDemo(): Promise<DemoWorld> {
  const server = await startMessagesServer({ unmarked: createCopilotDemoScenario() });
  try {
    const world = createCopilotEnv({ baseUrl: server.baseUrl, token: server.token, prefix: 'rec-demo-copilot-' });
    return {
      baseDir: world.baseDir,
      workDir: world.workDir,
      env: world.env,
      // `-i`: Copilot's interactive session starts with this first message.
      args: ['-i', DEMO_PROMPT],
      // Stops everything Copilot started, the mock, and removes the temporary folder.
      async close() {
        await world.dispose();
        await server.close();
      },
    };
  } catch (err) {
    await server.close();
    throw err;
  }
}

export const COPILOT_DEMO: DemoKit = {
  keys: 'Esc, or an option',
  reason: 'To say why, choose "No, and tell Copilot…", type it, then Enter: rec keeps it.',
  start: startCopilotDemo,
};
