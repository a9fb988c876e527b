// Whether another run of the same agent works in this run's folder right now. Found by scanning
// (Gemini, Codex), a twin's session file, given the same words, can hold them before our own file
// does when ours trails (a loaded machine): no wait after the screen showed them is long enough on
// every machine, so a lone fit proves the file ours only while no twin can be writing one. A twin is
// a process the agent's own predicate recognises, working in the same folder, outside this run's
// process tree (the agent may relaunch itself as a child). Read from /proc: where it cannot be read
// (not Linux), the answer is `undefined`, "cannot tell", and the caller treats it as "maybe".
import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

export interface BesideQuery {
  /** The pid of the agent process rec started: it and its descendants are this run's. */
  readonly ownPid: number;
  /** The run's working folder. */
  readonly cwd: string;
  /** Whether a process's argv is one of the agent's (its binary or script, by name). */
  readonly isAgent: (argv: readonly string[]) => boolean;
}

const PROC = '/proc';

/**
 * True when another process of the agent works in `cwd`, false when none does, undefined when the
 * process table cannot be read. Processes of other users, unreadable to us, are passed over: they
 * cannot write this user's session files. Once the agent has exited, a child of it left running
 * counts as another: the answer errs towards "beside".
 */
export function agentRunsBeside(q: BesideQuery): boolean | undefined {
  const proc = PROC;
  let pids: number[];
  let cwd: string;
  try {
    pids = readdirSync(proc).filter((name) => /^\d+$/.test(name)).map(Number);
    cwd = realpathSync(q.cwd);
  } catch {
    // No process table here (not Linux), or the folder is gone.
    return undefined;
  }
  const parents = new Map<number, number>();
  const parentOf = (pid: number): number | undefined => {
    if (!parents.has(pid)) {
      const ppid = readParent(proc, pid);
      if (ppid === undefined) return undefined;
      parents.set(pid, ppid);
    }
    return parents.get(pid);
  };
  const isOurs = (pid: number): boolean => {
    for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 64; p = parentOf(p), hops++) {
      if (p === q.ownPid) return true;
    }
    return false;
  };
  for (const pid of pids) {
    // The working folder first: one readlink, and most processes are elsewhere.
    if (pid === process.pid || readCwd(proc, pid) !== cwd) continue;
    const argv = readArgv(proc, pid);
    if (!argv || !q.isAgent(argv)) continue;
    if (!isOurs(pid)) return true;
  }
  return false;
}

/**
 * How long a "beside" answer holds before /proc is read again. Reading it costs a readlink per
 * process (docs/benchmarks.md), and the chooser asks every scan while a twin runs; holding "beside"
 * a while only delays a binding, while "none" is asked again every time.
 */
export const BESIDE_HOLD_MS = 5_000;

/** agentRunsBeside for one run, its "beside" answers held for BESIDE_HOLD_MS. */
export function besideProbe(q: BesideQuery, now: () => number = Date.now): () => boolean | undefined {
  let besideUntil = Number.NEGATIVE_INFINITY;
  return () => {
    if (now() < besideUntil) return true;
    const answer = agentRunsBeside(q);
    if (answer === true) besideUntil = now() + BESIDE_HOLD_MS;
    return answer;
  };
}

/**
 * The pids of `rootPid` and its descendants now (empty where /proc cannot be read): an agent that
 * names a file after its own pid (Copilot's `inuse.<pid>.lock`) may be a child of the process rec
 * started.
 */
export function agentProcessTree(rootPid: number): Set<number> {
  const tree = new Set<number>([rootPid]);
  let pids: number[];
  try {
    pids = readdirSync(PROC).filter((name) => /^\d+$/.test(name)).map(Number);
  } catch {
    // No process table here (not Linux).
    return tree;
  }
  const parentOf = new Map(pids.map((pid) => [pid, readParent(PROC, pid)] as const));
  // Parents are listed before their children, nearly always; a few passes settle the rest.
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parentOf) {
      if (ppid !== undefined && tree.has(ppid) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  return tree;
}

function readArgv(proc: string, pid: number): string[] | undefined {
  try {
    return readFileSync(join(proc, String(pid), 'cmdline'), 'utf8').split('\0').filter((a) => a !== '');
  } catch {
    // Exited since the listing, or another user's.
    return undefined;
  }
}

function readCwd(proc: string, pid: number): string | undefined {
  try {
    return readlinkSync(join(proc, String(pid), 'cwd'));
  } catch {
    // Exited since the listing, or another user's (not ours to read).
    return undefined;
  }
}

/** The parent pid, from `stat`: the fourth field, counted after the command name's closing parenthesis. */
function readParent(proc: string, pid: number): number | undefined {
  try {
    const stat = readFileSync(join(proc, String(pid), 'stat'), 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    // Exited since the listing.
    return undefined;
  }
}
