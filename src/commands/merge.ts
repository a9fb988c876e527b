// `rec merge`: one merged JSON per agent session (the agent's own file joined with the sidecar),
// pretty JSON for one session, JSON Lines for many, or one file per session with -o DIR.
import { resolve } from 'node:path';
import { exitStatus } from '../merge/mergeRun.js';
import type { TaskResult } from '../merge/mergeTask.js';
import { OutputFiles } from '../merge/outputFiles.js';
import { OutputGuard } from '../merge/outputGuard.js';
import type { CommandIO } from './commandIO.js';
import { parseOrReport } from './commandKit.js';
import { MERGE_SPEC } from './commandSpec.js';
import { toSelectionArgs, type SelectionArgs } from './selectionArgs.js';
import { runSelectionCommand } from './selectionRun.js';

export async function mergeCommand(args: string[], io: CommandIO): Promise<number> {
  let parsed!: SelectionArgs;
  const status = parseOrReport(MERGE_SPEC, args, io, (p) => (parsed = toSelectionArgs(p)));
  if (typeof status === 'number') return status;
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
  const jsonl = parsed.jsonl;
  const outcome = await runSelectionCommand('merge', parsed, io, mode, async (r, _i, total) => {
    if (r.output === null) return;
    if (files !== null) {
      await files.write(uniqueName(r, usedNames), r.output);
      return;
    }
    if (total === 1 && !jsonl) {
      const doc: unknown = JSON.parse(Buffer.from(r.output.buffer, r.output.byteOffset, r.output.byteLength).toString('utf8'));
      await out.write(`${JSON.stringify(doc, null, 2)}\n`);
    } else await out.write(r.output);
  }, { signal: files?.signal ?? out.signal, reuseOutput, whereAll: 'each merged session lists all of its own in "diagnostics"' });
  if (!outcome.ok) return outcome.status;
  const { summary } = outcome;
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
