// How `rec gemini` starts the Gemini CLI: with the user's arguments untouched. rec's SessionStart hook
// (its payload names this run's chat file and session id) goes in through a per-run system settings
// layer, and only where Gemini 0.61 takes one (systemSettingsLayer.ts explains when); otherwise
// Gemini starts exactly as it would bare and rec finds the chat file by scanning. One hook only:
// Gemini runs hooks synchronously and shows "Executing Hooks: …" while they run, and no other event
// says anything the screen and the chat file do not (none carries a call id, none fires on a refusal).
import type { LaunchContext, LaunchPlan } from '../agentAdapter.js';
import { prepareSystemLayer } from './systemSettingsLayer.js';

/** The hook events `rec gemini` wires for its run (Gemini's names). */
export const GEMINI_HOOK_EVENTS = ['SessionStart'] as const;

export function prepareGeminiLaunch(ctx: LaunchContext): LaunchPlan {
  let layer;
  try {
    layer = prepareSystemLayer(ctx.env, ctx.tempDir, GEMINI_HOOK_EVENTS, ctx.hookCommand);
  } catch {
    // The temp folder could not be written: Gemini starts bare, and the chat file is found by scanning.
    layer = undefined;
  }
  // The layer file lives in ctx.tempDir, which the run removes; nothing else was written.
  return { args: ctx.args, env: layer?.ok ? layer.env : ctx.env };
}
