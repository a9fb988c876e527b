// How `rec gemini` starts the Gemini CLI: with the user's arguments untouched. rec's SessionStart hook
// (its payload names this run's chat file and session id) goes in through a per-run system settings
// layer, and only where Gemini 0.61 takes one (systemSettingsLayer.ts explains when); otherwise
// Gemini starts exactly as it would bare and rec finds the chat file by scanning. One hook only:
// Gemini runs hooks synchronously and shows "Executing Hooks: …" while they run, and no other event
// says anything the screen and the chat file do not (none carries a call id, none fires on a refusal).
import { mkdirSync, rmSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { LaunchContext, LaunchPlan } from '../agentAdapter.js';
import { geminiTakesSystemFile, LAYER_FILE, prepareSystemLayer } from './systemSettingsLayer.js';

/** The hook events `rec gemini` wires for its run (Gemini's names). */
export const GEMINI_HOOK_EVENTS = ['SessionStart'] as const;

export function prepareGeminiLaunch(ctx: LaunchContext): LaunchPlan {
  const folder = layerFolder(ctx);
  if (!folder) return { args: ctx.args, env: ctx.env };
  let layer;
  try {
    layer = prepareSystemLayer(ctx.env, folder.dir, GEMINI_HOOK_EVENTS, ctx.hookCommand);
  } catch {
    // The folder could not be written: Gemini starts bare, and the chat file is found by scanning.
    layer = undefined;
  }
  if (!layer?.ok) {
    folder.cleanup?.();
    return { args: ctx.args, env: ctx.env };
  }
  return { args: ctx.args, env: layer.env, ...(folder.cleanup ? { cleanup: folder.cleanup } : {}) };
}

/**
 * Where the per-run layer can go so that Gemini takes it: the run's temp folder (ctx.tempDir, which
 * the run removes) if it is root-owned all the way up, else a folder of the run's own in
 * $XDG_RUNTIME_DIR under the same rule (root's /run/user/0), removed by `cleanup`. Under /tmp, or
 * for a user other than root, there is none: rec then scans.
 */
function layerFolder(ctx: LaunchContext): { dir: string; cleanup?: () => void } | undefined {
  if (geminiTakesSystemFile(join(ctx.tempDir, LAYER_FILE))) return { dir: ctx.tempDir };
  const runtime = ctx.env['XDG_RUNTIME_DIR'];
  if (!runtime || !isAbsolute(runtime)) return undefined;
  const dir = join(runtime, `rec-gemini-${ctx.runId}`);
  if (!geminiTakesSystemFile(join(runtime, LAYER_FILE))) return undefined;
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch {
    return undefined;
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
