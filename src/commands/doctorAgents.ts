// The agents `rec doctor` can isolate and check, as a table: each one's conformance scenarios and how
// one runs. An agent not in the table is refused, never run half-isolated.
import type { ConformanceScenario } from '../lab/conformance.js';
import type { RecordedScenario } from '../lab/driver.js';
import type { ScenarioRun } from '../lab/scenarioRun.js';

export interface DoctorAgent {
  readonly scenarios: readonly ConformanceScenario[];
  /** The key script of a scenario (undefined: the table and the scripts disagree, a bug). */
  script(name: string): RecordedScenario | undefined;
  run(o: { readonly recJs: string; readonly agentBin: string; readonly script: RecordedScenario }): Promise<ScenarioRun>;
  /** Why the agent cannot be isolated on this machine, checked before anything runs; undefined when it can. */
  refusal?(): string | undefined;
}

/**
 * Why an agent is not checked yet: its mock server and key scripts exist, but the isolated HOME the
 * doctor would run it in (its login mode, its base URL variable, its telemetry and update switches)
 * is still test code; a doctor that runs it half-isolated could reach a real model.
 */
const NOT_YET = 'rec doctor cannot isolate it yet (its isolated world is still test code)';

export const NOT_COVERED: Readonly<Record<string, string>> = { claude: NOT_YET };

export async function doctorAgent(agent: string): Promise<DoctorAgent | undefined> {
  if (agent === 'gemini') return geminiDoctor();
  if (agent !== 'codex') return undefined;
  const [{ CODEX_CONFORMANCE }, { codexScript, runCodexScenario }] = await Promise.all([
    import('../lab/codex/conformance.js'),
    import('../lab/codex/doctorRun.js'),
  ]);
  return { scenarios: CODEX_CONFORMANCE, script: codexScript, run: runCodexScenario };
}

async function geminiDoctor(): Promise<DoctorAgent> {
  const [{ GEMINI_CONFORMANCE }, { geminiScript, runGeminiScenario, geminiDoctorRefusal }] = await Promise.all([
    import('../lab/gemini/conformance.js'),
    import('../lab/gemini/doctorRun.js'),
  ]);
  return { scenarios: GEMINI_CONFORMANCE, script: geminiScript, run: runGeminiScenario, refusal: geminiDoctorRefusal };
}
