// The rollouts this run's Codex may be writing: $CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl
// whose session_meta names this cwd and that were written to since the run started: a new session's
// file, or the earlier file a resumed session (`codex resume --last`, `codex resume <id>`) appends
// to, in whatever day's folder it was created. Other Codex sessions in the same folder are candidates
// too; sessionLocator.ts tells ours apart, or says it cannot. A subagent's thread (the auto-review's
// reviewer) is never one.
import { closeSync, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { codexHome } from './home.js';
import { isSubagentThread, SessionMeta } from './sessionRecords.js';

/** A file's mtime may be stamped by a coarser clock than the run's start: allow for that. */
export const START_SLACK_MS = 2_000;
/** session_meta lines hold the whole system prompt; read enough of the first line to parse it. */
const FIRST_LINE_MAX_BYTES = 512 * 1024;

export function readFirstLine(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    // Deleted between readdir and open: not ours to worry about.
    return undefined;
  }
  try {
    const buf = Buffer.alloc(FIRST_LINE_MAX_BYTES);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const text = buf.subarray(0, n).toString('utf8');
    const nl = text.indexOf('\n');
    return nl < 0 ? undefined : text.slice(0, nl);
  } finally {
    closeSync(fd);
  }
}

function samePath(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    // One of them does not exist (any more): they are not the same folder.
    return false;
  }
}

/** The day folders ($CODEX_HOME/sessions/YYYY/MM/DD) of these dates, local and UTC. */
function dayDirs(root: string, dates: readonly Date[]): string[] {
  const dirs = new Set<string>();
  const pad = (n: number) => String(n).padStart(2, '0');
  for (const d of dates) {
    dirs.add(join(root, String(d.getFullYear()), pad(d.getMonth() + 1), pad(d.getDate())));
    dirs.add(join(root, String(d.getUTCFullYear()), pad(d.getUTCMonth() + 1), pad(d.getUTCDate())));
  }
  return [...dirs];
}

function rolloutsIn(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.startsWith('rollout-') && name.endsWith('.jsonl'))
      .map((name) => join(dir, name));
  } catch {
    // No session written on that day (or the folder went away): nothing here.
    return [];
  }
}

/**
 * Rollouts of this cwd written to since the run started, most recently written last: those of the
 * run's days, and `earlier` ones (EarlierRollouts: a resumed session's file, in its own day's folder).
 */
export function findRolloutCandidates(env: NodeJS.ProcessEnv, cwd: string, startedAt: Date, earlier: readonly string[] = []): string[] {
  const since = startedAt.getTime() - START_SLACK_MS;
  const root = join(codexHome(env), 'sessions');
  const files = new Set([...dayDirs(root, [startedAt, new Date()]).flatMap(rolloutsIn), ...earlier]);
  const candidates: Array<{ file: string; mtime: number }> = [];
  for (const file of files) {
    let mtime: number;
    try {
      mtime = statSync(file).mtimeMs;
    } catch {
      // Deleted between readdir and stat: not ours to worry about.
      continue;
    }
    if (mtime < since) continue;
    const first = readFirstLine(file);
    if (first === undefined) continue;
    let json: unknown;
    try {
      json = JSON.parse(first);
    } catch {
      // Still being written: the next scan reads it whole.
      continue;
    }
    const meta = SessionMeta.safeParse(json);
    if (!meta.success || meta.data.payload.cwd === undefined) continue;
    // The auto-review's reviewer writes its own rollout, with the same cwd, as the session's first review starts.
    if (isSubagentThread(meta.data.payload)) continue;
    if (!samePath(meta.data.payload.cwd, cwd)) continue;
    candidates.push({ file, mtime });
  }
  return candidates.sort((a, b) => a.mtime - b.mtime).map((c) => c.file);
}

/**
 * The rollout of session `id`, which Codex names after it, in the day folder of its creation: the id
 * is a UUIDv7, whose first 48 bits are that time in ms. Any other day folder is looked in after.
 */
export function findRolloutById(env: NodeJS.ProcessEnv, id: string): string | undefined {
  const root = join(codexHome(env), 'sessions');
  const suffix = `-${id}.jsonl`;
  const ms = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
  const created = Number.isFinite(ms) ? [new Date(ms - 86_400_000), new Date(ms), new Date(ms + 86_400_000)] : [];
  const likely = dayDirs(root, created).flatMap(rolloutsIn).find((f) => f.endsWith(suffix));
  return likely ?? allDayDirs(root).flatMap(rolloutsIn).find((f) => f.endsWith(suffix));
}

/** Every YYYY/MM/DD folder under `root`. */
function allDayDirs(root: string): string[] {
  const level = (dirs: string[]) =>
    dirs.flatMap((dir) => {
      try {
        return readdirSync(dir).filter((n) => /^\d+$/.test(n)).map((n) => join(dir, n));
      } catch {
        // Gone, or not a folder: nothing below it.
        return [];
      }
    });
  return level(level(level([root])));
}

/** How often the other days' rollouts are looked over for one a resumed session appends to. */
export const EARLIER_ROLLOUTS_WALK_MS = 5_000;

/**
 * The rollouts of days other than the run's that were written to since it started (a resumed
 * session's file), looked for in the background: a user may keep thousands of rollouts, and
 * stat-ing them all takes too long for a key's path (docs/codex.md, "Finding the rollout").
 */
export class EarlierRollouts {
  private _files: string[] = [];
  private _walking = false;

  constructor(
    private readonly _env: NodeJS.ProcessEnv,
    private readonly _startedAt: Date,
  ) {}

  get files(): readonly string[] {
    return this._files;
  }

  /** Looks the folders over once (a call while a walk is under way does nothing). */
  async walk(): Promise<void> {
    if (this._walking) return;
    this._walking = true;
    try {
      const root = join(codexHome(this._env), 'sessions');
      const recent = new Set(dayDirs(root, [this._startedAt, new Date()]));
      const since = this._startedAt.getTime() - START_SLACK_MS;
      const found: string[] = [];
      for (const dir of allDayDirs(root)) {
        if (recent.has(dir)) continue;
        for (const file of rolloutsIn(dir)) {
          try {
            if ((await stat(file)).mtimeMs >= since) found.push(file);
          } catch {
            // Deleted since it was listed: not a candidate.
          }
        }
      }
      this._files = found;
    } finally {
      this._walking = false;
    }
  }
}
