// The rollouts this run's Codex may be writing: $CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl
// whose session_meta names this cwd and started after the run did. Other Codex sessions in the same
// folder are candidates too; rolloutChooser.ts tells ours apart by what the screen shows.
import { closeSync, openSync, readdirSync, readSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { codexHome } from './module.js';
import { SessionMeta } from './rolloutRecords.js';

/** Codex stamps session_meta after the TUI starts; allow for clocks read a moment apart. */
const START_SLACK_MS = 2_000;
/** session_meta lines hold the whole system prompt; read enough of the first line to parse it. */
const FIRST_LINE_MAX_BYTES = 512 * 1024;

function dayDirs(root: string, dates: readonly Date[]): string[] {
  const dirs = new Set<string>();
  const pad = (n: number) => String(n).padStart(2, '0');
  for (const d of dates) {
    dirs.add(join(root, String(d.getFullYear()), pad(d.getMonth() + 1), pad(d.getDate())));
    dirs.add(join(root, String(d.getUTCFullYear()), pad(d.getUTCMonth() + 1), pad(d.getUTCDate())));
  }
  return [...dirs];
}

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

/** Candidate rollouts of this run, earliest session first; empty while there is none yet. */
export function findRolloutCandidates(env: NodeJS.ProcessEnv, cwd: string, startedAt: Date, now = new Date()): string[] {
  const root = join(codexHome(env), 'sessions');
  const candidates: Array<{ file: string; started: number }> = [];
  for (const dir of dayDirs(root, [startedAt, now])) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      // No session written on that day yet.
      continue;
    }
    for (const name of names) {
      if (!name.startsWith('rollout-') || !name.endsWith('.jsonl')) continue;
      const file = join(dir, name);
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
      const ts = Date.parse(String((meta.data.payload as Record<string, unknown>).timestamp ?? ''));
      if (!Number.isFinite(ts) || ts < startedAt.getTime() - START_SLACK_MS) continue;
      if (!samePath(meta.data.payload.cwd, cwd)) continue;
      candidates.push({ file, started: ts });
    }
  }
  candidates.sort((a, b) => a.started - b.started);
  return candidates.map((c) => c.file);
}
