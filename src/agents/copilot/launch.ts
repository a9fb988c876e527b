// How `rec copilot` starts GitHub Copilot CLI: exactly as the user asked, arguments and environment
// untouched. rec wires no hook (Copilot's hook payloads carry no toolCallId, docs/copilot.md §8) and
// writes nothing to ~/.copilot or the project: the recorder finds this run's events.jsonl under
// session-state/ by what the screen shows (sessionLocator.ts).
import type { LaunchContext, LaunchPlan } from '../agentAdapter.js';

export function prepareCopilotLaunch(ctx: LaunchContext): LaunchPlan {
  return { args: ctx.args, env: ctx.env };
}
