// The batch commands' V8 tuning: applied only on V8 versions known to have the flag, and the flag
// is one this Node's V8 accepts (an unknown one would print an error on every merge and stats).
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BATCH_INLINE_BUDGET_BYTES, tuneV8ForBatch } from '../../../src/merge/batchV8Tuning.js';

describe('tuneV8ForBatch', () => {
  it.each(['9.4.146.26', '15.0.1', 'not a version'])('leaves V8 %s alone', (version) => {
    expect(tuneV8ForBatch(version)).toBe(false);
  });

  // V8 cannot report a flag back; what can fail here is the version gate and the flag's name.
  it("applies on this Node's V8, whose command line accepts the same flag without a word", () => {
    expect(tuneV8ForBatch()).toBe(true);
    const out = execFileSync(process.execPath, [`--max-inlined-bytecode-size-cumulative=${BATCH_INLINE_BUDGET_BYTES}`, '-e', 'process.stdout.write("ok")'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
    });
    expect(out).toBe('ok');
  });
});
