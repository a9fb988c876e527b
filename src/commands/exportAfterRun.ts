// REC_EXPORT_OTLP=URL: once the agent has exited and its run is closed, `rec export --run` sends that
// run's decisions from a detached child. rec neither waits for it nor reports it: the terminal and
// the exit status belong to the agent. What the child says (its one-line failure) goes to the debug
// log when REC_DEBUG=1; an event it could not send stays behind the cursor for the next export.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { debugLogPath, type DebugLog } from '../store/debugLog.js';

/** This rec's own entry point: the child is the same version as the run that wrote the rows. */
const REC_BIN = fileURLToPath(new URL('../../bin/rec.js', import.meta.url));

export function exportAfterRun(env: NodeJS.ProcessEnv, runId: string, dbPath: string, debug: DebugLog): void {
  const url = env.REC_EXPORT_OTLP;
  if (url === undefined || url === '') return;
  let stderr: number | 'ignore' = 'ignore';
  try {
    if (env.REC_DEBUG === '1') {
      const log = debugLogPath(env);
      mkdirSync(dirname(log), { recursive: true, mode: 0o700 });
      stderr = openSync(log, 'a', 0o600);
    }
    const child = spawn(process.execPath, [REC_BIN, 'export', '--otlp', url, '--run', runId, '--db', dbPath], {
      detached: true,
      stdio: ['ignore', 'ignore', stderr],
      env,
    });
    // A child that cannot start is told here; it never reaches the terminal.
    child.on('error', (err) => debug(`export after the run did not start: ${err.message}`));
    child.unref();
    debug(`export of the run to REC_EXPORT_OTLP started (pid ${child.pid ?? '?'})`);
  } catch (err) {
    debug(`export after the run did not start: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    if (typeof stderr === 'number') closeSync(stderr);
  }
}
