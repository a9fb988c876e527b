// Worker thread entry: runs merge tasks sent by mergePool with its own read-only sidecar handle.
import { parentPort, workerData } from 'node:worker_threads';
import { runTask, type MergeTask, type TaskMode } from './mergeTask.js';
import { OutputBuffers } from './outputBuffers.js';
import { SidecarReader } from '../store/sidecarReader.js';

interface WorkerInit {
  dbPath: string | null;
  mode: TaskMode;
  /** The main thread transfers each written output's memory back ({ giveBack }) for reuse. */
  reuseOutput: boolean;
}

type WorkerMessage = { seq: number; task: MergeTask } | { giveBack: ArrayBuffer } | 'close';

const init = workerData as WorkerInit;
const sidecar = init.dbPath ? SidecarReader.open(init.dbPath).reader : null;
const buffers = init.reuseOutput ? new OutputBuffers() : null;

let queue: Promise<void> = Promise.resolve();

parentPort?.on('message', (msg: WorkerMessage) => {
  if (msg === 'close') {
    sidecar?.close();
    parentPort?.close();
    return;
  }
  if ('giveBack' in msg) {
    buffers?.giveBack(msg.giveBack);
    return;
  }
  // Tasks queued here run one after the other, in the order they came.
  queue = queue.then(() =>
    runTask(msg.task, init.mode, sidecar, buffers).then(
      // The merged bytes are transferred (moved, not copied) to the main thread, which writes them.
      (result) => parentPort?.postMessage({ seq: msg.seq, result }, result.output ? [result.output.buffer as ArrayBuffer] : []),
      (err: unknown) => parentPort?.postMessage({ seq: msg.seq, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
    ),
  );
});
