// Stopping processes by pid: find the descendants of given roots through /proc, then SIGTERM,
// wait for them to go, SIGKILL what is left. Never by name: other engineers' runs share the machine.
import { readFileSync } from 'node:fs';
import { descendantPids } from '../agents/common/processTable.js';

export { descendantPids };
import { pollUntil } from './pollUntil.js';

/** How long a process gets to exit after SIGTERM before SIGKILL (Codex's daemon shuts down in well under this). */
const TERM_GRACE_MS = 3_000;
/** How often to look whether the signalled processes are gone. */
const POLL_MS = 50;

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie still answers kill(0); it is gone for our purposes.
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return state.slice(state.lastIndexOf(')') + 2, state.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    // ESRCH (gone) or /proc entry vanished.
    return false;
  }
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // ESRCH: it exited on its own in the meantime.
  }
}

/** SIGTERM each pid, wait up to TERM_GRACE_MS for all to exit, SIGKILL the rest. */
export async function killPids(pids: readonly number[]): Promise<void> {
  const live = pids.filter((p) => p !== process.pid && isAlive(p));
  for (const pid of live) signal(pid, 'SIGTERM');
  await pollUntil(() => (live.some(isAlive) ? undefined : true), { what: 'the signalled processes to exit', timeoutMs: TERM_GRACE_MS, intervalMs: POLL_MS, orUndefined: true });
  const stubborn = live.filter(isAlive);
  for (const pid of stubborn) signal(pid, 'SIGKILL');
  // SIGKILL is delivered at once, but a big process takes a moment to be torn down (longer on a
  // loaded machine): return only once it is gone, so "stopped" means stopped.
  await pollUntil(() => (stubborn.some(isAlive) ? undefined : true), { what: 'the killed processes to be gone', timeoutMs: TERM_GRACE_MS, intervalMs: POLL_MS, orUndefined: true });
}
