// A pexpect-style harness over a real pty (node-pty) with a rendered screen (@xterm/headless),
// in the shape of pexpect's spawn/expect/send and vhs's Wait+Screen. Waits are condition-based:
// every check runs when output arrives, and a timeout reports what was there.
import { createRequire } from 'node:module';
import * as pty from 'node-pty';
import { StringDecoder } from 'node:string_decoder';
import { deferDestroyUntilDrained, drainAfterEnd } from '../session/ptyDrain.js';
import { KEYS, type KeyName } from './keys.js';

const require = createRequire(import.meta.url);
const { Terminal } = require('@xterm/headless') as typeof import('@xterm/headless');

export const EOF: unique symbol = Symbol('EOF');
export const TIMEOUT: unique symbol = Symbol('TIMEOUT');
export type Pattern = string | RegExp | typeof EOF | typeof TIMEOUT;

/** How much raw output a timeout error shows (pexpect's str(spawn) shows the buffer tail). */
const ERROR_TAIL_BYTES = 2048;
/** How long dispose() gives a process to end on SIGTERM before it is killed. */
const FORCE_KILL_AFTER_MS = 1000;
/** Default for every wait; generous because CI has two cores shared by parallel test files. */
export const DEFAULT_TIMEOUT_MS = 15_000;

export { type KeyName } from './keys.js';

export interface SpawnOptions {
  cols?: number;
  rows?: number;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  timeoutMs?: number;
  /** Keep a rendered screen (default true); off for bulk-output tests that only read the stream. */
  screen?: boolean;
  /** Sees every output chunk as it arrives (a fixture recorder's cast; a terminal answering queries). */
  onOutput?: (data: string) => void;
}

export interface ExitStatus {
  exitCode: number;
  signal: number | undefined;
}

export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

type Waiter = () => boolean;

export class Spawned {
  readonly pid: number;
  /** Text before and including the last match, as pexpect's `before` / `after` / `match`. */
  before = '';
  after = '';
  match: RegExpMatchArray | null = null;

  private readonly _pty: pty.IPty;
  private readonly _term: InstanceType<typeof Terminal>;
  private readonly _timeoutMs: number;
  private _output = '';
  private _dataEvents = 0;
  /** Where the next expect() starts searching: what a match consumed is not matched again. */
  private _cursor = 0;
  private _exit: ExitStatus | undefined;
  private _pendingWrites = 0;
  private readonly _withScreen: boolean;
  private readonly _waiters = new Set<Waiter>();

  constructor(
    readonly command: string,
    readonly args: readonly string[],
    opts: SpawnOptions = {},
  ) {
    const cols = opts.cols ?? 100;
    const rows = opts.rows ?? 30;
    this._timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this._withScreen = opts.screen ?? true;
    this._term = new Terminal({ cols, rows, scrollback: 0, allowProposedApi: true });
    this._pty = pty.spawn(command, [...args], {
      name: 'xterm-256color',
      cols,
      rows,
      cwd: opts.cwd ?? process.cwd(),
      env: { ...(opts.env ?? process.env), TERM: 'xterm-256color' } as Record<string, string>,
    });
    this.pid = this._pty.pid;
    // The harness reads a pty too: it must not drop the tail of a child's output either.
    deferDestroyUntilDrained(this._pty, () => this._dataEvents);
    const drained = new StringDecoder('utf8');
    drainAfterEnd(this._pty, (chunk) => onData(drained.write(chunk)));
    const onData = (data: string) => {
      this._dataEvents++;
      this._output += data;
      opts.onOutput?.(data);
      if (this._withScreen) {
        this._pendingWrites++;
        this._term.write(data, () => {
          this._pendingWrites--;
          this._check();
        });
      }
      this._check();
    };
    this._pty.onData(onData);
    this._pty.onExit(({ exitCode, signal }) => {
      this._exit = { exitCode, signal: signal ? signal : undefined };
      this._check();
    });
  }

  /** All output so far, as the terminal received it. */
  get output(): string {
    return this._output;
  }

  get exitStatus(): ExitStatus | undefined {
    return this._exit;
  }

  /** The rendered screen, rows right-trimmed and joined by newlines. */
  screen(): string {
    const buf = this._term.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < this._term.rows; i++) {
      lines.push(buf.getLine(buf.viewportY + i)?.translateToString(true) ?? '');
    }
    return lines.join('\n');
  }

  /**
   * Waits until one of the patterns matches the output after the last match, and returns its index.
   * EOF or TIMEOUT in the list turn those conditions into results instead of errors.
   */
  expect(patterns: Pattern | Pattern[], timeoutMs = this._timeoutMs): Promise<number> {
    const list: Pattern[] = Array.isArray(patterns) ? patterns : [patterns];
    return this._waitFor(
      () => {
        const rest = this._output.slice(this._cursor);
        let best: { index: number; at: number; m: RegExpMatchArray } | undefined;
        list.forEach((p, index) => {
          if (p === EOF || p === TIMEOUT) return;
          const m = typeof p === 'string' ? matchString(rest, p) : rest.match(p);
          if (m && m.index !== undefined && (!best || m.index < best.at)) best = { index, at: m.index, m };
        });
        if (best) {
          this.before = rest.slice(0, best.at);
          this.after = best.m[0];
          this.match = best.m;
          this._cursor += best.at + best.m[0].length;
          return best.index;
        }
        if (this._exit && this._pendingWrites === 0) {
          const eof = list.indexOf(EOF);
          if (eof >= 0) return eof;
          throw new TimeoutError(this._describe(`EOF while waiting for ${describePatterns(list)}`));
        }
        return undefined;
      },
      timeoutMs,
      () => {
        const t = list.indexOf(TIMEOUT);
        if (t >= 0) return t;
        throw new TimeoutError(this._describe(`timeout after ${timeoutMs} ms waiting for ${describePatterns(list)}`));
      },
    );
  }

  /** Waits until the rendered screen matches (vhs Wait+Screen); returns the screen text. */
  expectScreen(pattern: RegExp | string, timeoutMs = this._timeoutMs): Promise<string> {
    return this._waitFor(
      () => {
        if (this._pendingWrites > 0) return undefined;
        const text = this.screen();
        const ok = typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);
        return ok ? text : undefined;
      },
      timeoutMs,
      () => {
        throw new TimeoutError(this._describe(`timeout after ${timeoutMs} ms waiting for screen ${String(pattern)}`));
      },
    );
  }

  send(data: string | Buffer): void {
    this._pty.write(typeof data === 'string' ? data : data.toString('binary'));
  }

  sendLine(text: string): void {
    this.send(text + '\r');
  }

  sendKey(name: KeyName): void {
    this.send(KEYS[name]);
  }

  sendControl(letter: string): void {
    const code = letter.toLowerCase().charCodeAt(0) - 96;
    this.send(String.fromCharCode(code));
  }

  /** Stops reading the pty (a slow terminal): the child's writes back up until resume(). */
  pause(): void {
    this._pty.pause();
  }

  resume(): void {
    this._pty.resume();
  }

  resize(cols: number, rows: number): void {
    this._term.resize(cols, rows);
    this._pty.resize(cols, rows);
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    try {
      process.kill(this.pid, signal);
    } catch {
      // ESRCH: already gone, which is what the caller wanted.
    }
  }

  /** Waits for the process to exit and for its last output to be rendered. */
  expectExit(timeoutMs = this._timeoutMs): Promise<ExitStatus> {
    return this._waitFor(
      () => (this._exit && this._pendingWrites === 0 ? this._exit : undefined),
      timeoutMs,
      () => {
        throw new TimeoutError(this._describe(`timeout after ${timeoutMs} ms waiting for exit`));
      },
    );
  }

  /**
   * Ends the process if it still runs — SIGTERM first, so it can stop what it started, then SIGKILL
   * if it is still there after FORCE_KILL_AFTER_MS — and frees the terminal. Safe to call twice.
   */
  dispose(): void {
    if (!this._exit) {
      this.kill('SIGTERM');
      const pid = this.pid;
      setTimeout(() => {
        if (this._exit) return;
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // ESRCH: it ended on SIGTERM, as it should.
        }
      }, FORCE_KILL_AFTER_MS).unref();
    }
    this._waiters.clear();
    this._term.dispose();
  }

  private _waitFor<T>(test: () => T | undefined, timeoutMs: number, onTimeout: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = () => {
        try {
          const value = test();
          if (value === undefined) return false;
          finish();
          resolve(value);
        } catch (err) {
          finish();
          reject(err);
        }
        return true;
      };
      const timer = setTimeout(() => {
        finish();
        try {
          resolve(onTimeout());
        } catch (err) {
          reject(err);
        }
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        this._waiters.delete(waiter);
      };
      if (!waiter()) this._waiters.add(waiter);
    });
  }

  private _check(): void {
    for (const waiter of [...this._waiters]) waiter();
  }

  private _describe(headline: string): string {
    const tail = this._output.slice(-ERROR_TAIL_BYTES);
    return [
      headline,
      `command: ${this.command} ${this.args.join(' ')}`,
      `exit: ${this._exit ? JSON.stringify(this._exit) : 'running'}`,
      `last ${ERROR_TAIL_BYTES} bytes of output: ${JSON.stringify(tail)}`,
      'screen:',
      '─'.repeat(40),
      this.screen(),
      '─'.repeat(40),
    ].join('\n');
  }
}

export function spawn(command: string, args: readonly string[] = [], opts: SpawnOptions = {}): Spawned {
  return new Spawned(command, args, opts);
}

function matchString(haystack: string, needle: string): RegExpMatchArray | null {
  const at = haystack.indexOf(needle);
  if (at < 0) return null;
  const m = [needle] as unknown as RegExpMatchArray;
  m.index = at;
  return m;
}

function describePatterns(list: Pattern[]): string {
  return list
    .map((p) => (p === EOF ? 'EOF' : p === TIMEOUT ? 'TIMEOUT' : typeof p === 'string' ? JSON.stringify(p) : String(p)))
    .join(' | ');
}
