// `rec demo claude`'s world: the mock Messages server playing the demo script for every prompt a
// person types, and Claude Code's isolated HOME and project (env.ts) pointed at it. The script is
// the demo's decisions (a harmless command, a file edit, a long-running command, then a streamed
// answer) as Claude Code's tools ask for them. As for Codex, it moves on at every model request: a
// refusal or an Esc ends Claude Code's turn, and whatever the user types next brings the next
// proposal, not the same one again.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DemoKit, DemoWorld } from '../../../lab/bench.js';
import type { MessagesReply } from '../../../lab/mock/anthropicMessages/scenarios.js';
import { DEMO_ANSWER, DEMO_EDIT_FILE, DEMO_OVER, DEMO_PROMPT } from '../../../lab/mock/demoScenario.js';
import { startMessagesServer } from '../../../lab/mock/anthropicMessages/server.js';
import { createClaudeEnv } from './env.js';

/**
 * A file write: Claude Code runs a read-only command such as a bare `echo` without asking, so the
 * harmless command writes its greeting into the demo's own project to be asked about.
 */
export const CLAUDE_DEMO_COMMAND = 'echo hello from the rec demo > demo-hello.txt';
/**
 * About a minute of ticks, in Node: Claude Code's Bash validator refuses `sleep N; …` before any
 * prompt, and a command that is not a file write is asked about too. The script is a file in the
 * demo's project (startClaudeDemo writes it) so that the command fits on one line of an 80-column
 * prompt and reads at a glance.
 */
export const CLAUDE_DEMO_COUNTER = {
  file: 'count-to-60.mjs',
  text: "for (let i = 1; i <= 60; i++) setTimeout(() => console.log('tick', i), i * 1000);\n",
} as const;
export const CLAUDE_DEMO_LONG_COMMAND = `node ${CLAUDE_DEMO_COUNTER.file}`;

/** Delay between streamed words: slow enough to read along, and to press Esc in the middle. */
const STREAM_DELAY_MS = 150;

const STEPS: readonly MessagesReply[] = [
  {
    type: 'tools',
    text: 'First, a harmless command. Approve it or refuse it, with any key you like.',
    calls: [{ name: 'Bash', input: () => ({ command: CLAUDE_DEMO_COMMAND, description: 'Print a greeting (harmless)' }) }],
  },
  {
    type: 'tools',
    text: `Next, a file edit: ${DEMO_EDIT_FILE} in the demo's own temporary project.`,
    calls: [{ name: 'Write', input: (c) => ({ file_path: `${c.workDir}/${DEMO_EDIT_FILE}`, content: 'written during the rec demo\n' }) }],
  },
  {
    type: 'tools',
    text: 'Now a long-running command. Approve it, then press Esc while it runs to interrupt it.',
    calls: [{ name: 'Bash', input: () => ({ command: CLAUDE_DEMO_LONG_COMMAND, description: 'Count to 60, one tick a second' }) }],
  },
  { type: 'text', text: DEMO_ANSWER, delayMs: STREAM_DELAY_MS },
];

/** A fresh demo script: each model request gets the next step, then the closing line. */
function createClaudeDemoScenario(): () => MessagesReply {
  let next = 0;
  return () => STEPS[next++] ?? { type: 'text', text: DEMO_OVER };
}

/** `version` only keeps Claude Code's release notes and onboarding away: unknown, they may show. */
async function startClaudeDemo(o: { readonly version: string | undefined }): Promise<DemoWorld> {
  const server = await startMessagesServer({ unmarked: createClaudeDemoScenario() });
  try {
    const world = createClaudeEnv({ baseUrl: server.baseUrl, token: server.token, version: o.version ?? '', prefix: 'rec-demo-claude-' });
    writeFileSync(join(world.workDir, CLAUDE_DEMO_COUNTER.file), CLAUDE_DEMO_COUNTER.text);
    return {
      baseDir: world.baseDir,
      workDir: world.workDir,
      env: world.env,
      args: [DEMO_PROMPT],
      // Removes the folder and closes the mock (Claude Code and what it ran end with rec's pty).
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

export const CLAUDE_DEMO: DemoKit = {
  keys: 'Esc, or No',
  reason: 'To say why, press Tab on No, type it, then Enter: rec keeps it.',
  start: startClaudeDemo,
};
