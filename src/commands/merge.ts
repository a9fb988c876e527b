// `rec merge`: one merged JSON per agent session (the agent's own file joined with the sidecar),
// pretty JSON for one session, JSON Lines for many, or one file per session with -o DIR.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { exitStatus, runSelection } from '../merge/mergeRun.js';
import type { TaskResult } from '../merge/mergeTask.js';
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

/** Merged files hold conversations: private to the user, like the sidecar. */
const OUTPUT_DIR_MODE = 0o700;
const OUTPUT_FILE_MODE = 0o600;

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
  if (outDir !== null) await mkdir(outDir, { recursive: true, mode: OUTPUT_DIR_MODE });
  const usedNames = new Set<string>();

  // Files get indented JSON straight from the tasks; stdout gets JSON Lines, re-indented only for
  // a single session.
  const mode = outDir !== null ? 'merge-pretty' : 'merge';
  // `rec merge | head -1`: once the reader is gone, no more files are read.
  const out = new OutputGuard(io.stdout, io.stderr, 'merge');
  // Each output buffer may serve the next session once written, where writing hands the bytes to
  // the kernel: a file written here, or the process's own stdout (OutputGuard.write waits for its
  // write callback). Another stream, such as a PassThrough, may still hold the buffer after that.
  const reuseOutput = outDir !== null || io.stdout === process.stdout;
  const summary = await runSelection('merge', parsed, io, mode, async (r, _i, total) => {
    if (r.output === null) return;
    if (outDir !== null) {
      const name = uniqueName(r, usedNames);
      await writeFile(join(outDir, name), r.output, { mode: OUTPUT_FILE_MODE });
      return;
    }
    if (total === 1 && !parsed.jsonl) {
      const doc: unknown = JSON.parse(Buffer.from(r.output.buffer, r.output.byteOffset, r.output.byteLength).toString('utf8'));
      await out.write(`${JSON.stringify(doc, null, 2)}\n`);
    } else await out.write(r.output);
  }, { signal: out.signal, reuseOutput });
  if (out.failure !== null) return 1;
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
