// `rec merge`: one merged JSON per agent session (the agent's own file joined with the sidecar),
// pretty JSON for one session, JSON Lines for many, or one file per session with -o DIR.
import { resolve } from 'node:path';
import { exitStatus, runSelection } from '../merge/mergeRun.js';
import type { TaskResult } from '../merge/mergeTask.js';
import { OutputFiles } from '../merge/outputFiles.js';
import { OutputGuard } from '../merge/outputGuard.js';
import { parseSelectionArgs, type SelectionArgs } from '../merge/selectionArgs.js';
import { UsageError, type CommandIO } from './commandIO.js';

export const MERGE_USAGE = `usage: rec merge [SESSION_FILE|DIR ...] [--run ID] [--agent codex|gemini|claude] [--since WHEN]
                 [-o DIR] [--jsonl] [--db PATH] [--jobs N] [--no-progress]

Joins each agent session file with rec's sidecar into one merged JSON document (docs/merge.md).
With no file and no --run, reads every session of --agent (default: all three) in the agents'
own folders, modified since --since (30m, 24h, 7d, 2w or a date), plus runs whose file is gone.
  -o, --output DIR   write DIR/<agent>-<session>.json per session instead of stdout
  --jsonl            JSON Lines on stdout even for one session (default for more than one)
  --db PATH          sidecar database (default: $REC_DB, $XDG_DATA_HOME/rec/rec.db, ~/.local/share/rec/rec.db)
  -j, --jobs N       threads that read: the main one and N-1 workers (default: one per 96 MB
                     of input, up to the cores the load average leaves free)
`;

export async function mergeCommand(args: string[], io: CommandIO): Promise<number> {
  let parsed: SelectionArgs;
  try {
    parsed = parseSelectionArgs(args, { output: true, jsonl: true });
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`rec merge: ${err.message}\n${MERGE_USAGE}`);
      return 2;
    }
    throw err;
  }
  if (parsed.help) {
    io.stdout.write(MERGE_USAGE);
    return 0;
  }
  const outDir = parsed.output === null ? null : resolve(io.cwd, parsed.output);
  const files = outDir === null ? null : new OutputFiles(outDir, io.stderr, 'merge');
  if (files !== null && !(await files.open())) return 1;
  const usedNames = new Set<string>();

  // Files get indented JSON straight from the tasks; stdout gets JSON Lines, re-indented only for
  // a single session.
  const mode = files !== null ? 'merge-pretty' : 'merge';
  // `rec merge | head -1`: once the reader is gone, no more files are read.
  const out = new OutputGuard(io.stdout, io.stderr, 'merge');
  // Each output buffer may serve the next session once written, where writing hands the bytes to
  // the kernel: a file written here, or the process's own stdout (OutputGuard.write waits for its
  // write callback). Another stream, such as a PassThrough, may still hold the buffer after that.
  const reuseOutput = files !== null || io.stdout === process.stdout;
  const summary = await runSelection('merge', parsed, io, mode, async (r, _i, total) => {
    if (r.output === null) return;
    if (files !== null) {
      await files.write(uniqueName(r, usedNames), r.output);
      return;
    }
    if (total === 1 && !parsed.jsonl) {
      const doc: unknown = JSON.parse(Buffer.from(r.output.buffer, r.output.byteOffset, r.output.byteLength).toString('utf8'));
      await out.write(`${JSON.stringify(doc, null, 2)}\n`);
    } else await out.write(r.output);
  }, { signal: files?.signal ?? out.signal, reuseOutput });
  if (out.failure !== null || (files !== null && files.failure !== null)) return 1;
  // The reader took what it wanted and left: that is success.
  if (out.closed) return 0;
  if (summary.tasks === 0 && !summary.explicit) io.stderr.write('rec merge: no sessions found\n');
  return exitStatus(summary);
}

function uniqueName(r: TaskResult, used: Set<string>): string {
  const l = r.label;
  const stem = [l?.agent ?? 'session', l?.session_id ?? 'unknown', l?.subagent_id ?? null]
    .filter((x): x is string => x !== null)
    .join('-')
    .replace(/[^\w.-]/g, '_');
  let name = `${stem}.json`;
  for (let n = 2; used.has(name); n++) name = `${stem}-${n}.json`;
  used.add(name);
  return name;
}
