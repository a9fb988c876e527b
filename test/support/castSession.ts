// One agent CLI in a real pty with a rendered screen (@xterm/headless), every output chunk, key and
// resize kept as asciicast v2 events, and labelled screen frames: what a fixture recorder needs for
// any agent. Waits are condition-based (checked whenever output lands), never sleeps.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as pty from 'node-pty';

const require = createRequire(import.meta.url);
const { Terminal } = require('@xterm/headless') as typeof import('@xterm/headless');

export type CastEvent = [number, 'o' | 'i' | 'r', string];

export interface Frame {
  readonly label: string;
  readonly t: number;
  readonly cols: number;
  readonly rows: number;
  readonly text: string;
}

export interface CastSessionOptions {
  readonly cols: number;
  readonly rows: number;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

export class CastSession {
  readonly events: CastEvent[] = [];
  readonly frames: Frame[] = [];
  exited: { exitCode: number; signal?: number } | undefined;
  private readonly _pty: pty.IPty;
  private readonly _term: InstanceType<typeof Terminal>;
  private readonly _started = Date.now();
  private readonly _waiters = new Set<() => void>();
  private _pending = 0;
  private _cols: number;
  private _rows: number;

  constructor(command: string, args: readonly string[], opts: CastSessionOptions) {
    this._cols = opts.cols;
    this._rows = opts.rows;
    this._term = new Terminal({ cols: opts.cols, rows: opts.rows, scrollback: 0, allowProposedApi: true });
    this._pty = pty.spawn(command, [...args], { name: 'xterm-256color', cols: opts.cols, rows: opts.rows, cwd: opts.cwd, env: opts.env });
    this._pty.onData((data) => {
      this.events.push([this.stamp(), 'o', data]);
      this._pending += 1;
      this._term.write(data, () => {
        this._pending -= 1;
        this._wake();
      });
    });
    this._pty.onExit((e) => {
      this.exited = e;
      this._wake();
    });
  }

  get pid(): number {
    return this._pty.pid;
  }

  stamp(): number {
    return Number(((Date.now() - this._started) / 1000).toFixed(6));
  }

  screen(): string {
    const buf = this._term.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < this._term.rows; i += 1) lines.push(buf.getLine(buf.viewportY + i)?.translateToString(true) ?? '');
    return lines.join('\n').replace(/\n+$/, '');
  }

  snap(label: string): void {
    this.frames.push({ label, t: this.stamp(), cols: this._cols, rows: this._rows, text: this.screen() });
  }

  send(data: string): void {
    this.events.push([this.stamp(), 'i', data]);
    this._pty.write(data);
  }

  resize(cols: number, rows: number): void {
    this._cols = cols;
    this._rows = rows;
    this.events.push([this.stamp(), 'r', `${cols}x${rows}`]);
    this._term.resize(cols, rows);
    this._pty.resize(cols, rows);
  }

  /** Resolves once the rendered screen (all output written) matches; rejects on exit or timeout with the screen. */
  waitScreen(re: RegExp, timeoutMs: number): Promise<void> {
    return this._wait(
      () => (this._pending === 0 && re.test(this.screen()) ? true : undefined),
      () => (this.exited ? `exited (${JSON.stringify(this.exited)}) while waiting for ${re}` : undefined),
      `timeout waiting for ${re}`,
      timeoutMs,
    );
  }

  waitExit(timeoutMs: number): Promise<void> {
    return this._wait(() => (this.exited && this._pending === 0 ? true : undefined), () => undefined, 'timeout waiting for exit', timeoutMs);
  }

  kill(): void {
    if (!this.exited) this._pty.kill('SIGKILL');
  }

  /** Writes `<base>.cast` (asciicast v2) and `<base>.screen.txt` (the labelled frames between ─ rules). */
  write(base: string, title: string, size: { cols: number; rows: number }): void {
    const header = { version: 2, width: size.cols, height: size.rows, timestamp: Math.floor(this._started / 1000), title, env: { TERM: 'xterm-256color', SHELL: '/bin/bash' } };
    writeFileSync(`${base}.cast`, [header, ...this.events].map((e) => JSON.stringify(e)).join('\n') + '\n');
    const rule = '─'.repeat(80);
    writeFileSync(`${base}.screen.txt`, this.frames.map((f) => `${rule}\n# ${f.label} t=${f.t}s ${f.cols}x${f.rows}\n${rule}\n${f.text}\n`).join(''));
  }

  dispose(): void {
    this.kill();
    this._term.dispose();
  }

  private _wake(): void {
    for (const w of [...this._waiters]) w();
  }

  private _wait(ok: () => true | undefined, fail: () => string | undefined, timeoutText: string, timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        this._waiters.delete(check);
      };
      const check = (): void => {
        if (ok()) {
          done();
          resolve();
          return;
        }
        const why = fail();
        if (why) {
          done();
          reject(new Error(`${why}\n${this.screen()}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${timeoutText}; screen:\n${this.screen()}`));
      }, timeoutMs);
      this._waiters.add(check);
      check();
    });
  }
}
