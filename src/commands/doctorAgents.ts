// The agents `rec doctor` can isolate and check, as a table: each one's conformance scenarios and how
// one runs. An agent not in the table is refused, never run half-isolated.
import type { ConformanceScenario } from '../lab/conformance.js';
import type { RecordedScenario } from '../lab/driver.js';
import type { ScenarioRun } from '../lab/scenarioRun.js';

export interface DoctorAgent {
  readonly scenarios: readonly ConformanceScenario[];
  /** The key script of a scenario (undefined: the table and the scripts disagree, a bug). */
  script(name: string): RecordedScenario | undefined;
  /**
   * One scenario. `cacheDir`: a folder private to this doctor run, removed after its last scenario,
   * where a scenario may keep what the next ones can reuse (an install the agent makes in each new home).
   */
  run(o: {
    readonly recJs: string;
    readonly agentBin: string;
    readonly version: string;
    readonly script: RecordedScenario;
    readonly cacheDir?: string;
  }): Promise<ScenarioRun>;
  /** Why the agent cannot be isolated on this machine, checked before anything runs; undefined when it can. */
  refusal?(): string | undefined;
}

/**
 * Agents rec knows but the doctor cannot isolate yet, with why: a doctor that ran one half-isolated
 * could reach a real model. Every agent rec records is covered today.
 */
export const NOT_COVERED: Readonly<Record<string, string>> = {};

export async function doctorAgent(agent: string): Promise<DoctorAgent | undefined> {
  if (agent === 'claude') return claudeDoctor();
  if (agent === 'gemini') return geminiDoctor();
  if (agent !== 'codex') return undefined;
  const [{ CODEX_CONFORMANCE }, { codexScript, runCodexScenario }] = await Promise.all([
    import('../lab/codex/conformance.js'),
    import('../lab/codex/doctorRun.js'),
  ]);
  return { scenarios: CODEX_CONFORMANCE, script: codexScript, run: runCodexScenario };
}

async function claudeDoctor(): Promise<DoctorAgent> {
  const [{ CLAUDE_CONFORMANCE }, { claudeScript, runClaudeScenario }] = await Promise.all([
    import('../lab/claude/conformance.js'),
    import('../lab/claude/doctorRun.js'),
  ]);
  return { scenarios: CLAUDE_CONFORMANCE, script: claudeScript, run: runClaudeScenario };
}

async function geminiDoctor(): Promise<DoctorAgent> {
  const [{ GEMINI_CONFORMANCE }, { geminiScript, runGeminiScenario, geminiDoctorRefusal }] = await Promise.all([
    import('../lab/gemini/conformance.js'),
    import('../lab/gemini/doctorRun.js'),
  ]);
  return { scenarios: GEMINI_CONFORMANCE, script: geminiScript, run: runGeminiScenario, refusal: geminiDoctorRefusal };
}
