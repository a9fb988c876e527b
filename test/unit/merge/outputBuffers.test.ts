// The output buffers a merge lends to each session and takes back once its bytes are written,
// and the two things that make lending safe: the pool takes an output back only after onResult,
// and OutputGuard.write resolves only once the stream is done with the bytes.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runTasks } from '../../../src/merge/mergePool.js';
import type { MergeTask, TaskResult } from '../../../src/merge/mergeTask.js';
import { OutputGuard } from '../../../src/merge/outputGuard.js';
import { FIRST_OUTPUT_BYTES, MAX_REUSED_OUTPUT_BYTES, OutputBuffers } from '../../../src/merge/outputBuffers.js';
import { logFile } from '../../support/fixturePaths.js';

// Memory is compared by identity as booleans: vitest would format megabytes for its messages.
describe('OutputBuffers', () => {
  it('lends the same memory again once it is given back', () => {
    const pool = new OutputBuffers();
    const first = pool.lend(100);
    pool.giveBack(first.buffer as ArrayBuffer);
    expect(pool.lend(200).buffer === first.buffer).toBe(true);
  });

  it('never lends memory twice: until it is given back, a fresh buffer', () => {
    const pool = new OutputBuffers();
    const first = pool.lend(100);
    expect(pool.lend(100).buffer === first.buffer).toBe(false);
  });

  it('lends a free buffer only when it is large enough, and keeps the larger ones', () => {
    const pool = new OutputBuffers(1);
    const small = pool.lend(10);
    expect(small.length).toBe(FIRST_OUTPUT_BYTES);
    pool.giveBack(small.buffer as ArrayBuffer);
    const large = pool.lend(FIRST_OUTPUT_BYTES + 1);
    expect(large.buffer === small.buffer).toBe(false);
    pool.giveBack(large.buffer as ArrayBuffer); // the list holds one: the larger replaces the smaller
    expect(pool.freeCount).toBe(1);
    expect(pool.lend(10).buffer === large.buffer).toBe(true);
  });

  it('keeps nothing over the bound, and no more free buffers than asked: memory stays bounded', () => {
    const pool = new OutputBuffers(2);
    const huge = pool.lend(MAX_REUSED_OUTPUT_BYTES + 1);
    expect(huge.length).toBe(MAX_REUSED_OUTPUT_BYTES + 1);
    pool.giveBack(huge.buffer as ArrayBuffer);
    expect(pool.freeCount).toBe(0);
    const lent = [pool.lend(1), pool.lend(1), pool.lend(1)];
    for (const b of lent) pool.giveBack(b.buffer as ArrayBuffer);
    expect(pool.freeCount).toBe(2);
  });

  it('takes back memory that crossed threads: a transferred ArrayBuffer is a new object', () => {
    const pool = new OutputBuffers();
    const lent = pool.lend(10);
    lent[0] = 42;
    const memory = lent.buffer as ArrayBuffer;
    const moved = structuredClone(memory, { transfer: [memory] });
    pool.giveBack(moved);
    const again = pool.lend(10);
    expect(again.buffer === moved).toBe(true);
    expect(again[0]).toBe(42);
  });
});

const FILES = [
  logFile('codex', 'shell-deny-esc.rollout.jsonl'),
  logFile('claude', '13-parallel-reject-first-No.jsonl'),
  logFile('gemini', 'parallel-esc-first.session.jsonl'),
  logFile('codex', 'parallel-approve-deny.rollout.jsonl'),
];
const TASKS: MergeTask[] = FILES.map((path) => ({ kind: 'file', path, agent: null }));

/** Runs the tasks in-process, copying each output as onResult sees it; also keeps the buffers. */
async function mergeAll(reuseOutput: boolean): Promise<{ texts: string[]; buffers: ArrayBufferLike[] }> {
  const texts: string[] = [];
  const buffers: ArrayBufferLike[] = [];
  await runTasks(TASKS, {
    mode: 'merge',
    jobs: 1,
    dbPath: null,
    sidecar: null,
    totalBytes: 0,
    reuseOutput,
    onResult: (r: TaskResult) => {
      texts.push(Buffer.from(r.output!).toString('utf8'));
      buffers.push(r.output!.buffer);
    },
  });
  return { texts, buffers };
}

describe('runTasks with reuseOutput', () => {
  it('writes every session into the same memory, and each is whole when onResult sees it', async () => {
    const plain = await mergeAll(false);
    const reused = await mergeAll(true);
    expect(reused.texts).toEqual(plain.texts);
    expect(reused.texts.map((t) => JSON.parse(t).session.agent)).toEqual(['codex', 'claude', 'gemini', 'codex']);
    expect(new Set(reused.buffers).size).toBe(1);
    expect(new Set(plain.buffers).size).toBe(FILES.length);
  });
});

/** A stream that takes each chunk and calls back only when told to, like a pipe that is full. */
class HeldWritable extends Writable {
  readonly held: Array<{ chunk: Buffer; callback: () => void }> = [];
  constructor() {
    super({ highWaterMark: 1 << 30 }); // write() alone would always say "go on"
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.held.push({ chunk, callback });
  }
}

describe('OutputGuard.write', () => {
  it('resolves only once the stream is done with the bytes (its write callback), not when write() returns', async () => {
    const stream = new HeldWritable();
    const guard = new OutputGuard(stream, new HeldWritable(), 'merge');
    let resolved = false;
    const written = guard.write(Buffer.from('{"a":1}\n')).then(() => (resolved = true));
    await new Promise((r) => setImmediate(r));
    expect(stream.held).toHaveLength(1);
    expect(resolved).toBe(false);
    stream.held[0]!.callback();
    await written;
    expect(resolved).toBe(true);
  });

  it('resolves when the output goes away while a write is held, so the run does not hang', async () => {
    const stream = new HeldWritable();
    const guard = new OutputGuard(stream, new HeldWritable(), 'merge');
    const written = guard.write(Buffer.from('x\n'));
    stream.destroy();
    await written;
    expect(guard.closed).toBe(true);
  });
});
