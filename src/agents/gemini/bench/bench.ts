// Gemini CLI's bench (lab/bench.ts): what `rec doctor gemini` runs and `rec demo gemini` starts. Its
// row (module.ts) loads this file on demand, never with the row.
import type { AgentBench } from '../../../lab/bench.js';
import { GEMINI_CONFORMANCE } from './conformance.js';
import { GEMINI_DEMO } from './demo.js';
import { geminiDoctorRefusal, geminiScript, runGeminiScenario } from './doctorRun.js';

export const geminiBench: AgentBench = {
  doctor: { scenarios: GEMINI_CONFORMANCE, script: geminiScript, run: runGeminiScenario, refusal: geminiDoctorRefusal },
  demo: GEMINI_DEMO,
};
