// `rec demo [AGENT]`: rec at work with no account. The agent runs under the ordinary `rec <agent>`
// path, in the user's terminal, but in the isolated world rec's own tests use (the agent's bench,
// src/agents/<name>/bench/, loaded through its registry row, over src/lab): a
// temporary project and HOME, its model provider pointed at the mock model on 127.0.0.1, telemetry
// and update checks off, none of the user's credentials read or sent. The recording goes to a
// temporary database deleted with that world: decisions made against a mock model do not belong
// among the user's real ones (rec stats would count them), and the session file merge joins them
// with is in the temporary HOME, gone afterwards anyway. --db keeps both parts apart on purpose:
// the user asked for the rows to stay.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AgentModule } from '../agents/agentModule.js';
import type { DemoKit, DemoWorld } from '../lab/bench.js';
import { findAgentBinary, packageVersionOf } from './agentBinary.js';
import { UsageError, type CommandIO } from './commandIO.js';
import { parseOrReport } from './commandKit.js';
import { AGENTS, DEMO_SPEC } from './commandSpec.js';
import { quote } from './parseCommandArgs.js';
import { escapeControls } from './terminalText.js';

export async function demoCommand(args: string[], io: CommandIO): Promise<number> {
  let agent: string | undefined;
  const parsed = parseOrReport(DEMO_SPEC, args, io, ({ operands }) => {
    if (operands.length > 1) throw new UsageError(`expected at most one agent, got ${operands.length}`);
    agent = operands[0];
    if (agent !== undefined && !AGENTS.includes(agent)) throw new UsageError(`unknown agent '${quote(agent)}': expected one of ${AGENTS.join(', ')}`);
  });
  if (typeof parsed === 'number') return parsed;
  const { AGENT_MODULES, agentModule } = await import('../agents/registry.js');
  // With none named: the first agent of the registry with a bench.
  const module = agent === undefined ? AGENT_MODULES.find((m) => m.loadBench !== undefined) : agentModule(agent);
  const demo = module?.loadBench === undefined ? undefined : (await module.loadBench()).demo;
  if (module === undefined || demo === undefined) {
    const named = module?.name ?? 'no agent';
    io.stderr.write(`rec demo: ${named} has no demo yet (it needs its own isolated world and mock model, in its module's bench)\n`);
    return 2;
  }
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    io.stderr.write('rec demo: needs a terminal: the agent runs interactively, for you to answer its prompts\n');
    return 2;
  }
  const binary = demoBinary(module, parsed.values['agent-bin'] as string | undefined, io);
  if (!binary.ok) {
    io.stderr.write(`${binary.message}\n`);
    return 127;
  }
  const db = parsed.values.db as string | undefined;
  const world = await demo.start({ agentBin: binary.path, version: packageVersionOf(binary.path, module.packageName) });
  return runDemo({ ...demo, module, agentBin: binary.path, world }, db === undefined ? undefined : resolve(io.cwd, db), io);
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

interface DemoPlan extends DemoKit {
  readonly module: AgentModule;
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
      { agent: plan.module.name, command: undefined, args: [...world.args], db: dbPath, agentBin },
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
    `rec demo: ${plan.module.displayName} against rec's mock model on 127.0.0.1, in a temporary`,
    '  project and HOME: no account, no network, none of your credentials',
    `  (agent: ${escapeControls(plan.agentBin)}).`,
    ...(plan.story ?? [
      'The mock proposes a harmless command, a file edit and a long-running',
      `command, then streams an answer. Approve, refuse (${plan.keys}),`,
      'or press Esc while a command runs.',
    ]).map((line) => `  ${line}`),
    `  ${plan.reason}`,
    '  Ctrl+C twice quits; then rec shows what it recorded.',
    ...(plan.hint !== undefined ? [`  ${plan.hint}`] : []),
    `  Recording into ${dbFlag === undefined ? 'a temporary database' : escapeControls(dbFlag)}.`,
    '',
  ].join('\n');
}
