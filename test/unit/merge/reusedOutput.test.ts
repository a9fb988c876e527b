// The output buffer an in-process merge lends to each session in turn, and the two things that
// make lending it safe: the pool gives it back only after onResult, and OutputGuard.write resolves
// only once the stream is done with the bytes.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runTasks } from '../../../src/merge/mergePool.js';
import type { MergeTask, TaskResult } from '../../../src/merge/mergeTask.js';
import { OutputGuard } from '../../../src/merge/outputGuard.js';
import { MAX_REUSED_OUTPUT_BYTES, ReusedOutput } from '../../../src/merge/reusedOutput.js';
import { logFile } from '../readers/fixturePaths.js';

// Buffers are compared by identity as booleans: vitest would format megabytes for its messages.
describe('ReusedOutput', () => {
  it('lends the same buffer again once it is given back', () => {
    const reuse = new ReusedOutput();
    const first = reuse.lend(100);
    reuse.giveBack();
    expect(reuse.lend(200) === first).toBe(true);
  });

  it('never lends the kept buffer twice: while it is out, a fresh one', () => {
    const reuse = new ReusedOutput();
    const first = reuse.lend(100);
    const second = reuse.lend(100);
    expect(second === first).toBe(false);
    expect(second.buffer === first.buffer).toBe(false);
  });

  it('grows for a larger session and keeps the larger buffer', () => {
    const reuse = new ReusedOutput();
    const small = reuse.lend(10);
    reuse.giveBack();
    const large = reuse.lend(small.length + 1);
    expect(large === small).toBe(false);
    expect(large.length).toBeGreaterThan(small.length);
    reuse.giveBack();
    expect(reuse.lend(small.length + 1) === large).toBe(true);
  });

  it('does not keep a buffer over the bound: memory stays bounded', () => {
    const reuse = new ReusedOutput();
    const kept = reuse.lend(10);
    reuse.giveBack();
    const huge = reuse.lend(MAX_REUSED_OUTPUT_BYTES + 1);
    expect(huge === kept).toBe(false);
    reuse.giveBack();
    expect(reuse.lend(10) === kept).toBe(true);
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
  it('writes every session into one buffer, and each is whole when onResult sees it', async () => {
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
