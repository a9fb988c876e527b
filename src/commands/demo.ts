// `rec demo [codex|claude|gemini]`: rec at work with no account. The agent runs under the ordinary `rec <agent>`
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
import { findAgentBinary, packageVersionOf } from './agentBinary.js';
import { UsageError, type CommandIO } from './commandIO.js';
import { parseOrReport } from './commandKit.js';
import { AGENTS, DEMO_SPEC } from './commandSpec.js';
import { quote } from './parseCommandArgs.js';
import { escapeControls } from './terminalText.js';

/** How the intro names the agent, its refusing keys and its way to give a reason, and how its world starts. */
interface DemoAgent {
  readonly title: string;
  readonly keys: string;
  readonly reason: string;
  /** A last line for the intro, where the agent waits for the user to speak first. */
  readonly hint?: string;
  start(agentBin: string, module: AgentModule): Promise<DemoWorld>;
}

/** The demo's isolated world for one agent: its folders and environment, and how it goes. */
interface DemoWorld {
  readonly baseDir: string;
  readonly workDir: string;
  readonly env: NodeJS.ProcessEnv;
  /** The agent's arguments: the demo's first message, or none where the user starts. */
  readonly args: readonly string[];
  /** Stops everything the agent left running and the mock, and removes the world. */
  close(): Promise<void>;
}

/** The agents whose isolated world and mock model the demo knows today, and how each is started. */
const DEMO_AGENTS: Readonly<Record<string, DemoAgent>> = {
  codex: { title: 'Codex', keys: 'Esc, n, or an option', reason: 'After a refusal, type why to go on: rec keeps it as the reason.', start: () => startCodexWorld() },
  claude: { title: 'Claude Code', keys: 'Esc, or No', reason: 'To say why, press Tab on No, type it, then Enter: rec keeps it.', start: startClaudeWorld },
  gemini: {
    title: 'Gemini CLI',
    keys: 'Esc, or an option',
    reason: 'After a refusal, type why to go on: rec keeps it as the reason.',
    hint: 'Type any message to start.',
    start: async () => (await import('../lab/gemini/demo.js')).startGeminiDemo(),
  },
};

export async function demoCommand(args: string[], io: CommandIO): Promise<number> {
  let agent = 'codex';
  const parsed = parseOrReport(DEMO_SPEC, args, io, ({ operands }) => {
    if (operands.length > 1) throw new UsageError(`expected at most one agent, got ${operands.length}`);
    agent = operands[0] ?? agent;
    if (!AGENTS.includes(agent)) throw new UsageError(`unknown agent '${quote(agent)}': expected one of ${AGENTS.join(', ')}`);
  });
  if (typeof parsed === 'number') return parsed;
  const demo = DEMO_AGENTS[agent];
  if (demo === undefined) {
    io.stderr.write(`rec demo: ${agent} has no demo yet (it needs its own isolated world and mock model); try rec demo ${Object.keys(DEMO_AGENTS).join(' or rec demo ')}\n`);
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
  const world = await demo.start(binary.path, module);
  return runDemo({ ...demo, agent, agentBin: binary.path, world }, db === undefined ? undefined : resolve(io.cwd, db), io);
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

async function startCodexWorld(): Promise<DemoWorld> {
  const { startResponsesServer } = await import('../lab/mock/openaiResponses/server.js');
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

async function startClaudeWorld(agentBin: string, module: AgentModule): Promise<DemoWorld> {
  const { startClaudeDemoWorld } = await import('../lab/claude/demoWorld.js');
  const { DEMO_PROMPT } = await import('../lab/mock/demoScenario.js');
  // The version only keeps Claude Code's release notes and onboarding away: unknown, they may show.
  const world = await startClaudeDemoWorld({ version: packageVersionOf(agentBin, module.packageName) ?? '' });
  return { ...world, args: [DEMO_PROMPT], close: () => world.close() };
}

interface DemoPlan extends DemoAgent {
  readonly agent: string;
  readonly agentBin: string;
  readonly world: DemoWorld;
}

async function runDemo(plan: DemoPlan, dbFlag: string | undefined, io: CommandIO): Promise<number> {
  const { world, agentBin } = plan;
  try {
    const dbPath = dbFlag ?? join(world.baseDir, 'rec.db');
    io.stderr.write(introText(plan, dbFlag));
    const { runCommand } = await import('./run.js');
    const status = await runCommand(
      { agent: plan.agent, command: undefined, args: [...world.args], db: dbPath, agentBin },
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

/** What the demo is about to do, at most 80 columns wide (the agent's path aside). */
function introText(plan: DemoPlan, dbFlag: string | undefined): string {
  return [
    `rec demo: ${plan.title} against rec's mock model on 127.0.0.1, in a temporary`,
    '  project and HOME: no account, no network, none of your credentials',
    `  (agent: ${escapeControls(plan.agentBin)}).`,
    '  The mock proposes a harmless command, a file edit and a long-running',
    `  command, then streams an answer. Approve, refuse (${plan.keys}),`,
    '  or press Esc while a command runs.',
    `  ${plan.reason}`,
    '  Ctrl+C twice quits; then rec shows what it recorded.',
    ...(plan.hint !== undefined ? [`  ${plan.hint}`] : []),
    `  Recording into ${dbFlag === undefined ? 'a temporary database' : escapeControls(dbFlag)}.`,
    '',
  ].join('\n');
}
