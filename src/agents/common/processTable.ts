// The process table as /proc shows it (Linux): a process's parent, and the descendants of given
// roots. One reader for everything that walks process trees: the lab stopping what it started
// (lab/processTree.ts) and a recorder telling its agent's processes from another run's
// (agents/common/agentsBeside.ts). Throws where /proc cannot be listed (not Linux).
import { readdirSync, readFileSync } from 'node:fs';

/** The parent pid of `pid`, or undefined if it is gone. */
export function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2 (comm) may hold spaces and parens: the fields after the last ')' are fixed.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    // The process exited while we looked.
    return undefined;
  }
}

/** Whether a process of this pid exists (another user's too: it cannot be signalled, but it is there). Any platform. */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to another user; ESRCH: it is gone.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pids /proc lists now. */
export function listPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

/** Every live descendant of `roots` (not the roots themselves). */
export function descendantPids(roots: readonly number[]): number[] {
  const children = new Map<number, number[]>();
  for (const pid of listPids()) {
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
