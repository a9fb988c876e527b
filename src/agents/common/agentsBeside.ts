// Whether another run of the same agent works in this run's folder right now. Found by scanning
// (Gemini, Codex), a twin's session file, given the same words, can hold them before our own file
// does when ours trails (a loaded machine): no wait after the screen showed them is long enough on
// every machine, so a lone fit proves the file ours only while no twin can be writing one. A twin is
// a process the agent's own predicate recognises, working in the same folder, outside this run's
// process tree (the agent may relaunch itself as a child). Read from /proc: where it cannot be read
// (not Linux), the answer is `undefined`, "cannot tell", and the caller treats it as "maybe".
import { readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { descendantPids, listPids, parentOf } from './processTable.js';

export interface BesideQuery {
  /** The pid of the agent process rec started: it and its descendants are this run's. */
  readonly ownPid: number;
  /** The run's working folder. */
  readonly cwd: string;
  /** Whether a process's argv is one of the agent's (its binary or script, by name). */
  readonly isAgent: (argv: readonly string[]) => boolean;
}


/**
 * True when another process of the agent works in `cwd`, false when none does, undefined when the
 * process table cannot be read. Processes of other users, unreadable to us, are passed over: they
 * cannot write this user's session files. Once the agent has exited, a child of it left running
 * counts as another: the answer errs towards "beside".
 */
export function agentRunsBeside(q: BesideQuery): boolean | undefined {
  let pids: number[];
  let cwd: string;
  try {
    pids = listPids();
    cwd = realpathSync(q.cwd);
  } catch {
    // No process table here (not Linux), or the folder is gone.
    return undefined;
  }
  const isOurs = (pid: number): boolean => {
    for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 64; p = parentOf(p), hops++) {
      if (p === q.ownPid) return true;
    }
    return false;
  };
  for (const pid of pids) {
    // The working folder first: one readlink, and most processes are elsewhere.
    if (pid === process.pid || readCwd(pid) !== cwd) continue;
    const argv = readArgv(pid);
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
 * The pids of `rootPid` and its descendants now (the root alone where /proc cannot be read): an agent that
 * names a file after its own pid (Copilot's `inuse.<pid>.lock`) may be a child of the process rec
 * started.
 */
export function agentProcessTree(rootPid: number): Set<number> {
  try {
    return new Set([rootPid, ...descendantPids([rootPid])]);
  } catch {
    // No process table here (not Linux).
    return new Set([rootPid]);
  }
}

function readArgv(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((a) => a !== '');
  } catch {
    // Exited since the listing, or another user's.
    return undefined;
  }
}

function readCwd(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    // Exited since the listing, or another user's (not ours to read).
    return undefined;
  }
}
