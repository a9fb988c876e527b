// Claude Code's bench (lab/bench.ts): what `rec doctor claude` runs and `rec demo claude` starts. Its
// row (module.ts) loads this file on demand, never with the row.
import type { AgentBench } from '../../../lab/bench.js';
import { CLAUDE_CONFORMANCE } from './conformance.js';
import { CLAUDE_DEMO } from './demo.js';
import { claudeScript, runClaudeScenario } from './doctorRun.js';

export const claudeBench: AgentBench = {
  doctor: { scenarios: CLAUDE_CONFORMANCE, script: claudeScript, run: runClaudeScenario },
  demo: CLAUDE_DEMO,
};
