// `--run ID`, the same for every command: a full run id or any unique prefix of one (rec runs shows
// the first eight characters). An unknown or ambiguous prefix is a usage mistake: one line, exit 2.
import { resolveDbPath } from '../store/dbPath.js';
import { shortId } from '../store/ids.js';
import type { Run } from '../store/run.js';
import { openSidecar, type SidecarDb } from '../store/sidecarDb.js';
import type { CommandIO } from './commandIO.js';
import { quote } from './parseCommandArgs.js';

export type RunRef = { readonly ok: true; readonly run: Run } | { readonly ok: false; readonly status: number };

/** Finds the run `ref` names in an open database, or says in one line why not. */
export function resolveRunRef(db: SidecarDb, ref: string, command: string, io: CommandIO): RunRef {
  const resolved = db.resolveRunId(ref);
  const run = resolved.ok ? db.getRun(resolved.id) : undefined;
  if (run !== undefined) return { ok: true, run };
  io.stderr.write(
    !resolved.ok && resolved.reason === 'ambiguous'
      ? `rec ${command}: run id '${quote(ref)}' is ambiguous: it matches ${resolved.matches.map(shortId).join(', ')}; give more characters\n`
      : `rec ${command}: no run matches '${quote(ref)}' in ${quote(db.path)} (rec runs lists the recorded runs)\n`,
  );
  return { ok: false, status: 2 };
}

/** Opens the database for reading, or says in one line why not (missing, damaged…). */
export function openForReading(flag: string | undefined, command: string, io: CommandIO): SidecarDb | undefined {
  const path = resolveDbPath({ flag, env: io.env, cwd: io.cwd });
  const opened = openSidecar(path, { mustExist: true, readOnly: true });
  if (opened.ok) return opened.db;
  io.stderr.write(`rec ${command}: ${quote(opened.error)}\n`);
  return undefined;
}

/** For commands that read the sidecar through other means: the run's full record, looked up once. */
export function lookUpRun(flag: string | undefined, ref: string, command: string, io: CommandIO): RunRef {
  const db = openForReading(flag, command, io);
  if (db === undefined) return { ok: false, status: 1 };
  try {
    return resolveRunRef(db, ref, command, io);
  } finally {
    db.close();
  }
}
