// The sessions list as the page carries it. On a corpus of many small sessions it is nearly all of
// the page (docs/benchmarks.md, "rec report"), and most of each entry was its folder and its file's
// folder, the same few folders over and over, and the same key names. So a session is an array
// (CompactSession), and each folder is written once in `paths` and named by its index.

/**
 * A step: its STEP_FIELDS in order, then, only when it answered a recorded prompt, the prompt's
 * index in the page's `prompts` and the index of the option chosen (null when the key chose
 * none). Steps without a prompt (every step of a session read without a sidecar) stop there.
 */
export type ReportStep = Array<string | number | null>;

/** A session as the report builder keeps it, before it is compacted. */
export interface ReportSession {
  agent: string;
  id: string | null;
  file: string | null;
  cwd: string | null;
  started: string | null;
  /** rejections, interruptions, skipped, approvals, unknown. */
  counts: [number, number, number, number, number];
  steps: ReportStep[];
}

/** A session in the page's data: `cwd` and `dir` (its file's folder) are indexes into `paths`. */
export type CompactSession = [
  agent: string,
  id: string | null,
  started: string | null,
  cwd: number | null,
  dir: number | null,
  name: string | null,
  counts: ReportSession['counts'],
  steps: ReportStep[],
];

export interface CompactSessions {
  /** Every distinct folder: the sessions' folders and their files' folders. */
  paths: string[];
  sessions: CompactSession[];
}

export function compactSessions(sessions: readonly ReportSession[]): CompactSessions {
  const paths: string[] = [];
  const indexes = new Map<string, number>();
  const pathIndex = (path: string | null): number | null => {
    if (path === null) return null;
    let i = indexes.get(path);
    if (i === undefined) {
      i = paths.push(path) - 1;
      indexes.set(path, i);
    }
    return i;
  };
  const out: CompactSession[] = [];
  for (const s of sessions) {
    // A file is its folder and its name; the page joins them again with the same '/'.
    const slash = s.file === null ? -1 : s.file.lastIndexOf('/');
    const dir = s.file === null || slash < 0 ? null : pathIndex(s.file.slice(0, slash));
    const name = s.file === null ? null : s.file.slice(slash + 1);
    out.push([s.agent, s.id, s.started, pathIndex(s.cwd), dir, name, s.counts, s.steps]);
  }
  return { paths, sessions: out };
}
