// Runs merge tasks on several threads when there are many files (both cores), in-process otherwise,
// and hands results back in input order. With N jobs the main thread is one of them, beside N - 1
// worker threads: each worker pays for its own start and the warm-up of its own compiled code
// (measured here: about 0.45 CPU s per worker), which a second worker in place of the main thread
// paid for nothing while the main thread only wrote. Threads pull the next file when they finish
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
 * compiled code, about 0.45 CPU s here: what one warm thread needs for some 80 MB. Measured on
 * this 2-core machine, two threads against one: 126 MB 15 % slower, 175 MB the same, 350 MB 7 %
 * faster, 520 MB 15 % faster (and 40-50 % more CPU each time).
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
 * on a core another program keeps busy only splits that core (measured here: two threads on a
 * machine with one free core each ran at half speed, and the run was slower than one thread,
 * because of the workers' own start and heaps).
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
    // cost 1-6 % more CPU on a 520 MB merge (six interleaved pairs).
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

/** Written: a result's output memory goes back to the thread that filled it, for a later session. */
function giveBackOutput(r: TaskResult, from: Slot, here: OutputBuffers | null): void {
  if (r.output === null) return;
  const memory = r.output.buffer as ArrayBuffer;
  if (from === null) here?.giveBack(memory);
  else from.postMessage({ giveBack: memory }, [memory]);
}

/** Starts `count` workers, each reporting its replies and its error to the pool. */
function startWorkers(
  count: number,
  url: URL,
  opts: PoolOptions,
  onReply: (w: Worker, msg: WorkerReply) => void,
  onError: (err: unknown) => void,
): Worker[] {
  const workers: Worker[] = [];
  for (let i = 0; i < count; i++) {
    const w = new Worker(url, { workerData: { dbPath: opts.dbPath, mode: opts.mode, reuseOutput: opts.reuseOutput === true } });
    w.on('message', (msg: WorkerReply) => onReply(w, msg));
    w.on('error', onError);
    workers.push(w);
  }
  return workers;
}

function runOnWorkers(tasks: readonly MergeTask[], opts: PoolOptions, jobs: number, url: URL): Promise<void> {
  return new Promise((resolveAll, rejectAll) => {
    const workers: Worker[] = [];
    // One entry per free task slot. The main thread's comes first: it starts at once, while the
    // workers are still starting.
    const idle: Slot[] = [null];
    const waiting = new Map<number, { result: TaskResult; from: Slot }>();
    const here = opts.reuseOutput ? new OutputBuffers() : null; // for the main thread's tasks
    const size = (i: number): number => opts.sizes?.[i] ?? 0;
    let next = 0; // next task to dispatch
    let emit = 0; // next result to hand over
    let aheadBytes = 0; // input bytes of tasks dispatched after `emit` and not yet written
    let emitting = false;
    let settled = false;

    // Settles the pool: later replies and worker errors are ignored.
    const finish = (err?: unknown): void => {
      settled = true;
      for (const w of workers) void w.terminate();
      if (err) rejectAll(err);
      else resolveAll();
    };
    const runHere = (seq: number): void => {
      // Once the tasks for the workers are posted: a task here holds this thread until it is done.
      setImmediate(() => {
        if (settled || opts.signal?.aborted) return;
        void safeRun(tasks[seq]!, opts, here).then((result) => {
          waiting.set(seq, { result, from: null });
          idle.push(null);
          dispatch();
          void drain();
        });
      });
    };
    const dispatch = (): void => {
      while (!opts.signal?.aborted && idle.length > 0 && next < tasks.length && next - emit < MAX_AHEAD) {
        if (next > emit && aheadBytes + size(next) > MAX_AHEAD_BYTES) break;
        const slot = idle.shift()!; // round robin over the free slots
        if (next > emit) aheadBytes += size(next);
        if (slot === null) runHere(next);
        else slot.postMessage({ seq: next, task: tasks[next] });
        next++;
      }
    };
    const drain = async (): Promise<void> => {
      if (emitting) return;
      emitting = true;
      try {
        while (waiting.has(emit) && !opts.signal?.aborted) {
          const { result: r, from } = waiting.get(emit)!;
          waiting.delete(emit);
          await opts.onResult(r, emit);
          if (opts.reuseOutput) giveBackOutput(r, from, here);
          emit++;
          // The new head no longer counts as ahead.
          if (emit < next) aheadBytes -= size(emit);
          dispatch();
        }
      } catch (err) {
        finish(err);
        return;
      } finally {
        emitting = false;
      }
      if ((emit === tasks.length || opts.signal?.aborted) && !settled) finish();
    };
    // The output went away: stop now; the workers are terminated with their tasks in flight.
    opts.signal?.addEventListener('abort', () => void drain(), { once: true });

    const onReply = (w: Worker, msg: WorkerReply): void => {
      waiting.set(msg.seq, { result: msg.result ?? crashed(tasks[msg.seq]!, msg.error ?? 'unknown error'), from: w });
      idle.push(w);
      dispatch();
      void drain();
    };
    const onError = (err: unknown): void => {
      if (!settled) finish(err);
    };
    workers.push(...startWorkers(jobs - 1, url, opts, onReply, onError));
    for (const w of workers) for (let k = 0; k < TASKS_PER_WORKER; k++) idle.push(w);
    if (tasks.length === 0 || opts.signal?.aborted) finish();
    else dispatch();
  });
}
