// Where the sidecar database lives: --db, then REC_DB, then the XDG data folder.
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

export const DB_FILE_NAME = 'rec.db';

export interface DbPathInput {
  /** The value of `--db PATH`, if given. */
  readonly flag?: string;
  readonly env: NodeJS.ProcessEnv;
  /** Resolves a relative --db / REC_DB against this folder (defaults to process.cwd()). */
  readonly cwd?: string;
  /** For tests; defaults to the environment's HOME, then os.homedir(). */
  readonly home?: string;
}

/**
 * The database file to use: `--db PATH`, else `REC_DB`, else `$XDG_DATA_HOME/rec/rec.db`, else
 * `~/.local/share/rec/rec.db`. Empty values count as unset. The result is absolute.
 */
export function resolveDbPath(input: DbPathInput): string {
  const cwd = input.cwd ?? process.cwd();
  const explicit = nonEmpty(input.flag) ?? nonEmpty(input.env.REC_DB);
  if (explicit !== undefined) return resolve(cwd, explicit);
  // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
  const xdg = nonEmpty(input.env.XDG_DATA_HOME);
  const dataHome = xdg !== undefined && isAbsolute(xdg) ? xdg : join(input.home ?? nonEmpty(input.env.HOME) ?? homedir(), '.local', 'share');
  return join(dataHome, 'rec', DB_FILE_NAME);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
