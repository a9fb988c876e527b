// Spawning store-child.mjs: real processes on a real database file. The child runs the compiled
// store from dist/ (`npm test` builds first); a stale build is refused with a clear message.
import { spawn, type ChildProcessWithoutNullStreams, type SpawnOptions } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CHILD = join(root, 'test', 'integration', 'store', 'store-child.mjs');

/**
 * How long to wait for a child's line or exit. Generous: several engineers' tests share two cores,
 * and a child spends most of its time starting Node and loading better-sqlite3. Waits end as soon
 * as the condition holds, so this only bounds a failure.
 */
export const CHILD_WAIT_MS = 60_000;

export function assertDistFresh(): void {
  const built = join(root, 'dist', 'store', 'sidecarDb.js');
  let builtAt: number;
  try {
    builtAt = statSync(built).mtimeMs;
  } catch {
    throw new Error(`${built} is missing: run \`npx tsc -p tsconfig.json\` first (npm test does)`);
  }
  const srcDir = join(root, 'src', 'store');
  for (const file of readdirSync(srcDir)) {
    if (statSync(join(srcDir, file)).mtimeMs > builtAt) {
      throw new Error(`dist/ is older than src/store/${file}: run \`npx tsc -p tsconfig.json\` first (npm test does)`);
    }
  }
}

export class Child {
  readonly lines: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private _stderr = '';
  private _partial = '';
  private _waiters: Array<() => void> = [];

  constructor(readonly process: ChildProcessWithoutNullStreams) {
    process.stdout.setEncoding('utf8');
    process.stdout.on('data', (chunk: string) => {
      const parts = (this._partial + chunk).split('\n');
      this._partial = parts.pop()!;
      this.lines.push(...parts);
      for (const wake of this._waiters.splice(0)) wake();
    });
    process.stderr.setEncoding('utf8');
    process.stderr.on('data', (chunk: string) => (this._stderr += chunk));
    this.exited = new Promise((resolve) => process.on('close', (code, signal) => resolve({ code, signal })));
    void this.exited.then(() => {
      for (const wake of this._waiters.splice(0)) wake();
    });
  }

  get stderr(): string {
    return this._stderr;
  }

  /** Resolves with the first line matching `pattern`; rejects on exit or timeout with what was seen. */
  async waitForLine(pattern: RegExp): Promise<string> {
    const deadline = Date.now() + CHILD_WAIT_MS;
    let done = false;
    void this.exited.then(() => (done = true));
    for (;;) {
      const line = this.lines.find((l) => pattern.test(l));
      if (line !== undefined) return line;
      if (done || Date.now() > deadline) {
        throw new Error(`child never printed ${pattern}; stdout: ${JSON.stringify(this.lines)}; stderr: ${this._stderr}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()) + 1);
        this._waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The last stdout line parsed as JSON, after the child exited. */
  async result(): Promise<Record<string, unknown>> {
    await this.exited;
    const last = [...this.lines].reverse().find((l) => l.startsWith('{'));
    if (last === undefined) throw new Error(`child printed no result; stdout: ${JSON.stringify(this.lines)}; stderr: ${this._stderr}`);
    return JSON.parse(last) as Record<string, unknown>;
  }
}

export function startChild(args: string[], options: { barrier?: boolean; uid?: number; gid?: number } = {}): Child {
  const spawnOptions: SpawnOptions = {
    cwd: root,
    env: { ...process.env, STORE_BARRIER: options.barrier ? '1' : '0' },
    stdio: 'pipe',
  };
  if (options.uid !== undefined) spawnOptions.uid = options.uid;
  if (options.gid !== undefined) spawnOptions.gid = options.gid;
  return new Child(spawn(process.execPath, [CHILD, ...args], spawnOptions) as ChildProcessWithoutNullStreams);
}

/** Starts children that wait at a barrier, then releases them all at once. */
export async function startTogether(argsList: string[][]): Promise<Child[]> {
  const children = argsList.map((args) => startChild(args, { barrier: true }));
  await Promise.all(children.map((c) => c.waitForLine(/^READY$/)));
  for (const c of children) c.process.stdin.end('GO\n'); // end stdin too: the child must not wait on it
  return children;
}
