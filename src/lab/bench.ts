// What an agent brings to the offline bench: the contract of src/agents/<name>/bench/bench.ts, which
// its registry row loads on demand (AgentModule.loadBench). `rec doctor` runs its doctor kit and `rec
// demo` starts its demo world; neither names an agent, so an agent with a bench is covered by both
// with no line of theirs changed.
import type { ConformanceScenario } from './conformance.js';
import type { RecordedScenario } from './driver.js';
import type { ScenarioRun } from './scenarioRun.js';

export interface AgentBench {
  /** How `rec doctor` checks the agent: its scenarios, their key scripts, and one run of one. */
  readonly doctor: DoctorKit;
  /** How `rec demo` shows it; absent: the agent has no demo yet, and the demo says so. */
  readonly demo?: DemoKit;
}

export interface DoctorKit {
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
    /** Where rec writes its debug log for this run (REC_DEBUG_LOG), kept when the scenario fails. */
    readonly debugLog?: string;
  }): Promise<ScenarioRun>;
  /** Why the agent cannot be isolated on this machine, checked before anything runs; undefined when it can. */
  refusal?(): string | undefined;
}

/** How the demo's intro names the agent's refusing keys and its way to give a reason, and how its world starts. */
export interface DemoKit {
  /** The keys that refuse at its prompts, e.g. "Esc, n, or an option". */
  readonly keys: string;
  /** How a reason is given, one line of the intro. */
  readonly reason: string;
  /** A last line for the intro, where the agent waits for the user to speak first. */
  readonly hint?: string;
  /**
   * What the intro says will be proposed, in lines of at most 76 columns; absent, the shared demo
   * script's (lab/mock/demoScenario.ts: a harmless command, a file edit, a long command, an answer).
   */
  readonly story?: readonly string[];
  /** `version`: the installed agent's, when its package tells it (some agents' first-run screens depend on it). */
  start(o: { readonly agentBin: string; readonly version: string | undefined }): Promise<DemoWorld>;
}

/** The demo's isolated world for one agent: its folders and environment, and how it goes. */
export interface DemoWorld {
  readonly baseDir: string;
  readonly workDir: string;
  readonly env: NodeJS.ProcessEnv;
  /** The agent's arguments: the demo's first message, or none where the user starts. */
  readonly args: readonly string[];
  /** Stops everything the agent left running and the mock, and removes the world. */
  close(): Promise<void>;
}
