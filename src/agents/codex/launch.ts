// How `rec codex` starts Codex: with the user's arguments untouched, so that Codex runs exactly as it
// would bare. Nothing is written to $CODEX_HOME and nothing is added to the command line.
//
// Hooks stay off by default. The only per-run, config-file-free way to wire them is `-c` overrides
// (hookSettings.ts), and Codex 0.169.0 treats any `-c` as a reason to leave its shared app-server
// daemon: it prints "Running without the shared background server: command-line configuration
// overrides (-c, …) requires embedded mode" and runs embedded (the TUI writes the rollout, and
// Ctrl+C while a command runs interrupts at once instead of opening the "Task is still running"
// menu). Every other config layer (user config.toml, the project's .codex/, /etc/codex, managed
// config) is the user's or the admin's, and the daemon they feed is shared by all sessions of that
// CODEX_HOME, so no layer holds hooks "for this run only". The rollout is found without hooks
// (sessionLocator.ts).
import type { LaunchContext, LaunchPlan } from '../agentAdapter.js';
import { codexHookArgs } from './hookSettings.js';

/**
 * Set to 1 to wire rec's hooks into Codex for this run (exact call ids from PreToolUse, the rollout
 * path from every hook). Side effect: Codex runs in embedded mode (see above).
 */
export const CODEX_HOOKS_ENV = 'REC_CODEX_HOOKS';

export function codexHooksWanted(env: NodeJS.ProcessEnv): boolean {
  return env[CODEX_HOOKS_ENV] === '1';
}

export function prepareCodexLaunch(ctx: LaunchContext): LaunchPlan {
  const hooks = codexHooksWanted(ctx.env) ? codexHookArgs(ctx.hookCommand) : [];
  // `-c` is a global Codex option, so it may precede a subcommand (`codex resume …`) as well.
  return { args: [...hooks, ...ctx.args], env: ctx.env };
}
