// `rec merge -o DIR`: one merged session per file. Each file appears whole or not at all: it is
// written under a hidden temporary name and renamed, so a full disk or a killed run never leaves a
// cut-short JSON file that reads like a session, and a session merged again gets a new, private
// file even where an older copy was readable by others. The first failure is reported once, on
// one line naming the folder and the file, and stops the run (its signal aborts the pool).
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Writable } from 'node:stream';

/** Merged files hold conversations: private to the user, like the sidecar. */
const OUTPUT_DIR_MODE = 0o700;
const OUTPUT_FILE_MODE = 0o600;

export class OutputFiles {
  private readonly _abort = new AbortController();
  private _failure: string | null = null;
  private _temps = 0;

  constructor(
    private readonly _dir: string,
    private readonly _err: Writable,
    private readonly _command: string,
  ) {}

  /** Aborted at the first failure: nothing more is worth reading. */
  get signal(): AbortSignal {
    return this._abort.signal;
  }

  get failure(): string | null {
    return this._failure;
  }

  /** Creates the folder (and its parents) when missing; false, reported, when it cannot. */
  async open(): Promise<boolean> {
    try {
      await makeDirs(this._dir);
      return true;
    } catch (err) {
      this._fail(`cannot create the folder: ${reason(err)}`);
      return false;
    }
  }

  /** Writes `name` in the folder; after a failure, does nothing. */
  async write(name: string, data: Uint8Array): Promise<void> {
    if (this._failure !== null) return;
    const temp = join(this._dir, `.${name}.${process.pid}-${this._temps++}.tmp`);
    try {
      await writeFile(temp, data, { mode: OUTPUT_FILE_MODE, flag: 'wx' });
      await rename(temp, join(this._dir, name));
    } catch (err) {
      await unlink(temp).catch(() => undefined); // absent when writeFile could not create it
      this._fail(`cannot write ${name}: ${reason(err)}`);
    }
  }

  private _fail(what: string): void {
    if (this._failure !== null) return;
    this._failure = what;
    this._err.write(`rec ${this._command}: -o ${this._dir}: ${what}\n`);
    this._abort.abort();
  }
}

/**
 * mkdir -p, one level at a time. Node's own `recursive: true` reports a read-only file system as
 * ENOENT (so the message would say "no such file") and never returns for a path under /proc.
 */
async function makeDirs(dir: string): Promise<void> {
  try {
    await mkdir(dir, { mode: OUTPUT_DIR_MODE });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    const parent = dirname(dir);
    if (code !== 'ENOENT' || parent === dir) throw err;
    await makeDirs(parent);
    await mkdir(dir, { mode: OUTPUT_DIR_MODE }).catch((again: NodeJS.ErrnoException) => {
      // Another process made it in between: it is there, which is all we need.
      if (again.code !== 'EEXIST') throw again;
    });
  }
}

/** "EACCES: permission denied, open '/x/.y.tmp'" → "EACCES: permission denied": the path is said already. */
/** The error's message without the path Node appends (the caller names the file itself). */
export function reason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/, \w+ '[^']*'(?: -> '[^']*')?$/, '');
}
