// `rec demo claude`'s world: the mock Messages server playing the demo script for every prompt a
// person types, and Claude Code's isolated HOME and project (env.ts) pointed at it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMessagesServer } from '../mock/anthropicMessages/server.js';
import { CLAUDE_DEMO_COUNTER, createClaudeDemoScenario } from './demoScenario.js';
import { createClaudeEnv } from './env.js';

export interface ClaudeDemoWorld {
  readonly baseDir: string;
  readonly workDir: string;
  readonly env: NodeJS.ProcessEnv;
  /** Removes the folder and closes the mock (Claude Code and what it ran end with rec's pty). */
  close(): Promise<void>;
}

export async function startClaudeDemoWorld(o: { readonly version: string }): Promise<ClaudeDemoWorld> {
  const server = await startMessagesServer({ unmarked: createClaudeDemoScenario() });
  try {
    const world = createClaudeEnv({ baseUrl: server.baseUrl, token: server.token, version: o.version, prefix: 'rec-demo-claude-' });
    writeFileSync(join(world.workDir, CLAUDE_DEMO_COUNTER.file), CLAUDE_DEMO_COUNTER.text);
    return {
      baseDir: world.baseDir,
      workDir: world.workDir,
      env: world.env,
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
