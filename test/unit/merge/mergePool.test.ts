// How many threads (the main one and workers) a run uses when --jobs is not given.
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { chooseJobs, MIN_BYTES_PER_THREAD, MIN_FILES_FOR_WORKERS } from '../../../src/merge/mergePool.js';

/** Enough input for a thread on every core of any machine this runs on. */
const BIG = MIN_BYTES_PER_THREAD * 1024;

describe('chooseJobs', () => {
  it('takes --jobs as given', () => {
    expect(chooseJobs(3, 1, 0, 99)).toBe(3);
  });

  it('runs in one thread when there are few files or few bytes', () => {
    expect(chooseJobs(0, MIN_FILES_FOR_WORKERS - 1, BIG, 0)).toBe(1);
    expect(chooseJobs(0, 1000, 2 * MIN_BYTES_PER_THREAD - 1, 0)).toBe(1);
  });

  it('gives each thread at least MIN_BYTES_PER_THREAD of input', () => {
    const cores = availableParallelism();
    expect(chooseJobs(0, 1000, 2 * MIN_BYTES_PER_THREAD, 0)).toBe(Math.min(2, cores));
    expect(chooseJobs(0, 1000, 3 * MIN_BYTES_PER_THREAD - 1, 0)).toBe(Math.min(2, cores));
    expect(chooseJobs(0, 1000, 3 * MIN_BYTES_PER_THREAD, 0)).toBe(Math.min(3, cores));
  });

  it('uses every core on an idle machine, never more workers than files', () => {
    expect(chooseJobs(0, 1000, BIG, 0)).toBe(availableParallelism());
    expect(chooseJobs(0, MIN_FILES_FOR_WORKERS, BIG, 0)).toBe(Math.min(availableParallelism(), MIN_FILES_FOR_WORKERS));
  });

  it('leaves out the cores the load average says are busy, keeping at least one', () => {
    const cores = availableParallelism();
    expect(chooseJobs(0, 1000, BIG, cores)).toBe(1);
    expect(chooseJobs(0, 1000, BIG, cores * 3)).toBe(1);
    if (cores > 1) expect(chooseJobs(0, 1000, BIG, 0.9)).toBe(cores);
    if (cores > 1) expect(chooseJobs(0, 1000, BIG, 1)).toBe(cores - 1);
  });
});
