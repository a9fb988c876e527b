// Stopping processes by pid: find the descendants of given roots through /proc, then SIGTERM,
// wait for them to go, SIGKILL what is left. Never by name: other engineers' runs share the machine.
import { readdirSync, readFileSync } from 'node:fs';
import { pollUntil } from './pollUntil.js';

/** How long a process gets to exit after SIGTERM before SIGKILL (Codex's daemon shuts down in well under this). */
const TERM_GRACE_MS = 3_000;
/** How often to look whether the signalled processes are gone. */
const POLL_MS = 50;

/** The parent pid of `pid`, or undefined if it is gone. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (comm) may hold spaces and parens: the fields after the last ')' are fixed.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(rest[1]);
  } catch {
    // The process exited while we looked.
    return undefined;
  }
}

/** Every live descendant of `roots` (not the roots themselves). */
export function descendantPids(roots: readonly number[]): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const ppid = parentOf(pid);
    if (ppid === undefined) continue;
    const list = children.get(ppid) ?? [];
    list.push(pid);
    children.set(ppid, list);
  }
  const out: number[] = [];
  const queue = [...roots];
  const seen = new Set<number>(roots);
  while (queue.length > 0) {
    const pid = queue.shift()!;
    for (const child of children.get(pid) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

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
