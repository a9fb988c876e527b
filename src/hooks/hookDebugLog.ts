// The hook command's debug log (REC_DEBUG=1): one appended line per hook, never the terminal, never
// the payload or the token. Dependency-free for the same start-up reason as hookProtocol.ts.
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { debugLogPath } from '../store/debugLog.js';

/** Appends one line when REC_DEBUG=1; otherwise does nothing. Never throws. */
export function appendHookDebug(env: NodeJS.ProcessEnv, line: string): void {
  if (env.REC_DEBUG !== '1') return;
  try {
    const file = debugLogPath(env);
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    appendFileSync(file, `${new Date().toISOString()} hook[${process.pid}] ${line}\n`, { mode: 0o600 });
  } catch {
    // Unwritable log location: debugging output is best effort and must never fail the agent's hook.
  }
}
