// Runs merge tasks on several threads when there are many files (both cores), in-process otherwise,
// and hands results back in input order. With N jobs the main thread is one of them, beside N - 1
// worker threads: each worker pays for its own start and the warm-up of its own compiled code,
// which a second worker in place of the main thread paid for nothing while the main thread only
// wrote (docs/merge.md, "Why the code is shaped this way"). Threads pull the next file when they finish
// one, so the load balances by bytes (a thread busy with a long session takes no more files
// meanwhile). A worker's merged session comes back as UTF-8 bytes whose memory is transferred, not
// copied. Memory stays bounded: the files dispatched ahead of the one to be written next are
// limited in number (MAX_AHEAD) and in bytes (MAX_AHEAD_BYTES).
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { runTask, type MergeTask, type TaskMode, type TaskResult } from './mergeTask.js';
import { OutputBuffers } from './outputBuffers.js';
import type { SidecarReader } from '../store/sidecarReader.js';

/** Below this many files, starting workers costs more than it saves. */
export const MIN_FILES_FOR_WORKERS = 4;
/**
 * Input each thread of a run should have at least. A worker first starts and warms up its own
 * compiled code, which costs what one warm thread spends on several dozen MB of input; below
 * about this much per thread, a second thread makes the run slower, not faster (docs/merge.md,
 * "Why the code is shaped this way", has the measurements).
 */
export const MIN_BYTES_PER_THREAD = 96 * 1024 * 1024;
/** Results allowed to wait behind the one that must be written next; bounds peak memory. */
export const MAX_AHEAD = 16;
/**
 * Input bytes allowed in flight beyond the file to be written next. A merged session is about as
 * large as its file, so this bounds the results waiting behind a slow head of line; the head is
 * always dispatched, whatever its size.
 */
export const MAX_AHEAD_BYTES = 32 * 1024 * 1024;
/**
 * Tasks queued at each worker. Two: the worker starts its next file as soon as it posts a result,
 * instead of idling until the main thread (possibly descheduled on a busy machine) answers.
 */
export const TASKS_PER_WORKER = 2;

export interface PoolOptions {
  mode: TaskMode;
  /** 0 = choose (chooseJobs): a thread per 96 MB of input, up to the free cores. */
  jobs: number;
  dbPath: string | null;
  sidecar: SidecarReader | null;
  totalBytes: number;
  /** Size of each task's file (0 when unknown), for the in-flight byte bound. */
  sizes?: readonly number[];
  /** Called with each result, in input order. */
  onResult: (result: TaskResult, index: number) => void | Promise<void>;
  /**
   * The caller's `onResult` is done with the output's bytes when it returns (or its promise
   * resolves): they were handed to the kernel or copied. Each output's memory then serves a later
   * session (OutputBuffers): in-process directly, from a worker by transfer back to it. Without
   * this, each output has a buffer of its own.
   */
  reuseOutput?: boolean;
  /**
   * Aborted when the output is gone (`rec merge | head -1`): no task is started after that, and
   * results still in flight are dropped unread.
   */
  signal?: AbortSignal;
}

/** The compiled worker next to this module; absent when running from TypeScript sources (tests). */
function workerUrl(): URL | null {
  const url = new URL('./mergeWorker.js', import.meta.url);
  return existsSync(fileURLToPath(url)) ? url : null;
}

/**
 * Threads for a run (the main one and workers): as asked, else one per core that the 1-minute
 * load average leaves free, and no more than the input gives each MIN_BYTES_PER_THREAD. A worker
 * on a core another program keeps busy only splits that core, and with the workers' own start and
 * heaps the run is then slower than one thread (docs/merge.md).
 */
export function chooseJobs(requested: number, files: number, bytes: number, load: number = loadavg()[0] ?? 0): number {
  if (requested > 0) return requested;
  if (files < MIN_FILES_FOR_WORKERS) return 1;
  const cores = availableParallelism();
  return Math.max(1, Math.min(cores, files, Math.ceil(cores - load), Math.floor(bytes / MIN_BYTES_PER_THREAD)));
}

export async function runTasks(tasks: readonly MergeTask[], opts: PoolOptions): Promise<void> {
  const jobs = chooseJobs(opts.jobs, tasks.length, opts.totalBytes);
  const url = workerUrl();
  if (jobs <= 1 || url === null) {
    // One thread: a plain loop, not runOnWorkers with no worker. That does the same, but its
    // scheduling (a task per setImmediate, the next one dispatched before the last is written)
    // costs more CPU for no gain (docs/merge.md).
    const reuse = opts.reuseOutput ? new OutputBuffers() : null;
    for (let i = 0; i < tasks.length && !opts.signal?.aborted; i++) {
      const result = await safeRun(tasks[i]!, opts, reuse);
      if (opts.signal?.aborted) return;
      try {
        await opts.onResult(result, i);
      } finally {
        if (result.output !== null) reuse?.giveBack(result.output.buffer as ArrayBuffer);
      }
    }
    return;
  }
  await runOnWorkers(tasks, opts, jobs, url);
}

async function safeRun(task: MergeTask, opts: PoolOptions, reuse: OutputBuffers | null): Promise<TaskResult> {
  try {
    return await runTask(task, opts.mode, opts.sidecar, reuse);
  } catch (err) {
    return crashed(task, err instanceof Error ? err.stack ?? err.message : String(err));
  }
}

/** A task that threw is a bug in rec, reported like bad input so the rest of the work goes on. */
function crashed(task: MergeTask, message: string): TaskResult {
  const file = task.kind === 'file' ? task.path : task.sourceFile;
  return {
    output: null,
    stats: null,
    decisions: null,
    label: null,
    diagnostics: [{ severity: 'error', code: 'internal_error', message: `rec failed on this file: ${message}`, file, line: null }],
    bytes: 0,
  };
}

interface WorkerReply {
  seq: number;
  result?: TaskResult;
  error?: string;
}

/** A free task slot: a worker's, or the main thread's own (null). */
type Slot = Worker | null;

function runOnWorkers(tasks: readonly MergeTask[], opts: PoolOptions, jobs: number, url: URL): Promise<void> {
  return new Promise((resolveAll, rejectAll) => new WorkerRun(tasks, opts, resolveAll, rejectAll).start(jobs, url));
}

/** One runOnWorkers call: tasks go to free slots, at most MAX_AHEAD ahead; results are handed over in task order. */
class WorkerRun {
  private readonly _workers: Worker[] = [];
  // One entry per free task slot. The main thread's comes first: it starts at once, while the
  // workers are still starting.
  private readonly _idle: Slot[] = [null];
  private readonly _waiting = new Map<number, { result: TaskResult; from: Slot }>();
  private readonly _here: OutputBuffers | null; // for the main thread's tasks
  private _next = 0; // next task to dispatch
  private _emit = 0; // next result to hand over
  private _aheadBytes = 0; // input bytes of tasks dispatched after `emit` and not yet written
  private _emitting = false;
  private _settled = false;

  constructor(
    private readonly _tasks: readonly MergeTask[],
    private readonly _opts: PoolOptions,
    private readonly _resolveAll: () => void,
    private readonly _rejectAll: (err: unknown) => void,
  ) {
    this._here = _opts.reuseOutput ? new OutputBuffers() : null;
  }

  start(jobs: number, url: URL): void {
    const opts = this._opts;
    // The output went away: stop now; the workers are terminated with their tasks in flight.
    opts.signal?.addEventListener('abort', () => void this._drain(), { once: true });
    for (let i = 0; i < jobs - 1; i++) this._startWorker(url);
    if (this._tasks.length === 0 || opts.signal?.aborted) {
      this._settled = true;
      this._finish();
    } else this._dispatch();
  }

  private _size(i: number): number {
    return this._opts.sizes?.[i] ?? 0;
  }

  private _startWorker(url: URL): void {
    const opts = this._opts;
    const w = new Worker(url, { workerData: { dbPath: opts.dbPath, mode: opts.mode, reuseOutput: opts.reuseOutput === true } });
    w.on('message', (msg: WorkerReply) => {
      this._waiting.set(msg.seq, { result: msg.result ?? crashed(this._tasks[msg.seq]!, msg.error ?? 'unknown error'), from: w });
      this._idle.push(w);
      this._dispatch();
      void this._drain();
    });
    w.on('error', (err) => {
      if (!this._settled) {
        this._settled = true;
        this._finish(err);
      }
    });
    this._workers.push(w);
    for (let k = 0; k < TASKS_PER_WORKER; k++) this._idle.push(w);
  }

  private _finish(err?: unknown): void {
    for (const w of this._workers) void w.terminate();
    if (err) this._rejectAll(err);
    else this._resolveAll();
  }

  private _runHere(seq: number): void {
    // Once the tasks for the workers are posted: a task here holds this thread until it is done.
    setImmediate(() => {
      if (this._settled || this._opts.signal?.aborted) return;
      void safeRun(this._tasks[seq]!, this._opts, this._here).then((result) => {
        this._waiting.set(seq, { result, from: null });
        this._idle.push(null);
        this._dispatch();
        void this._drain();
      });
    });
  }

  private _dispatch(): void {
    const idle = this._idle;
    while (!this._opts.signal?.aborted && idle.length > 0 && this._next < this._tasks.length && this._next - this._emit < MAX_AHEAD) {
      const next = this._next;
      if (next > this._emit && this._aheadBytes + this._size(next) > MAX_AHEAD_BYTES) break;
      const slot = idle.shift()!; // round robin over the free slots
      if (next > this._emit) this._aheadBytes += this._size(next);
      if (slot === null) this._runHere(next);
      else slot.postMessage({ seq: next, task: this._tasks[next] });
      this._next++;
    }
  }

  private async _drain(): Promise<void> {
    if (this._emitting) return;
    this._emitting = true;
    const opts = this._opts;
    try {
      while (this._waiting.has(this._emit) && !opts.signal?.aborted) {
        const emit = this._emit;
        const { result: r, from } = this._waiting.get(emit)!;
        this._waiting.delete(emit);
        await opts.onResult(r, emit);
        // Written: its memory goes back to the thread that filled it, for a later session.
        if (opts.reuseOutput && r.output !== null) {
          const memory = r.output.buffer as ArrayBuffer;
          if (from === null) this._here?.giveBack(memory);
          else from.postMessage({ giveBack: memory }, [memory]);
        }
        this._emit++;
        // The new head no longer counts as ahead.
        if (this._emit < this._next) this._aheadBytes -= this._size(this._emit);
        this._dispatch();
      }
    } catch (err) {
      this._settled = true;
      this._finish(err);
      return;
    } finally {
      this._emitting = false;
    }
    if ((this._emit === this._tasks.length || opts.signal?.aborted) && !this._settled) {
      this._settled = true; // finished: later replies and worker errors are ignored
      this._finish();
    }
  }
}
