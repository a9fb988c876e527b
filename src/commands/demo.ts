// `rec demo [codex|gemini]`: rec at work with no account. The agent runs under the ordinary `rec <agent>`
// path, in the user's terminal, but in the isolated world rec's own tests use (src/lab): a
// temporary project and HOME, its model provider pointed at the mock model on 127.0.0.1, telemetry
// and update checks off, none of the user's credentials read or sent. The recording goes to a
// temporary database deleted with that world: decisions made against a mock model do not belong
// among the user's real ones (rec stats would count them), and the session file merge joins them
// with is in the temporary HOME, gone afterwards anyway. --db keeps both parts apart on purpose:
// the user asked for the rows to stay.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AgentModule } from '../agents/agentModule.js';
import { findAgentBinary } from './agentBinary.js';
import { UsageError, type CommandIO } from './commandIO.js';
import { parseOrReport } from './commandKit.js';
import { AGENTS, DEMO_SPEC } from './commandSpec.js';
import { quote } from './parseCommandArgs.js';
import { escapeControls } from './terminalText.js';

/** The agents whose isolated world and mock model the demo knows today. */
const DEMO_AGENTS: readonly string[] = ['codex', 'gemini'];

/** One agent's demo: its mock model running, its isolated world made, and the agent's arguments. */
interface DemoWorld {
  readonly baseDir: string;
  readonly workDir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly args: readonly string[];
  /** Stops everything the agent left running and the mock, and removes the world. */
  close(): Promise<void>;
}

const DISPLAY_NAMES: Readonly<Record<string, string>> = { codex: 'Codex', gemini: 'Gemini CLI' };

export async function demoCommand(args: string[], io: CommandIO): Promise<number> {
  let agent = 'codex';
  const parsed = parseOrReport(DEMO_SPEC, args, io, ({ operands }) => {
    if (operands.length > 1) throw new UsageError(`expected at most one agent, got ${operands.length}`);
    agent = operands[0] ?? agent;
    if (!AGENTS.includes(agent)) throw new UsageError(`unknown agent '${quote(agent)}': expected one of ${AGENTS.join(', ')}`);
  });
  if (typeof parsed === 'number') return parsed;
  if (!DEMO_AGENTS.includes(agent)) {
    io.stderr.write(`rec demo: ${agent} has no demo yet (it needs its own isolated world and mock model); try rec demo ${DEMO_AGENTS.join(' or rec demo ')}\n`);
    return 2;
  }
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    io.stderr.write('rec demo: needs a terminal: the agent runs interactively, for you to answer its prompts\n');
    return 2;
  }
  const module = (await import('../agents/registry.js')).agentModule(agent);
  const binary = demoBinary(module, parsed.values['agent-bin'] as string | undefined, io);
  if (!binary.ok) {
    io.stderr.write(`${binary.message}\n`);
    return 127;
  }
  const db = parsed.values.db as string | undefined;
  return runDemo(agent, binary.path, db === undefined ? undefined : resolve(io.cwd, db), io);
}

type DemoBinary = { readonly ok: true; readonly path: string } | { readonly ok: false; readonly message: string };

/** As `rec <agent>` finds it; failing that, and only without an explicit choice, this clone's pinned devDependency. */
function demoBinary(module: AgentModule, agentBin: string | undefined, io: CommandIO): DemoBinary {
  const found = findAgentBinary(module, agentBin, io.env, io.cwd);
  if (found.ok) return { ok: true, path: found.binary.path };
  const pinned = new URL(`../../node_modules/.bin/${module.binName}`, import.meta.url).pathname;
  if (agentBin === undefined && !io.env[module.binEnvVar] && existsSync(pinned)) return { ok: true, path: pinned };
  return found;
}

async function runDemo(agent: string, agentBin: string, dbFlag: string | undefined, io: CommandIO): Promise<number> {
  const world = agent === 'gemini' ? await (await import('../lab/gemini/demo.js')).startGeminiDemo() : await codexDemo();
  try {
    const dbPath = dbFlag ?? join(world.baseDir, 'rec.db');
    io.stderr.write(introText(DISPLAY_NAMES[agent] ?? agent, agentBin, dbFlag));
    const { runCommand } = await import('./run.js');
    const status = await runCommand(
      { agent, command: undefined, args: [...world.args], db: dbPath, agentBin },
      { ...io, cwd: world.workDir, env: world.env },
    );
    const { printDemoReport } = await import('./demoReport.js');
    const shown = await printDemoReport({ dbPath, workDir: world.workDir, env: world.env }, io);
    if (shown) io.stdout.write(dbFlag === undefined ? '\nThe demo\'s temporary project and database are deleted now.\n' : `\nThe recording stays in ${escapeControls(dbFlag)}.\n`);
    return shown ? status : 1;
  } finally {
    await world.close();
  }
}

async function codexDemo(): Promise<DemoWorld> {
  const { startResponsesServer } = await import('../lab/mock/responsesServer.js');
  const { createDemoScenario, DEMO_PROMPT } = await import('../lab/mock/demoScenario.js');
  const { createCodexEnv } = await import('../lab/codex/env.js');
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

/** What the demo is about to do, at most 80 columns wide (the agent's path aside). */
function introText(name: string, agentBin: string, dbFlag: string | undefined): string {
  return [
    `rec demo: ${name} against rec's mock model on 127.0.0.1, in a temporary`,
    '  project and HOME: no account, no network, none of your credentials',
    `  (agent: ${escapeControls(agentBin)}).`,
    '  The mock proposes a harmless command, a file edit and a long-running',
    '  command, then streams an answer. Approve, refuse (Esc, n, or an option),',
    '  or press Esc while a command runs. After a refusal, type why to go on:',
    '  rec keeps it as the reason. Ctrl+C twice quits; then rec shows what it',
    '  recorded.',
    ...(name === 'Gemini CLI' ? ['  Type any message to start.'] : []),
    `  Recording into ${dbFlag === undefined ? 'a temporary database' : escapeControls(dbFlag)}.`,
    '',
  ].join('\n');
}
