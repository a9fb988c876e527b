// GitHub Copilot CLI's bench (lab/bench.ts): what `rec doctor copilot` runs and `rec demo copilot`
// starts. Its row (module.ts) loads this file on demand, never with the row.
import type { AgentBench } from '../../../lab/bench.js';
import { COPILOT_CONFORMANCE } from './conformance.js';
import { COPILOT_DEMO } from './demo.js';
import { copilotScript, runCopilotScenario } from './doctorRun.js';

export const copilotBench: AgentBench = {
  doctor: { scenarios: COPILOT_CONFORMANCE, script: copilotScript, run: runCopilotScenario },
  demo: COPILOT_DEMO,
};
