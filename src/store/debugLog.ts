// REC_DEBUG=1 writes a debug log to a file, never to the terminal (the passthrough is sacred). The
// run and the hook command write the same file. Dependency-free: the hook command loads it at start.
import { appendFileSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { DebugLog } from '../core/debugLog.js';

export type { DebugLog } from '../core/debugLog.js';

/** REC_DEBUG_LOG, else $XDG_STATE_HOME/rec/debug.log, else ~/.local/state/rec/debug.log. */
export function debugLogPath(env: NodeJS.ProcessEnv): string {
  if (env.REC_DEBUG_LOG) return env.REC_DEBUG_LOG;
  const state = env.XDG_STATE_HOME || join(env.HOME || homedir(), '.local', 'state');
  return join(state, 'rec', 'debug.log');
}

export function createDebugLog(env: NodeJS.ProcessEnv, tag: string): DebugLog {
  if (env.REC_DEBUG !== '1') return () => {};
  const path = debugLogPath(env);
  let broken = false;
  return (message: string) => {
    if (broken) return;
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      appendFileSync(path, `${new Date().toISOString()} ${tag} ${message}\n`, { mode: 0o600 });
    } catch {
      // A debug log that cannot be written must not disturb the run: stop trying.
      broken = true;
    }
  };
}
