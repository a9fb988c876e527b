// The hook command's debug log (REC_DEBUG=1): one appended line per hook, never the terminal, never
// the payload or the token. Dependency-free for the same start-up reason as hookProtocol.ts.
import { appendFileSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** Where the hook command writes debug lines: REC_DEBUG_LOG, else $XDG_STATE_HOME/rec/debug.log. */
export function hookDebugLogPath(env: NodeJS.ProcessEnv): string {
  if (env.REC_DEBUG_LOG) return env.REC_DEBUG_LOG;
  const stateHome = env.XDG_STATE_HOME || join(homedir(), '.local', 'state');
  return join(stateHome, 'rec', 'debug.log');
}

/** Appends one line when REC_DEBUG=1; otherwise does nothing. Never throws. */
export function appendHookDebug(env: NodeJS.ProcessEnv, line: string): void {
  if (env.REC_DEBUG !== '1') return;
  try {
    const file = hookDebugLogPath(env);
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    appendFileSync(file, `${new Date().toISOString()} hook[${process.pid}] ${line}\n`, { mode: 0o600 });
  } catch {
    // Unwritable log location: debugging output is best effort and must never fail the agent's hook.
  }
}
