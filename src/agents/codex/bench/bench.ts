// Codex's bench (lab/bench.ts): what `rec doctor codex` runs and `rec demo codex` starts. Its row
// (module.ts) loads this file on demand, never with the row.
import type { AgentBench } from '../../../lab/bench.js';
import { CODEX_CONFORMANCE } from './conformance.js';
import { CODEX_DEMO } from './demo.js';
import { codexScript, runCodexScenario } from './doctorRun.js';

export const codexBench: AgentBench = {
  doctor: { scenarios: CODEX_CONFORMANCE, script: codexScript, run: runCodexScenario },
  demo: CODEX_DEMO,
};
