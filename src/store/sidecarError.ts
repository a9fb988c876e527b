// Errors of the sidecar store. Opening returns them as values (OpenFailure); methods of an open
// SidecarDb throw SidecarError, which the event sink turns into a one-line failure (fail-open).

export type SidecarErrorCode =
  | 'missing' // no database file (only when the caller asked for an existing one)
  | 'locked' // another process held the database longer than the busy timeout
  | 'corrupt' // not an SQLite database, or damaged
  | 'readonly' // the file or its folder cannot be written
  | 'full' // the disk (or the database's page limit) is full
  | 'invalid' // a value failed validation at the store's boundary
  | 'ambiguous' // a run id prefix matched more than one run
  | 'io'; // anything else from SQLite or the file system

export class SidecarError extends Error {
  override readonly name = 'SidecarError';
  constructor(
    message: string,
    readonly code: SidecarErrorCode,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Maps an SQLite or file-system error to our code and a short phrase for one-line messages. */
export function classifyError(err: unknown): { code: SidecarErrorCode; problem: string } {
  if (err instanceof SidecarError) return { code: err.code, problem: err.message };
  const e = err as { code?: unknown; message?: unknown };
  const code = typeof e?.code === 'string' ? e.code : '';
  let message = oneLine(typeof e?.message === 'string' ? e.message : String(err));
  // Node's fs errors end with ", open '<path>'": the caller already names the file.
  if (typeof (err as NodeJS.ErrnoException)?.syscall === 'string') message = message.replace(/, \w+ '.*'$/, '');
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return { code: 'locked', problem: 'locked by another process' };
  }
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    return { code: 'corrupt', problem: `not a usable SQLite database (${message}); the file was left untouched` };
  }
  if (code.startsWith('SQLITE_READONLY') || code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return { code: 'readonly', problem: `cannot be written (${message})` };
  }
  if (code.startsWith('SQLITE_CANTOPEN')) {
    return { code: 'readonly', problem: `cannot be opened for writing (${message})` };
  }
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') {
    return { code: 'full', problem: `disk full (${message})` };
  }
  if (code === 'EISDIR') return { code: 'io', problem: 'is a folder, not a database file' };
  // Node's messages already start with their code ("EISDIR: illegal operation…"): say it once.
  return { code: 'io', problem: code === '' || message.startsWith(`${code}:`) ? message : `${code}: ${message}` };
}

export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
