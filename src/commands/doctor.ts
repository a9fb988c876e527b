// `rec doctor [AGENT…]`: a conformance run of rec on the agent installed here, offline. Each scenario
// runs the agent `rec <agent>` would start, under rec, isolated, against rec's mock model
// (src/lab/); the rows it recorded are checked, the result printed and kept in the sidecar, and a
// version that passed every scenario counts as verified from then on (commands/recording.ts).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { AGENT_MODULES, agentModule } from '../agents/registry.js';
import type { DoctorKit } from '../lab/bench.js';
import { checkRows, type ConformanceScenario, type RowCheck } from '../lab/conformance.js';
import type { ScenarioRun } from '../lab/scenarioRun.js';
import { resolveDbPath } from '../store/dbPath.js';
import type { DoctorScenarioResult } from '../store/doctorRuns.js';
import { openSidecar } from '../store/sidecarDb.js';
import { findAgentBinary, type AgentBinary } from './agentBinary.js';
import { UsageError, type CommandIO } from './commandIO.js';
import { parseOrReport } from './commandKit.js';
import { DOCTOR_SPEC } from './commandSpec.js';
import { doctorJson, doctorReport, type DoctorAgentResult } from './doctorReport.js';
import { escapeControls, outputWidth } from './terminalText.js';
import { readVersion } from './version.js';

interface DoctorArgs {
  readonly agents: readonly string[];
  readonly agentBin: string | undefined;
  /** One scenario to run (its name or key script), not the whole conformance. */
  readonly scenario: string | undefined;
  readonly json: boolean;
  readonly db: string | undefined;
}

/** A refusal: one line on stderr, and this status. */
const REFUSED = 2;

export async function doctorCommand(args: string[], io: CommandIO): Promise<number> {
  let parsed!: DoctorArgs;
  const status = parseOrReport(DOCTOR_SPEC, args, io, ({ values, operands }) => (parsed = toDoctorArgs(values, operands)));
  if (typeof status === 'number') return status;
  // Every agent is looked at before any runs: a refusal comes at once, not after minutes of another agent.
  const plans: DoctorPlan[] = [];
  for (const agent of parsed.agents) {
    const plan = await planAgent(agent, parsed.agentBin, parsed.scenario, io);
    if (typeof plan === 'string') {
      io.stderr.write(`rec doctor: ${plan}\n`);
      return REFUSED;
    }
    plans.push(plan);
  }
  const dbPath = resolveDbPath({ flag: parsed.db, env: io.env, cwd: io.cwd });
  let failed = false;
  for (const plan of plans) {
    const result = await checkAgent(plan, dbPath, io);
    if (typeof result === 'string') {
      io.stderr.write(`rec doctor: ${result}\n`);
      return REFUSED;
    }
    io.stdout.write(parsed.json ? doctorJson(result) : doctorReport(result, outputWidth(io.stdout)));
    failed ||= !result.passed;
  }
  return failed ? 1 : 0;
}

function toDoctorArgs(values: Record<string, string | true | undefined>, operands: readonly string[]): DoctorArgs {
  const known = AGENT_MODULES.map((m) => m.name);
  for (const a of operands) {
    if (!known.includes(a)) throw new UsageError(`unknown agent '${escapeControls(a)}' (one of ${known.join(', ')})`);
  }
  const agentBin = values['agent-bin'] as string | undefined;
  // With no agent named: every agent with a bench (the doctor covers no other).
  const agents = operands.length > 0 ? [...new Set(operands)] : AGENT_MODULES.filter((m) => m.loadBench !== undefined).map((m) => m.name);
  if (agentBin !== undefined && agents.length !== 1) throw new UsageError('--agent-bin needs exactly one agent');
  const scenario = values.scenario as string | undefined;
  if (scenario !== undefined && agents.length !== 1) throw new UsageError('--scenario needs exactly one agent');
  return { agents, agentBin, scenario, json: values.json === true, db: values.db as string | undefined };
}

/** One agent to check: its doctor kit (from its bench), the scenarios to run, its binary and version. */
interface DoctorPlan {
  readonly agent: string;
  readonly kit: DoctorKit;
  /** The kit's scenarios, or the one --scenario chose. */
  readonly scenarios: readonly ConformanceScenario[];
  /** Whether every scenario of the kit runs: only such a run can verify a version, and only it is recorded. */
  readonly whole: boolean;
  readonly binary: AgentBinary;
  readonly version: string;
}

/**
 * The agent's kit, binary and version; or why it cannot be checked, in one line. An agent without a
 * bench is refused, never run half-isolated: it could reach a real model.
 */
async function planAgent(agent: string, agentBin: string | undefined, only: string | undefined, io: CommandIO): Promise<DoctorPlan | string> {
  const module = agentModule(agent);
  if (module.loadBench === undefined) return `${agent}: refused: rec doctor has no scenarios for it (its module has no bench)`;
  const kit = (await module.loadBench()).doctor;
  const scenarios = only === undefined ? kit.scenarios : kit.scenarios.filter((s) => s.name === only || s.script === only);
  if (scenarios.length === 0) {
    return `${agent}: no scenario '${escapeControls(only ?? '')}' (its scenarios: ${kit.scenarios.map((s) => s.script).join(', ')})`;
  }
  const cannotIsolate = kit.refusal?.();
  if (cannotIsolate !== undefined) return `${agent}: refused: rec cannot isolate it: ${escapeControls(cannotIsolate)}; nothing was run`;
  const found = findAgentBinary(module, agentBin, io.env, io.cwd);
  if (!found.ok) return found.message.replace(/^rec: /, '');
  const version = found.binary.packageVersion;
  if (version === undefined) {
    return `${agent}: refused: ${escapeControls(found.binary.path)} is not in an ${module.packageName} package, so its version is unknown and a result could not be kept for it`;
  }
  return { agent, kit, scenarios, whole: only === undefined, binary: found.binary, version };
}

/** checkScenarios with a cache folder of this run's own (DoctorKit.run), removed after it. */
async function checkAgent(plan: DoctorPlan, dbPath: string, io: CommandIO): Promise<DoctorAgentResult | string> {
  const cacheDir = mkdtempSync(join(tmpdir(), `rec-doctor-${plan.agent}-cache-`));
  try {
    return await checkScenarios(plan, dbPath, io, cacheDir);
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

/**
 * The plan's scenarios of one agent, the result of a whole run recorded; or a refusal when the agent
 * did not use the mock model. A scenario that fails is run once more, to tell flaky from failing.
 */
export async function checkScenarios(plan: DoctorPlan, dbPath: string, io: CommandIO, cacheDir: string): Promise<DoctorAgentResult | string> {
  const started = new Date();
  const recJs = new URL('../../bin/rec.js', import.meta.url).pathname;
  const scenarios: DoctorScenarioResult[] = [];
  for (const scenario of plan.scenarios) {
    const script = plan.kit.script(scenario.script);
    if (script === undefined) throw new Error(`rec doctor: no key script ${scenario.script} for ${plan.agent}`);
    io.stderr.write(`rec doctor: ${plan.agent} ${plan.version}: ${scenario.name}…\n`);
    // rec's debug log of the first attempt (how it judged each deciding key) goes with a failure's capture.
    const debugLog = join(cacheDir, `${scenario.script}.debug.log`);
    const attempt = (log?: string) => plan.kit.run({ recJs, agentBin: plan.binary.path, version: plan.version, script, cacheDir, ...(log ? { debugLog: log } : {}) });
    const run = await attempt(debugLog);
    if (run.modelTurns === 0 && scenarios.length === 0) {
      // The first scenario doubles as the isolation probe: an agent that never asked the mock model
      // (a login screen, a base URL it does not take from its config) is not checked at all.
      return `${plan.agent} ${escapeControls(plan.version)}: refused: it never asked rec's mock model on 127.0.0.1 (${escapeControls(run.error ?? 'no model turn')}), so rec cannot isolate it; nothing was recorded`;
    }
    const first = judge(scenario, run);
    if (first.pass) {
      scenarios.push({ name: scenario.name, expected: first.check.expected, seen: first.check.seen, pass: true, problem: null, capture: null });
      continue;
    }
    // A failure is run once more: one that passes then is flaky, reported apart from one that fails
    // twice, and neither counts as a pass (a version is verified only if every scenario passed first time).
    const capture = saveScreen(dbPath, plan, scenario.script, `${run.screen}\n\n--- rec's debug log of this run ---\n${readIfThere(debugLog)}`);
    io.stderr.write(`rec doctor: ${plan.agent} ${plan.version}: ${scenario.name} failed (${escapeControls(first.problem ?? 'failed')}); running it once more…\n`);
    const again = judge(scenario, await attempt());
    scenarios.push({ name: scenario.name, expected: first.check.expected, seen: first.check.seen, pass: false, flaky: again.pass, problem: first.problem, capture });
  }
  const ended = new Date();
  const base = { agent: plan.agent, version: plan.version, agent_bin: plan.binary.path, started_at: started.toISOString(), ended_at: ended.toISOString() };
  // A run of one chosen scenario is a check, not a verification: doctor_runs keeps whole runs only.
  const recorded = plan.whole ? recordResult(dbPath, { ...base, scenarios }) : undefined;
  return {
    ...base,
    wall_ms: ended.getTime() - started.getTime(),
    passed: scenarios.every((s) => s.pass),
    whole: plan.whole,
    verified_by: plan.whole ? 'doctor' : null,
    scenarios,
    recorded_in: plan.whole && recorded === undefined ? dbPath : null,
    record_error: recorded ?? null,
  };
}

/** Whether one run of a scenario gave its rows, and what went wrong first when it did not. */
function judge(scenario: ConformanceScenario, run: ScenarioRun): { pass: boolean; check: RowCheck; problem: string | null } {
  const check = checkRows(scenario.expected, run.rows, run.issuedCallIds);
  const pass = check.pass && run.error === null;
  return { pass, check, problem: pass ? null : (run.error ?? check.problem) };
}

/** Keeps the result in the sidecar; returns the error in one line when it could not. */
function recordResult(dbPath: string, r: { agent: string; version: string; agent_bin: string; started_at: string; ended_at: string; scenarios: DoctorScenarioResult[] }): string | undefined {
  const opened = openSidecar(dbPath);
  if (!opened.ok) return opened.error;
  try {
    opened.db.recordDoctorRun({ agent: r.agent, agent_version: r.version, agent_bin: r.agent_bin, started_at: r.started_at, ended_at: r.ended_at, scenarios: r.scenarios, rec_version: readVersion() });
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    opened.db.close();
  }
}

/** A file's text, or '' when it was never written. */
function readIfThere(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    // rec wrote no debug line in that run (it never started): the capture says so by its empty part.
    return '';
  }
}

/** The failed scenario's last screen and rec's debug log, beside the database (doctor/), for a report; null when it cannot be written. */
function saveScreen(dbPath: string, plan: { agent: string; version: string }, script: string, screen: string): string | null {
  const dir = join(dirname(dbPath), 'doctor');
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = join(dir, `${stamp}-${plan.agent}-${plan.version.replace(/[^\w.-]/g, '_')}-${script}.txt`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, screen + '\n');
    return file;
  } catch {
    // No capture is a smaller loss than no report: the failure is still printed.
    return null;
  }
}
