// The rollouts this run's Codex may be writing: $CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl
// whose session_meta names this cwd and that were written to since the run started: a new session's
// file, or the earlier file a resumed session (`codex resume --last`, `codex resume <id>`) appends
// to, in whatever day's folder it was created. Other Codex sessions in the same folder are candidates
// too; rolloutChooser.ts tells ours apart, or says it cannot.
import { closeSync, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { codexHome } from './module.js';
import { SessionMeta } from './rolloutRecords.js';

/** A file's mtime may be stamped by a coarser clock than the run's start: allow for that. */
const START_SLACK_MS = 2_000;
/** session_meta lines hold the whole system prompt; read enough of the first line to parse it. */
const FIRST_LINE_MAX_BYTES = 512 * 1024;

function readFirstLine(file: string): string | undefined {
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

/** Every rollout file under $CODEX_HOME/sessions (YYYY/MM/DD folders), with its mtime. */
function allRollouts(root: string): Array<{ file: string; mtime: number }> {
  const out: Array<{ file: string; mtime: number }> = [];
  const walk = (dir: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      // No session written yet (or the folder went away): nothing here.
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      if (depth < 3) {
        if (/^\d+$/.test(name)) walk(path, depth + 1);
        continue;
      }
      if (!name.startsWith('rollout-') || !name.endsWith('.jsonl')) continue;
      try {
        out.push({ file: path, mtime: statSync(path).mtimeMs });
      } catch {
        // Deleted between readdir and stat: not ours to worry about.
      }
    }
  };
  walk(root, 0);
  return out;
}

/** Rollouts of this cwd written to since the run started, most recently written last. */
export function findRolloutCandidates(env: NodeJS.ProcessEnv, cwd: string, startedAt: Date): string[] {
  const since = startedAt.getTime() - START_SLACK_MS;
  const candidates: Array<{ file: string; mtime: number }> = [];
  for (const entry of allRollouts(join(codexHome(env), 'sessions'))) {
    if (entry.mtime < since) continue;
    const first = readFirstLine(entry.file);
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
    if (!samePath(meta.data.payload.cwd, cwd)) continue;
    candidates.push(entry);
  }
  return candidates.sort((a, b) => a.mtime - b.mtime).map((c) => c.file);
}

/** The rollout of session `id` (Codex names the file after it), wherever it was created. */
export function findRolloutById(env: NodeJS.ProcessEnv, id: string): string | undefined {
  const suffix = `-${id}.jsonl`;
  return allRollouts(join(codexHome(env), 'sessions')).find((r) => r.file.endsWith(suffix))?.file;
}
