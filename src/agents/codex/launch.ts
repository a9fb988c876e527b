// How `rec codex` starts Codex: the user's arguments untouched, preceded by `-c` overrides that
// add our hooks and trust exactly those (hookWiring.ts). Nothing is written to $CODEX_HOME.
import type { LaunchContext, LaunchPlan } from '../agentAdapter.js';
import { codexHookArgs } from './hookWiring.js';

/** Set to 0 to run Codex without our hooks; the rollout is then found by scanning $CODEX_HOME/sessions. */
export const CODEX_HOOKS_ENV = 'REC_CODEX_HOOKS';

export function prepareCodexLaunch(ctx: LaunchContext): LaunchPlan {
  const hooks = ctx.env[CODEX_HOOKS_ENV] === '0' ? [] : codexHookArgs(ctx.hookCommand);
  // `-c` is a global Codex option, so it may precede a subcommand (`codex resume …`) as well.
  return { args: [...hooks, ...ctx.args], env: ctx.env };
}
